import path from 'node:path';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { invalid, notFound } from '@tagsonic/core/errors';
import { extensionOf, isAudioName, isImageName } from '@tagsonic/core/files';
import { readArtwork, sniffImage } from '@tagsonic/core/tags';
import { requireUser } from '../auth.ts';
import type { Ctx } from '../deps.ts';

const PathQuery = Type.Object(
  { path: Type.String({ minLength: 1, maxLength: 4096 }), v: Type.Optional(Type.String({ maxLength: 64 })) },
  { additionalProperties: false },
);

export const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  m4b: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  spx: 'audio/ogg',
  wav: 'audio/wav',
  aif: 'audio/aiff',
  aiff: 'audio/aiff',
  wma: 'audio/x-ms-wma',
  ape: 'audio/x-ape',
  wv: 'audio/x-wavpack',
};

/**
 * Binary reads for the editor, all signed-in and confined to the roots:
 * GET /apimt/file_stream/?path= (audio with HTTP Range: 206 / 416), GET /apimt/file_cover/?path=
 * (an audio file's embedded cover, or an image file), GET /apimt/uploaded_image/:id (a cover uploaded
 * with /apimt/upload_image/).
 */
export async function mediaRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/apimt/file_stream/', { onRequest: requireUser, schema: { querystring: PathQuery } }, async (request, reply) => {
    const file = (await ctx.roots.resolve(request.query.path)).path;
    if (!isAudioName(file)) throw invalid('TAGSONIC_ERR_FILES_NOT_AUDIO', `${path.basename(file)} is not an audio file.`);
    const st = await stat(file);
    if (!st.isFile()) throw invalid('TAGSONIC_ERR_FILES_NOT_AUDIO', `${path.basename(file)} is not a file.`);
    reply.header('accept-ranges', 'bytes');
    reply.header('content-type', AUDIO_TYPES[extensionOf(file)] ?? 'application/octet-stream');
    reply.header('cache-control', 'private, no-cache');
    reply.header('last-modified', st.mtime.toUTCString());
    const range = parseRange(request.headers.range, st.size);
    if (range === 'unsatisfiable') {
      reply.header('content-range', `bytes */${st.size}`);
      return reply.status(416).send();
    }
    if (range === null) {
      reply.header('content-length', st.size);
      return reply.send(createReadStream(file));
    }
    reply.status(206);
    reply.header('content-range', `bytes ${range.start}-${range.end}/${st.size}`);
    reply.header('content-length', range.end - range.start + 1);
    return reply.send(createReadStream(file, { start: range.start, end: range.end }));
  });

  r.get('/apimt/file_cover/', { onRequest: requireUser, schema: { querystring: PathQuery } }, async (request, reply) => {
    const file = (await ctx.roots.resolve(request.query.path)).path;
    let data: Uint8Array | null;
    if (isImageName(file)) data = new Uint8Array(await readFile(file));
    else if (isAudioName(file)) data = (await readArtwork(file))?.data ?? null;
    else throw invalid('TAGSONIC_ERR_FILES_NOT_IMAGE', `${path.basename(file)} is neither a picture nor an audio file.`);
    if (!data) throw notFound('TAGSONIC_ERR_FILES_NO_COVER', `${path.basename(file)} has no cover.`);
    return sendImage(reply, data, request.query.v ? 'private, max-age=86400' : 'private, no-cache');
  });

  r.get(
    '/apimt/uploaded_image/:id',
    { onRequest: requireUser, schema: { params: Type.Object({ id: Type.String({ pattern: UPLOAD_ID }) }, { additionalProperties: false }) } },
    async (request, reply) => sendImage(reply, await readUpload(ctx, request.params.id), 'private, max-age=86400'),
  );
}

export const UPLOAD_ID = '^[A-Za-z0-9_-]{16,64}$';

export async function readUpload(ctx: Ctx, id: string): Promise<Uint8Array> {
  if (!new RegExp(UPLOAD_ID).test(id)) throw notFound('TAGSONIC_ERR_UPLOAD_NOT_FOUND', 'No such uploaded picture.');
  try {
    return new Uint8Array(await readFile(path.join(ctx.uploadsDir, id)));
  } catch {
    throw notFound('TAGSONIC_ERR_UPLOAD_NOT_FOUND', 'The uploaded picture is gone (uploads are kept for a day); upload it again.');
  }
}

/** Sends picture bytes with the type sniffed from the bytes, never from a name. */
export function sendImage(reply: FastifyReply, data: Uint8Array, cacheControl: string): FastifyReply {
  const mime = sniffImage(data)?.mime;
  if (!mime) throw invalid('TAGSONIC_ERR_FILES_NOT_IMAGE', 'The stored picture is not an image format Tagsonic serves.');
  reply.header('content-type', mime);
  reply.header('cache-control', cacheControl);
  reply.header('content-length', data.byteLength);
  return reply.send(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
}

/** One `bytes=` range (the only kind players send); null = whole file. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
