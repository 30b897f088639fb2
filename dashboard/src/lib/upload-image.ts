import { apiCall } from './api-client.ts';
import { SECONDS } from './constants.ts';
import { translate } from './i18n.ts';
import { notifyError } from './notify.ts';

/**
 * The cover upload's limits (spec §5, §9: "max file size 5, max image size 20", units not shown), read as 5 MB per
 * file and 20 megapixels per picture: two limits in one unit would make the second one moot, and a pixel cap keeps a
 * small but huge-canvas file from stalling the server's resize.
 */
export const MAX_COVER_BYTES = 5 * 1024 * 1024;
export const MAX_COVER_PIXELS = 20_000_000;

/** The Chinese key of the first limit the file breaks, or null. `pixels` is width × height once decoded. */
export function coverProblem(file: { type: string; size: number }, pixels?: number): string | null {
  if (!file.type.startsWith('image/')) return '只能上传图片文件';
  if (file.size > MAX_COVER_BYTES) return '图片不能超过 5 MB';
  if (pixels !== undefined && pixels > MAX_COVER_PIXELS) return '图片不能超过 2000 万像素';
  return null;
}

/** Decodes the picture to count its pixels (the browser's decoder; a file it cannot decode is not an image). */
async function pixelsOf(file: Blob): Promise<number> {
  const bitmap = await createImageBitmap(file);
  const n = bitmap.width * bitmap.height;
  bitmap.close();
  return n;
}

/**
 * POST /apimt/upload_image/ (form field upload_file, spec doc 1 §7): the picture's URL, which the editor sends as
 * album_img and the library's edit drawers as album_img / artist_img / genre_img / playlist_img.
 */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('upload_file', file);
  const env = await apiCall<string>('/apimt/upload_image/', { body: form, onError: { title: '上传失败！', timeout: SECONDS.three } });
  return env.data;
}

/**
 * Every cover field's upload: the limits checked in the browser before anything is sent, then the upload. Resolves
 * the picture's URL, or null after a '上传失败！' notice (the limit broken, or the server's reason).
 */
export async function uploadCover(file: File): Promise<string | null> {
  const problem = coverProblem(file) ?? coverProblem(file, await pixelsOf(file).catch(() => Number.POSITIVE_INFINITY));
  if (problem) {
    notifyError(translate('上传失败！'), translate(problem), SECONDS.three);
    return null;
  }
  return uploadImage(file).catch(() => null); // 上传失败！ has been shown by the call
}
