import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { MarkReadRequest, MarkReadResponse, RecordQuery, RecordResponse } from '../schemas/records.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import type { Ctx } from '../deps.ts';

export const RECORD_PAGE_SIZE = 20;

/** GET /apimt/record/ (the bell: the user's failed tasks and the unread count) and POST (mark read). */
export async function recordRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get('/apimt/record/', { onRequest: requireUser, schema: { querystring: RecordQuery, response: { 200: RecordResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const pageSize = request.query.page_size ? Number(request.query.page_size) : RECORD_PAGE_SIZE;
    return ok(await ctx.records.failed(request.user.username, pageSize));
  });
  r.post(
    '/apimt/record/',
    { onRequest: requireUser, schema: { body: MarkReadRequest, response: { 200: MarkReadResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      await ctx.records.markRead(request.user.username);
      return ok({ unread_count: 0 });
    },
  );
}
