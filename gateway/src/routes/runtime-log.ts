/**
 * The runtime log (/log's 运行日志 tab) and its feedback dialog.
 *
 * `POST /apimt/runtime_log/ { type }` answers the last lines this process printed for that part (core/src/logs:
 * the console keeps them in bounded rings), the run log and the error log as the two text areas show them. A part
 * this process does not run says where its lines are instead of answering an empty log: in distributed mode the
 * workers' lines are on each worker process's own output, and the bus and smart speaker are not Tagsonic
 * processes at all. Admins only: the lines carry every user's paths and errors.
 *
 * `POST /apimt/upload_log/ { reason }` is the feedback button. Upstream sent the logs to its maintainers; Tagsonic
 * never sends anything off the machine, so the reason and every part's lines are written into
 * `data/feedback/feedback-<time>.log`, the file to attach to a bug report (the last 20 are kept).
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { VERSION } from '@tagsonic/core/config';
import { invalid } from '@tagsonic/core/errors';
import { PROCESS_KINDS, processLogs, type ProcessKind } from '@tagsonic/core/logs';
import { ok } from '../envelope.ts';
import { guarded, requireAdmin, requireUser } from '../auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { RuntimeLogRequest, RuntimeLogResponse, UploadLogRequest, UploadLogResponse } from '../schemas/runtime-log.ts';
import type { Ctx } from '../deps.ts';

export const FEEDBACK_MIN_CHARS = 20;
export const FEEDBACK_KEPT = 20;
export const REASON_SHORT = 'TAGSONIC_ERR_LOG_REASON_SHORT';

/** What a part this process does not run shows instead of its lines. */
function elsewhere(kind: ProcessKind, busDriver: string): string {
  switch (kind) {
    case 'worker':
    case 'beat':
      return `This process does not run the ${kind === 'worker' ? 'workers' : 'scheduled watchers'} (distributed mode): their lines are on the output of each \`tagsonic worker\` process (docker logs, journalctl).`;
    case 'redis':
      return busDriver === 'memory'
        ? 'The bus is embedded in this process and logs through it: its lines are in the gunicorn and worker logs.'
        : `The bus is a separate NATS server (${busDriver}): its lines are on that server's own output.`;
    case 'xiaoai':
      return 'The smart speaker bridge is not running in this process.';
    default:
      return 'This process does not serve the HTTP API: its lines are on the output of the `tagsonic gateway` process.';
  }
}

export async function runtimeLogRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/apimt/runtime_log/',
    { onRequest: guarded(requireAdmin), schema: { body: RuntimeLogRequest, response: { 200: RuntimeLogResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const kind = request.body.type;
      const lines = processLogs.read(kind);
      if (lines.log.length === 0 && !processLogs.runs(kind)) return ok({ log: elsewhere(kind, ctx.bus.driver), fail_log: '' });
      if (lines.log.length === 0 && kind === 'nginx') return ok({ log: 'One line per request is logged at TAGSONIC_LOG_LEVEL=debug.', fail_log: '' });
      return ok({ log: lines.log.join('\n'), fail_log: lines.fail_log.join('\n') });
    },
  );

  r.post(
    '/apimt/upload_log/',
    { onRequest: requireUser, schema: { body: UploadLogRequest, response: { 200: UploadLogResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const reason = request.body.reason.trim();
      if ([...reason].length < FEEDBACK_MIN_CHARS) throw invalid(REASON_SHORT, '反馈理由至少20字', { minChars: FEEDBACK_MIN_CHARS });
      const dir = path.join(ctx.config.dataDir, 'feedback');
      await mkdir(dir, { recursive: true });
      const now = new Date();
      const file = path.join(dir, `feedback-${now.toISOString().replace(/[:.]/g, '-')}-${request.user.username.replace(/[^\w-]/g, '_')}.log`);
      const parts = PROCESS_KINDS.map((kind) => {
        const { log, fail_log } = processLogs.read(kind);
        return `===== ${kind} (${processLogs.runs(kind) ? 'this process' : 'not run here'}) =====\n-- errors --\n${fail_log.join('\n')}\n-- log --\n${log.join('\n')}\n`;
      });
      const head = `Tagsonic ${VERSION.display} (${ctx.buildId}), bus ${ctx.bus.driver}\nfrom ${request.user.username} at ${now.toISOString()}\nreason: ${reason}\n\n`;
      await writeFile(file, head + parts.join('\n'), { mode: 0o600 });
      // Bounded: a button pressed in a loop keeps the newest reports, never fills the disk.
      const old = (await readdir(dir)).filter((n) => n.startsWith('feedback-') && n.endsWith('.log')).sort().slice(0, -FEEDBACK_KEPT);
      for (const name of old) await rm(path.join(dir, name), { force: true });
      request.log.info({ file }, 'feedback saved');
      return ok({ file }, '反馈成功！');
    },
  );
}
