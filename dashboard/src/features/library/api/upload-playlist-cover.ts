import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** POST /apimt/upload_image/ (form field upload_file): the cover's URL, sent as playlist_img on save. */
export async function uploadPlaylistCover(file: File): Promise<string> {
  const form = new FormData();
  form.append('upload_file', file);
  const env = await apiCall<string>('/apimt/upload_image/', { body: form, onError: { title: '上传失败！', timeout: SECONDS.three } });
  return env.data;
}
