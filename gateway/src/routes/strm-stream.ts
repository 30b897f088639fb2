/**
 * `GET /apimt/strm_stream/?path=&sign=`: the signed stream links of generated .strm files (generateStrm with
 * is_sign; core/src/strm). Media players fetch them without a Tagsonic session, so this route has no sign-in: the
 * signature, an HMAC of the one full path with the store's key, is the permission, and it grants that file only.
 * Byte ranges as /apimt/file_stream/ (players seek). A wrong or missing signature is 403
 * TAGSONIC_ERR_STRM_BAD_SIGN, whatever the path, so the route says nothing about which files exist.
 */
import path from 'node:path';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { TagsonicError, invalid } from '@tagsonic/core/errors';
import { extensionOf, isAudioName } from '@tagsonic/core/files';
import { strmKey, verifyStrmPath } from '@tagsonic/core/strm';
import { AUDIO_TYPES, parseRange } from './media.ts';
import type { Ctx } from '../deps.ts';

export const BAD_SIGN = 'TAGSONIC_ERR_STRM_BAD_SIGN';

const StrmQuery = Type.Object(
  { path: Type.String({ minLength: 1, maxLength: 4096 }), sign: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);

export async function strmStreamRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get('/apimt/strm_stream/', { schema: { querystring: StrmQuery } }, async (request, reply) => {
    const { path: asked, sign } = request.query;
    if (!verifyStrmPath(await strmKey(ctx.store), asked, sign)) throw new TagsonicError('forbidden', BAD_SIGN, 'This link is not valid (wrong or revoked signature).');
    const file = (await ctx.roots.resolve(asked)).path;
    // The link names the real path it was made for: a symlink swapped in since must not widen it.
    if (file !== asked) throw new TagsonicError('forbidden', BAD_SIGN, 'This link is not valid (wrong or revoked signature).');
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
}
