import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** DELETE /apimt/admin/users/:username/. */
export async function deleteUser(username: string): Promise<void> {
  await apiCall<null>(`/apimt/admin/users/${encodeURIComponent(username)}/`, {
    method: 'DELETE',
    onError: { title: '删除失败！', timeout: SECONDS.five },
    onSuccess: { title: '删除成功！', content: false, timeout: SECONDS.two },
  });
}
