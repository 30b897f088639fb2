import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { AdminUser } from './types.ts';

/** DELETE /apimt/admin/users/:username/subsonic_password/. */
export async function clearSubsonicPassword(username: string): Promise<AdminUser> {
  return (
    await apiCall<AdminUser>(`/apimt/admin/users/${encodeURIComponent(username)}/subsonic_password/`, {
      method: 'DELETE',
      onError: { title: '修改失败！', timeout: SECONDS.five },
      onSuccess: { title: '修改成功！', content: 'Subsonic 密码已清除', timeout: SECONDS.two },
    })
  ).data;
}
