import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** POST /apimt/upload_image/ (form field upload_file): the picture's URL, sent as artist_img / genre_img on save. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('upload_file', file);
  const answer = await apiCall<string>('/apimt/upload_image/', { body: form, onError: { title: '上传失败！', timeout: SECONDS.three } });
  return answer.data;
}
