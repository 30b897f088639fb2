import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { TagsonicError, invalid } from '@tagsonic/core/errors';
import { undoTask, undoWrite, type UndoTaskReport } from '@tagsonic/core/tags';
import { SUBJECTS } from '@tagsonic/core/tasks';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { UndoRequest, UndoResponse } from '../schemas/tags.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import type { Ctx } from '../deps.ts';

/**
 * POST /apimt/undo/ {write_id} | {task_id}: restores files through the tag journal (the undo is a
 * safe write itself, journaled with `undoOf`). Users undo their own writes; administrators any.
 * A file changed since the write is reported as a conflict unless `force`.
 */
export async function undoRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/apimt/undo/',
    { onRequest: requireUser, schema: { body: UndoRequest, response: { 200: UndoResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const { write_id, task_id, force } = request.body;
      if ((write_id === undefined) === (task_id === undefined)) {
        throw invalid('TAGSONIC_ERR_UNDO_BAD_REQUEST', 'Send either write_id (one file) or task_id (a whole task).');
      }
      const me = request.user;
      const context = { journal: ctx.journal, actor: me.username };
      let report: UndoTaskReport;
      if (write_id !== undefined) {
        const entry = await ctx.journal.get(write_id);
        if (!entry) throw new TagsonicError('not_found', 'TAGSONIC_ERR_TAGS_JOURNAL_NOT_FOUND', `No tag write ${write_id} in the journal.`);
        if (!me.isAdmin && entry.actor !== me.username) throw notYours();
        report = { taskId: entry.taskId ?? '', undone: 0, skipped: 0, failed: 0, items: [] };
        // A single write that cannot be undone is the request's error, with its own message.
        const result = await undoWrite(write_id, context, { force });
        report.undone = 1;
        report.items.push({ writeId: write_id, path: entry.path, status: 'undone', result });
      } else {
        const task = await ctx.tasks.get(task_id!);
        if (!me.isAdmin && task.actor !== me.username) throw notYours();
        report = await undoTask(task_id!, context, { force });
      }
      for (const item of report.items) {
        if (item.status !== 'undone') continue;
        // An undone move: the file is back at its old name, and so is its scrape state.
        if (item.result?.movedFrom) await ctx.fileStates.move(item.result.movedFrom, item.result.path);
        await ctx.bus.publish(SUBJECTS.trackUpdated, { path: item.result?.path ?? item.path, writeId: item.result?.writeId ?? null, undoOf: item.writeId });
      }
      const data = {
        undone: report.undone,
        skipped: report.skipped,
        failed: report.failed,
        items: report.items.map((it) => ({
          write_id: it.writeId,
          path: it.path,
          status: it.status,
          error: it.error?.message ?? it.note ?? null,
          undo_write_id: it.result && (it.result.changed.length > 0 || it.result.artworkChanged || it.result.movedFrom !== undefined) ? it.result.writeId : null,
        })),
      };
      if (report.items.length > 0 && report.failed === report.items.length) {
        throw new TagsonicError('conflict', 'TAGSONIC_ERR_UNDO_FAILED', report.items[0].error?.message ?? 'Nothing could be undone.', { details: data });
      }
      return ok(data, report.undone > 0 ? '撤销成功！' : '没有可撤销的修改');
    },
  );
}

const notYours = () => new TagsonicError('forbidden', 'TAGSONIC_ERR_UNDO_NOT_YOURS', 'You can only undo your own changes.');
