import { apiCall } from './api-client.ts';
import { SECONDS } from './constants.ts';

/**
 * POST /apimt/upload_image/ (form field upload_file, spec doc 1 §7): the picture's URL, which the editor sends as
 * album_img and the library's edit drawers as album_img / artist_img / genre_img / playlist_img. Shared by every
 * feature that uploads a cover, so the failure notice ('上传失败！', 3 s) is the same everywhere.
 */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('upload_file', file);
  const env = await apiCall<string>('/apimt/upload_image/', { body: form, onError: { title: '上传失败！', timeout: SECONDS.three } });
  return env.data;
}
