import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { EDITABLE_FIELDS, type TagValues } from '@tagsonic/core/tags';
import { SUBJECTS, type TaskProgress } from '@tagsonic/core/tasks';
import { TagsonicError } from '@tagsonic/core/errors';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { UpdateId3Request, UpdateId3Response } from '../schemas/tags.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import type { GatewayDeps } from '../deps.ts';

/** The placeholder the dashboard sends for an emptied field: it clears the tag. */
const CLEAR = '${null}';
/** How long a save waits for the workers before answering with the task still running. */
const WAIT_MS = 30_000;

/**
 * POST /apimt/update_id3/: writes the tags of one or more files. The gateway checks the paths,
 * records a task and queues one command per file; workers write; the answer waits for the task to
 * finish so the editor can say 修改成功！ or show the file's error.
 */
export async function updateId3Routes(app: FastifyInstance, deps: GatewayDeps): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/apimt/update_id3/',
    {
      onRequest: requireUser,
      schema: { body: UpdateId3Request, response: { 200: UpdateId3Response, '4xx': ErrorEnvelope } },
    },
    async (request) => {
      const items = [];
      for (const info of request.body.music_id3_info) {
        const { path } = await deps.roots.resolve(info.file_full_path);
        items.push({ path, payload: { path, actor: request.user.username, fields: toTagValues(info) } });
      }
      const done = waitForTask(deps, WAIT_MS);
      const task = await deps.tasks.create({
        kind: 'tags.write',
        action: '手动修改',
        actor: request.user.username,
        subject: SUBJECTS.tagsWrite,
        items,
      });
      const final = await done.wait(task._id);
      const report = await deps.tasks.listItems(task._id);
      const data = {
        task_id: task._id,
        status: final?.status ?? 'running',
        items: report.map((it) => ({
          path: it.path,
          status: it.status,
          error: it.error,
          write_id: typeof it.result?.writeId === 'string' ? it.result.writeId : null,
        })),
      };
      const failed = report.filter((it) => it.status === 'fail');
      if (failed.length === report.length && failed.length > 0) {
        throw new TagsonicError('invalid', 'TAGSONIC_ERR_TAGS_WRITE_FAILED', failed[0].error ?? 'The tags could not be written.', {
          details: data,
        });
      }
      return ok(data, final ? '修改成功！' : '任务在后台努力运行中');
    },
  );
}

function toTagValues(info: Record<string, unknown>): TagValues {
  const values: TagValues = {};
  for (const field of EDITABLE_FIELDS) {
    const v = info[field];
    if (v === undefined) continue;
    values[field] = v === null || v === CLEAR ? null : String(v);
  }
  return values;
}

/**
 * Subscribes before the task exists so a fast worker's completion event is never missed; resolves
 * with the completion, or null after `ms`. It also re-reads the task every second, so a lost event
 * (a NATS reconnect) only delays the answer.
 */
function waitForTask(deps: GatewayDeps, ms: number) {
  const seen = new Map<string, TaskProgress>();
  let wake: (() => void) | null = null;
  const sub = deps.bus.subscribe<TaskProgress>(SUBJECTS.taskCompleted, (_s, p) => {
    seen.set(p.taskId, p);
    wake?.();
  });
  return {
    async wait(taskId: string): Promise<TaskProgress | null> {
      const deadline = Date.now() + ms;
      try {
        for (;;) {
          const event = seen.get(taskId);
          if (event) return event;
          const task = await deps.tasks.get(taskId);
          if (task.status !== 'running') {
            return { taskId, status: task.status, total: task.total, done: task.total, counts: task.counts };
          }
          const left = deadline - Date.now();
          if (left <= 0) return null;
          await new Promise<void>((res) => {
            wake = res;
            setTimeout(res, Math.min(left, 1000)).unref();
          });
        }
      } finally {
        wake = null;
        await sub.close();
      }
    },
  };
}
