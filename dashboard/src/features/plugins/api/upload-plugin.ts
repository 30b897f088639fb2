import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { PluginItem } from './types.ts';

/** POST /apimt/upload_script/ (form field upload_file, a `.js` or `.zip`); a new plugin arrives disabled. */
export async function uploadPlugin(file: File): Promise<PluginItem> {
  const form = new FormData();
  form.append('upload_file', file);
  return (
    await apiCall<PluginItem>('/apimt/upload_script/', {
      body: form,
      onError: { title: '上传失败！', timeout: SECONDS.five },
      onSuccess: { title: '上传成功！', content: false, timeout: SECONDS.two },
    })
  ).data;
}
