/**
 * celeryTaskLastTime (spec doc 2 §7 "System": reads data.last_run_at): when the download-folder watcher
 * (workers/src/watcher) last ran, with what it did then. The watcher runs on a worker, possibly another process,
 * and stamps its state document in the store (`watcher_state`, `_id: 'download-watcher'`), which is read here.
 * GET and POST answer alike (the spec does not show the verb).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { Envelope, ErrorEnvelope } from '../schemas/common.ts';
import type { Ctx } from '../deps.ts';

const WATCHER_STATE_COLLECTION = 'watcher_state';
const WATCHER_STATE_ID = 'download-watcher';

const LastTimeResponse = Envelope(Type.Object({
  last_run_at: Type.Union([Type.String(), Type.Null()]),
  /** The last round: files in the download folder, files left for the next round, the tasks it created. */
  last_round: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
}));

export async function watcherRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const handler = async () => {
    const doc = await ctx.store.collection(WATCHER_STATE_COLLECTION).findOne({ _id: WATCHER_STATE_ID });
    const at = doc?.lastRunAt instanceof Date ? doc.lastRunAt.toISOString() : typeof doc?.lastRunAt === 'string' ? doc.lastRunAt : null;
    return ok({ last_run_at: at, last_round: (doc?.lastRound as Record<string, unknown> | undefined) ?? null });
  };
  const options = { onRequest: requireUser, schema: { response: { 200: LastTimeResponse, '4xx': ErrorEnvelope } } };
  app.get('/apimt/celery_task_last_time/', options, handler);
  app.post('/apimt/celery_task_last_time/', options, handler);
}
