/**
 * The cover upload's limits (spec §5, §9: "max file size 5, max image size 20", units not shown). We read
 * them as 5 MB per file and 20 megapixels per picture, like the tag editor's cover field: two limits in one
 * unit would make the second one moot, and a pixel cap keeps a small but huge-canvas file from stalling
 * the server's resize.
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
export async function pixelsOf(file: Blob): Promise<number> {
  const bitmap = await createImageBitmap(file);
  const n = bitmap.width * bitmap.height;
  bitmap.close();
  return n;
}
