import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** DELETE /apimt/admin/users/:username/api_keys/:id/. */
export async function deleteApiKey(username: string, id: string): Promise<void> {
  await apiCall<null>(`/apimt/admin/users/${encodeURIComponent(username)}/api_keys/${encodeURIComponent(id)}/`, {
    method: 'DELETE',
    onError: { title: '删除失败！', timeout: SECONDS.five },
    onSuccess: { title: '删除成功！', content: false, timeout: SECONDS.two },
  });
}
