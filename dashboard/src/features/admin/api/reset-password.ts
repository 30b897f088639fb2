import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** POST /apimt/admin/users/:username/password/. */
export async function resetPassword(username: string, password: string): Promise<void> {
  await apiCall<null>(`/apimt/admin/users/${encodeURIComponent(username)}/password/`, {
    body: { password },
    onError: { title: '修改失败！', timeout: SECONDS.five },
    onSuccess: { title: '密码已重置', content: false, timeout: SECONDS.two },
  });
}
