import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { PluginItem } from './types.ts';

/**
 * POST /apimt/remove_script/ (administrators): one uploaded version, or (no version) the whole uploaded
 * plugin, which answers null. Built-in versions stay.
 */
export async function removePlugin(id: string, version?: string): Promise<PluginItem | null> {
  return (
    await apiCall<PluginItem | null>('/apimt/remove_script/', {
      body: version ? { id, version } : { id },
      onError: { title: '删除失败！', timeout: SECONDS.five },
      onSuccess: { title: '删除成功！', content: false, timeout: SECONDS.two },
    })
  ).data;
}
