import { invalid } from '@tagsonic/core/errors';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { MusicId3Request, MusicId3Response } from '../schemas/files.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { musicInfo } from '../tag-views.ts';
import type { Ctx } from '../deps.ts';

/** POST /apimt/music_id3/: the single-track editor's data for one file. */
export async function musicId3Routes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/apimt/music_id3/',
    { onRequest: requireUser, schema: { body: MusicId3Request, response: { 200: MusicId3Response, '4xx': ErrorEnvelope } } },
    async (request) => {
      const { file_path, file_name } = request.body;
      const target = file_name ? await resolveChild(ctx, file_path, file_name) : (await ctx.roots.resolve(file_path)).path;
      return ok(await musicInfo(ctx, target));
    },
  );
}

/** A name inside a folder: one path segment, resolved through the roots like any client path. */
export async function resolveChild(ctx: Ctx, folder: string, name: string): Promise<string> {
  if (name.includes('/') || name === '.' || name === '..') {
    throw invalid('TAGSONIC_ERR_FILES_BAD_NAME', `"${name}" is not a name of an entry in the folder.`);
  }
  const dir = (await ctx.roots.resolve(folder)).path;
  return (await ctx.roots.resolve(name, { base: dir })).path;
}
