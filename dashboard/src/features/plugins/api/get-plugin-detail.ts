import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { PluginDetail } from './types.ts';

/** POST /apimt/script_detail/: versions, settings form and values (secrets masked), the environment's base URL. */
export async function getPluginDetail(id: string): Promise<PluginDetail> {
  return (await apiCall<PluginDetail>('/apimt/script_detail/', { body: { id }, onError: { title: '查询失败！', timeout: SECONDS.five } })).data;
}
