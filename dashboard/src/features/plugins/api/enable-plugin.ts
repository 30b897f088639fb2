import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { PluginItem } from './types.ts';

/** POST /apimt/enable_script/ (administrators): switches a plugin on or off; workers reload it. */
export async function enablePlugin(id: string, enabled: boolean): Promise<PluginItem> {
  return (
    await apiCall<PluginItem>('/apimt/enable_script/', {
      body: { id, enabled },
      onError: { title: '修改失败！', timeout: SECONDS.five },
      onSuccess: { title: enabled ? '已启用' : '已停用', content: false, timeout: SECONDS.two },
    })
  ).data;
}
