/**
 * deleteTrack (spec doc 2 §7 "Entity edits"): `POST /apimt/delete_track/ { track_id, mode }` takes a song out of
 * the library.
 * - `delete_file`: the file goes too — as a one-item `files.delete` task (删除歌曲), so the worker moves it with its
 *   `.lrc` into its root's trash through the journal: never unlinked, and `undo_task` on that task brings it back.
 *   Once the item is done the gateway starts an incremental scan of that root, which drops the song; if the item
 *   waits behind other work, the background watcher drops it at its next round instead.
 * - `delete_track`: the file stays where it is and is left out of the library from now on (the scanner skips the
 *   paths in `library_excluded`), so a later scan does not bring it back; the scan started here drops the song.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { newId } from '@tagsonic/core';
import { notFound } from '@tagsonic/core/errors';
import { SUBJECTS, type TaskDoc } from '@tagsonic/core/tasks';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { DeleteTrackRequest, DeleteTrackResponse } from '../schemas/delete-track.ts';
import { DELETE_TASK_KIND } from './delete-files.ts';
import type { Ctx } from '../deps.ts';

/** How long the gateway follows a file delete to rescan after it; the watcher covers anything slower. */
const FOLLOW_MS = 10 * 60_000;
const FOLLOW_EVERY_MS = 250;

export async function deleteTrackRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/apimt/delete_track/',
    { onRequest: requireUser, schema: { body: DeleteTrackRequest, response: { 200: DeleteTrackResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const { track_id: id, mode } = request.body;
      await ctx.library.catalog.sync();
      const track = ctx.library.catalog.tracks.get(id);
      if (!track) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No song with id "${id}".`, { id });
      const actor = request.user.username;
      if (mode === 'delete_track') {
        await ctx.library.store.excluded.updateOne({ _id: track.path }, { $set: { trackId: id, by: actor, at: new Date() } }, { upsert: true });
        const scan = await ctx.library.scans.startScan({ actor, roots: [track.root] });
        request.log.info({ path: track.path, by: actor }, 'song taken out of the library (file kept)');
        return ok({ track_id: id, path: track.path, mode, task_id: null, scan_task_id: scan._id }, '删除成功！');
      }
      const file = (await ctx.roots.resolve(track.path)).path;
      const task = await ctx.tasks.create({
        id: newId(),
        kind: DELETE_TASK_KIND,
        action: '删除歌曲',
        actor,
        subject: SUBJECTS.filesDelete,
        fields: { sourceTaskId: null, mode: 'track', targetDir: null, trackId: id },
        extra: path.basename(file),
        items: [{ path: file, payload: { path: file, actor, targetDir: null } }],
      });
      void rescanAfter(ctx, task, track.root, actor).catch((e) => request.log.warn({ err: e }, 'delete_track: rescan after the delete'));
      return ok({ track_id: id, path: file, mode, task_id: task._id, scan_task_id: null }, '删除成功！');
    },
  );
}

/** Once the delete task has ended, an incremental scan of the root drops the song from the library. */
export async function rescanAfter(ctx: Ctx, task: TaskDoc, root: string, actor: string): Promise<void> {
  const until = Date.now() + FOLLOW_MS;
  for (;;) {
    const now = await ctx.tasks.get(task._id);
    if (now.status !== 'running') {
      if (now.counts.success > 0) await ctx.library.scans.startScan({ actor, roots: [root] });
      return;
    }
    if (Date.now() > until) return;
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY_MS));
  }
}
