import path from 'node:path';
import { readFile, rm, stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { notFound } from '@tagsonic/core/errors';
import { writeAtomically } from '@tagsonic/core/files';
import type { UserDoc } from '@tagsonic/core/users';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { EmptyResponse, UploadResponse } from '../schemas/files.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { receiveImage } from './images.ts';
import { sendImage } from './media.ts';
import type { Ctx } from '../deps.ts';

const MAX_BACKGROUND_BYTES = 10 * 1024 * 1024;
/** The one shared picture of earlier versions (anyone could replace it): still shown until an administrator restores. */
const SHARED_FILE = 'background';

type Owner = Pick<UserDoc, '_id' | 'isAdmin'>;

/**
 * Each account's own picture, named by the account's id (not its name, so a later account with a
 * reused name does not inherit it). Ids are hex; anything else would be a bug, not a path to follow.
 */
function ownFile(ctx: Ctx, user: Owner): string {
  if (!/^[0-9a-zA-Z_-]{1,64}$/.test(user._id)) throw new Error(`unexpected user id ${JSON.stringify(user._id)}`);
  return path.join(ctx.backgroundDir, `user-${user._id}`);
}

/** The picture `user` sees: their own, else the shared one left by an earlier version, else none (the default). */
async function currentFile(ctx: Ctx, user: Owner): Promise<{ file: string; mtimeMs: number } | null> {
  for (const file of [ownFile(ctx, user), path.join(ctx.backgroundDir, SHARED_FILE)]) {
    const s = await stat(file).catch(() => null);
    if (s) return { file, mtimeMs: s.mtimeMs };
  }
  return null;
}

/**
 * The background picture of the theme drawer: upload (POST /apimt/upload_logo_and_save/), restore the
 * default, and serve it. The picture belongs to the signed-in account: any user (V1 or V2) may change
 * their own, and nobody can change what another account sees (issue 10: it used to be one shared file).
 */
export async function logoRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post('/apimt/upload_logo_and_save/', { onRequest: requireUser, schema: { response: { 200: UploadResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const data = await receiveImage(request, MAX_BACKGROUND_BYTES);
    await writeAtomically(ownFile(ctx, request.account!), data);
    return ok((await backgroundUrl(ctx, request.account!))!, '上传成功！');
  });

  // Restoring drops the account's own picture; an administrator's restore also retires the shared
  // picture of earlier versions, which only an administrator may take away from everyone.
  r.post('/apimt/restore_logo/', { onRequest: requireUser, schema: { response: { 200: EmptyResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const user = request.account!;
    await rm(ownFile(ctx, user), { force: true });
    if (user.isAdmin) await rm(path.join(ctx.backgroundDir, SHARED_FILE), { force: true });
    return ok(null, '恢复成功！');
  });

  r.get('/apimt/background/', { onRequest: requireUser }, async (request, reply) => {
    const current = await currentFile(ctx, request.account!);
    const data = current && (await readFile(current.file).catch(() => null));
    if (!data) throw notFound('TAGSONIC_ERR_BACKGROUND_NONE', 'No custom background is set.');
    return sendImage(reply, new Uint8Array(data), 'private, no-cache');
  });
}

/** Removes an account's own picture (its account is being deleted); the shared one is left alone. */
export async function forgetBackground(ctx: Ctx, user: Owner): Promise<void> {
  await rm(ownFile(ctx, user), { force: true });
}

/** The URL of the picture `user` sees (versioned by its time), or null when the default is in use. */
export async function backgroundUrl(ctx: Ctx, user: Owner): Promise<string | null> {
  const current = await currentFile(ctx, user);
  return current ? `/apimt/background/?v=${Math.round(current.mtimeMs)}` : null;
}
