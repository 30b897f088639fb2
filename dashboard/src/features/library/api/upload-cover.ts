import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** POST /apimt/upload_image/ (one file, field upload_file): the cover's URL, sent as album_img on save. */
export async function uploadCover(file: File): Promise<string> {
  const form = new FormData();
  form.append('upload_file', file);
  const answer = await apiCall<string>('/apimt/upload_image/', { body: form, onError: { title: '上传失败！', timeout: SECONDS.three } });
  // §5: an upload whose answer is not result true (apiCall throws) or carries no URL is rejected.
  if (typeof answer.data !== 'string' || answer.data === '') throw new Error('upload_image answered without a URL');
  return answer.data;
}
