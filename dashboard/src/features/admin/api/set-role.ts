import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { AdminUser } from './types.ts';

/** POST /apimt/admin/users/:username/role/ — V2 until a date, or permanently (null). */
export async function setRole(username: string, role: 'V1' | 'V2', activeUntil: string | null): Promise<AdminUser> {
  return (
    await apiCall<AdminUser>(`/apimt/admin/users/${encodeURIComponent(username)}/role/`, {
      body: role === 'V2' ? { role, active_until: activeUntil } : { role },
      onError: { title: '修改失败！', timeout: SECONDS.five },
      onSuccess: { title: '修改成功！', content: false, timeout: SECONDS.two },
    })
  ).data;
}
