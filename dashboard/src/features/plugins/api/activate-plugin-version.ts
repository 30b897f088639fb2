import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { PluginItem } from './types.ts';

/** POST /apimt/activate_script_version/ (administrators): runs a kept version from now on (roll back or forward). */
export async function activatePluginVersion(id: string, version: string): Promise<PluginItem> {
  return (
    await apiCall<PluginItem>('/apimt/activate_script_version/', {
      body: { id, version },
      onError: { title: '切换失败！', timeout: SECONDS.five },
      onSuccess: { title: '版本已切换', content: false, timeout: SECONDS.two },
    })
  ).data;
}
