import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** POST /apimt/upload_logo_and_save/ (form field upload_file); answers the new background's URL. */
export async function uploadBackground(file: File): Promise<string> {
  const form = new FormData();
  form.append('upload_file', file);
  const env = await apiCall<string>('/apimt/upload_logo_and_save/', {
    body: form,
    onError: { title: '上传失败！', timeout: SECONDS.three },
    onSuccess: { title: '上传成功！', content: '图片已保存到本地', timeout: SECONDS.three },
  });
  return env.data;
}
