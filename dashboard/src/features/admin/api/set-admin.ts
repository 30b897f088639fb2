import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { AdminUser } from './types.ts';

/** POST /apimt/admin/users/:username/admin/. */
export async function setAdmin(username: string, isAdmin: boolean): Promise<AdminUser> {
  return (
    await apiCall<AdminUser>(`/apimt/admin/users/${encodeURIComponent(username)}/admin/`, {
      body: { is_admin: isAdmin },
      onError: { title: '修改失败！', timeout: SECONDS.five },
      onSuccess: { title: '修改成功！', content: false, timeout: SECONDS.two },
    })
  ).data;
}
