import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { AdminUser } from './types.ts';

/** POST /apimt/admin/users/:username/subsonic_password/ — what Subsonic clients (and the header search) sign in with. */
export async function setSubsonicPassword(username: string, password: string): Promise<AdminUser> {
  return (
    await apiCall<AdminUser>(`/apimt/admin/users/${encodeURIComponent(username)}/subsonic_password/`, {
      body: { password },
      onError: { title: '修改失败！', timeout: SECONDS.five },
      onSuccess: { title: '修改成功！', content: 'Subsonic 密码已设置', timeout: SECONDS.two },
    })
  ).data;
}
