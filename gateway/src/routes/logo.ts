import path from 'node:path';
import { readFile, rm, stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { notFound } from '@tagsonic/core/errors';
import { writeAtomically } from '@tagsonic/core/files';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { EmptyResponse, UploadResponse } from '../schemas/files.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { receiveImage } from './images.ts';
import { sendImage } from './media.ts';
import type { Ctx } from '../deps.ts';

const MAX_BACKGROUND_BYTES = 10 * 1024 * 1024;
const FILE = 'background';

/** The custom background picture: upload (POST /apimt/upload_logo_and_save/), restore the default, and serve it. */
export async function logoRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const file = path.join(ctx.backgroundDir, FILE);

  r.post('/apimt/upload_logo_and_save/', { onRequest: requireUser, schema: { response: { 200: UploadResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const data = await receiveImage(request, MAX_BACKGROUND_BYTES);
    await writeAtomically(file, data);
    return ok((await backgroundUrl(ctx))!, '上传成功！');
  });

  r.post('/apimt/restore_logo/', { onRequest: requireUser, schema: { response: { 200: EmptyResponse, '4xx': ErrorEnvelope } } }, async () => {
    await rm(file, { force: true });
    return ok(null, '恢复成功！');
  });

  r.get('/apimt/background/', { onRequest: requireUser }, async (_request, reply) => {
    const data = await readFile(file).catch(() => null);
    if (!data) throw notFound('TAGSONIC_ERR_BACKGROUND_NONE', 'No custom background is set.');
    return sendImage(reply, new Uint8Array(data), 'private, no-cache');
  });
}

/** The custom background's URL (versioned by its time), or null when the default is in use. */
export async function backgroundUrl(ctx: Ctx): Promise<string | null> {
  const s = await stat(path.join(ctx.backgroundDir, FILE)).catch(() => null);
  return s ? `/apimt/background/?v=${Math.round(s.mtimeMs)}` : null;
}
