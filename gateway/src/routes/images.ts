import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { TagsonicError, invalid, notFound } from '@tagsonic/core/errors';
import { isAudioName, isImageName, toJpeg, writeAtomically } from '@tagsonic/core/files';
import { readArtwork, sniffImage } from '@tagsonic/core/tags';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { GetImageRequest, GetImageResponse, UploadResponse } from '../schemas/files.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import type { Ctx } from '../deps.ts';

/** The spec's cover upload limits "5" and "20": 5 MB per file, 20 megapixels per picture. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const MAX_UPLOAD_PIXELS = 20_000_000;
export const UPLOAD_FIELD = 'upload_file';
const UPLOAD_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);
const UPLOAD_TTL_MS = 24 * 3600_000;

/** POST /apimt/get_image/ (a picture as base64 JPEG) and POST /apimt/upload_image/ (a cover for the editor). */
export async function imageRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/apimt/get_image/',
    { onRequest: requireUser, schema: { body: GetImageRequest, response: { 200: GetImageResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const file = (await ctx.roots.resolve(request.body.file_path)).path;
      let data: Uint8Array | null;
      if (isImageName(file)) data = new Uint8Array(await readFile(file));
      else if (isAudioName(file)) data = (await readArtwork(file))?.data ?? null;
      else throw invalid('TAGSONIC_ERR_FILES_NOT_IMAGE', `${path.basename(file)} is neither a picture nor an audio file.`);
      if (!data) throw notFound('TAGSONIC_ERR_FILES_NO_COVER', `${path.basename(file)} has no cover.`);
      const jpeg = await toJpeg(data);
      const header = sniffImage(jpeg)!;
      return ok({ image_data: Buffer.from(jpeg).toString('base64'), mime: 'image/jpeg', width: header.width, height: header.height, size: jpeg.byteLength });
    },
  );

  r.post('/apimt/upload_image/', { onRequest: requireUser, schema: { response: { 200: UploadResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const data = await receiveImage(request, MAX_UPLOAD_BYTES);
    const id = randomBytes(16).toString('base64url');
    await writeAtomically(path.join(ctx.uploadsDir, id), data);
    await pruneUploads(ctx.uploadsDir);
    return ok(`/apimt/uploaded_image/${id}`, '上传成功！');
  });
}

/**
 * Reads the single `upload_file` part of a multipart request and checks it is a JPEG, PNG or WebP
 * (by its bytes, not its name or declared type) within the size and pixel limits.
 */
export async function receiveImage(request: FastifyRequest, maxBytes: number): Promise<Uint8Array> {
  if (!request.isMultipart()) {
    throw invalid('TAGSONIC_ERR_UPLOAD_NOT_MULTIPART', `Send the picture as multipart/form-data in the field "${UPLOAD_FIELD}".`);
  }
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 10 } });
  if (!part) throw invalid('TAGSONIC_ERR_UPLOAD_MISSING', `No file was sent; use the form field "${UPLOAD_FIELD}".`);
  if (part.fieldname !== UPLOAD_FIELD) {
    part.file.resume();
    throw invalid('TAGSONIC_ERR_UPLOAD_MISSING', `The file must be sent in the form field "${UPLOAD_FIELD}", not "${part.fieldname}".`);
  }
  let buf: Buffer;
  try {
    buf = await part.toBuffer();
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new TagsonicError('invalid', 'TAGSONIC_ERR_UPLOAD_TOO_LARGE', `The picture is larger than ${maxBytes / (1024 * 1024)} MB.`);
    }
    throw e;
  }
  if (buf.length === 0) throw invalid('TAGSONIC_ERR_UPLOAD_EMPTY', 'The uploaded file is empty.');
  const header = sniffImage(buf);
  if (!header || !UPLOAD_TYPES.has(header.mime)) {
    throw invalid('TAGSONIC_ERR_UPLOAD_NOT_IMAGE', 'Only JPEG, PNG and WebP pictures can be uploaded.');
  }
  if (header.width <= 0 || header.height <= 0) throw invalid('TAGSONIC_ERR_UPLOAD_NOT_IMAGE', 'The picture has no readable size; it may be damaged.');
  if (header.width * header.height > MAX_UPLOAD_PIXELS) {
    throw invalid('TAGSONIC_ERR_UPLOAD_TOO_MANY_PIXELS', `The picture is ${header.width}×${header.height}; at most 20 megapixels are accepted.`);
  }
  return new Uint8Array(buf);
}

/** Uploads are a hand-over to update_id3, not storage: drop those older than a day. */
async function pruneUploads(dir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const p = path.join(dir, name);
    const s = await stat(p).catch(() => null);
    if (s && now - s.mtimeMs > UPLOAD_TTL_MS) await rm(p, { force: true });
  }
}
