import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { ApiKey } from './types.ts';

/** GET /apimt/admin/users/:username/api_keys/. */
export async function listApiKeys(username: string): Promise<ApiKey[]> {
  return (await apiCall<{ keys: ApiKey[] }>(`/apimt/admin/users/${encodeURIComponent(username)}/api_keys/`, { onError: { title: '查询失败！', timeout: SECONDS.five } })).data.keys;
}
