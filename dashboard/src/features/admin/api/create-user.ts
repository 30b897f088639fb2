import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { AdminUser } from './types.ts';

/** POST /apimt/admin/users/. */
export async function createUser(input: { username: string; password: string; role: 'V1' | 'V2'; is_admin: boolean }): Promise<AdminUser> {
  return (
    await apiCall<AdminUser>('/apimt/admin/users/', {
      body: input,
      onError: { title: '创建失败！', fallback: '创建失败', timeout: SECONDS.five },
      onSuccess: { title: '创建成功！', content: false, timeout: SECONDS.two },
    })
  ).data;
}
