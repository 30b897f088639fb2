import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { EmptyResponse, FolderStateRequest } from '../schemas/files.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import type { Ctx } from '../deps.ts';

/** POST /apimt/update_folder_state/: marks a folder (or file) scraped — success by default. */
export async function folderStateRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/apimt/update_folder_state/',
    { onRequest: requireUser, schema: { body: FolderStateRequest, response: { 200: EmptyResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const target = (await ctx.roots.resolve(request.body.full_path)).path;
      await ctx.fileStates.set(target, request.body.state === undefined ? 'success' : request.body.state);
      return ok(null, '标记成功！');
    },
  );
}
