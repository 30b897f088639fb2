import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { ApiKey } from './types.ts';

/** POST /apimt/admin/users/:username/api_keys/ — the key itself is in this answer only. */
export async function createApiKey(username: string, name: string): Promise<ApiKey & { key: string }> {
  return (
    await apiCall<ApiKey & { key: string }>(`/apimt/admin/users/${encodeURIComponent(username)}/api_keys/`, {
      body: { name },
      onError: { title: '创建失败！', fallback: '创建失败', timeout: SECONDS.five },
    })
  ).data;
}
