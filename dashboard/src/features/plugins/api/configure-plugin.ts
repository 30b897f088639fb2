import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { PluginItem } from './types.ts';

/**
 * POST /apimt/configure_script/ (administrators): the base-URL override (null clears it) and the settings
 * form's values. A secret sent back as its mask keeps the saved value.
 */
export async function configurePlugin(id: string, settings: { base_url?: string | null; config?: Record<string, unknown> }): Promise<PluginItem> {
  return (
    await apiCall<PluginItem>('/apimt/configure_script/', {
      body: { id, ...settings },
      onError: { title: '保存失败！', timeout: SECONDS.five },
      onSuccess: { title: '保存成功！', content: false, timeout: SECONDS.two },
    })
  ).data;
}
