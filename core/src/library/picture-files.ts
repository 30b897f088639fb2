/**
 * The library's own pictures on disk (artist pictures, album/genre/playlist pictures): checked (size, a JPEG, PNG,
 * WebP or GIF by its bytes), named by their owner and content, and written atomically (temp file → rename) into the
 * store's folder. artist-meta.ts and entity-meta.ts keep the documents that point at them.
 */
import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { invalid, unavailable } from '../errors/errors.ts';
import { sniffImage } from '../tags/image-info.ts';

const IMAGE_TYPES: Readonly<Record<string, string>> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif' };

export interface PictureFile {
  file: string;
  mime: string;
  size: number;
  url: string | null;
}

/** How one store words and codes its refusals ("The artist picture is …"). */
export interface PictureRules {
  what: string;
  maxBytes: number;
  invalidCode: string;
  unavailableCode: string;
  unavailableMessage: string;
}

/** Writes `data` as `<prefix>-<content hash>.<ext>` in `dir`; refuses a missing folder, an oversize or a non-image. */
export async function writePicture(dir: string | null, prefix: string, data: Uint8Array, url: string | null, rules: PictureRules): Promise<PictureFile> {
  if (!dir) throw unavailable(rules.unavailableCode, rules.unavailableMessage);
  if (data.byteLength > rules.maxBytes) {
    throw invalid(rules.invalidCode, `${rules.what} is ${data.byteLength} bytes; at most ${rules.maxBytes} are kept.`, { size: data.byteLength });
  }
  const mime = sniffImage(data)?.mime;
  const ext = mime ? IMAGE_TYPES[mime] : undefined;
  if (!mime || !ext) throw invalid(rules.invalidCode, `${rules.what} is not a JPEG, PNG, WebP or GIF image.`, { mime: mime ?? null });
  const file = `${prefix}-${createHash('sha1').update(data).digest('hex').slice(0, 12)}.${ext}`;
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, file);
  const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, data);
  await rename(temp, target);
  return { file, mime, size: data.byteLength, url };
}
