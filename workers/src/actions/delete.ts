/**
 * `tagsonic.cmd.files.delete`: one file of a report's delete (deleteFiles), as a `files.delete` task item. The
 * file goes into its root's trash (core/tasks trash.ts) — or, with a target folder, into that folder — through
 * core's journaled `moveTrack`, under the task id: undoing the task brings it back, and its same-name `.lrc` goes
 * and comes back with it. Never over an existing file. A worker that died after the move is settled from the
 * journal (`deleteSettler`), so a file is moved once.
 */
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { Bus, Delivery } from '@tagsonic/core/bus';
import { isTagsonicError } from '@tagsonic/core/errors';
import type { MediaRoots } from '@tagsonic/core/media';
import { moveFile, moveTrack, TAG_ERRORS, type TagJournal } from '@tagsonic/core/tags';
import { inTrash, NOT_RESUMABLE, trashPathFor, type ItemSettler, type Settlement, type Tasks } from '@tagsonic/core/tasks';
import type { BatchChange } from '@tagsonic/sdk';
import { publishFilesChanged } from './item.ts';

export const DELETE_TASK_KIND = 'files.delete';

/** moveTrack's refusals for a file whose tags cannot be read at all. */
const NOT_A_SONG: ReadonlySet<string> = new Set([TAG_ERRORS.UNSUPPORTED_FORMAT, TAG_ERRORS.UNREADABLE, TAG_ERRORS.TRUNCATED, TAG_ERRORS.EMPTY_FILE]);

export interface FilesDeleteCommand {
  taskId: string;
  itemId: string;
  path: string;
  actor: string;
  /** A folder inside the roots to move the file into instead of the trash (the rule dialog's move mode). */
  targetDir?: string | null;
}

export interface FilesDeleteDeps {
  tasks: Tasks;
  roots: MediaRoots;
  journal: TagJournal;
  /** Present: the deleted (or moved away) file goes out as `tagsonic.evt.files.changed`, and the library follows. */
  bus?: Bus;
}

export function filesDeleteHandler(deps: FilesDeleteDeps) {
  return async (delivery: Delivery<FilesDeleteCommand>): Promise<void> => {
    const cmd = delivery.payload;
    if (!(await deps.tasks.startItem(cmd.itemId))) return;
    try {
      const from = (await deps.roots.resolve(cmd.path)).path;
      if (inTrash(from)) throw Object.assign(new Error(`${path.basename(from)} is in the trash already.`), { skip: true });
      const to = cmd.targetDir
        ? (await deps.roots.resolve(path.join((await deps.roots.resolve(cmd.targetDir, { mustExist: false })).path, path.basename(from)), { mustExist: false })).path
        : trashPathFor(deps.roots, from, cmd.taskId);
      await mkdir(path.dirname(to), { recursive: true });
      const context = { journal: deps.journal, actor: cmd.actor, taskId: cmd.taskId, reason: cmd.targetDir ? 'delete (moved away)' : 'delete' };
      await moveTrack(from, to, context).catch((e: unknown) => {
        // A file named as audio that is no song (a failed import's, a truncated download): its tags cannot be
        // snapshotted, so it moves as a plain file — journaled all the same, so undoing the task brings it back.
        if (isTagsonicError(e) && NOT_A_SONG.has(e.code)) return moveFile(from, to, context);
        throw e;
      });
      const changes: BatchChange[] = [{ path: from, kind: cmd.targetDir ? 'move' : 'delete', before: from, after: cmd.targetDir ? to : null }];
      await deps.tasks.finishItem(cmd.itemId, { status: 'success', result: { reason: null, changes, report: { moved_to: to } } });
      await publishFilesChanged(deps.bus, cmd.taskId, cmd.itemId, changes);
    } catch (e) {
      if ((e as { skip?: boolean }).skip) {
        await deps.tasks.finishItem(cmd.itemId, { status: 'skip', result: { reason: (e as Error).message, changes: [] } });
        return;
      }
      if (isTagsonicError(e) && e.kind !== 'unavailable' && e.kind !== 'internal') {
        await deps.tasks.finishItem(cmd.itemId, { status: 'fail', error: e.message, errorCode: e.code });
        return;
      }
      throw e;
    }
  };
}

/** A delete the journal committed before a crash succeeded; others are resumed (the file is still where it was). */
export function deleteSettler(deps: { journal: TagJournal }): ItemSettler {
  return async (task) => {
    const moved = new Map<string, string>();
    for (const e of await deps.journal.listByTask(task._id)) {
      if (e.kind === 'move' && e.from && !e.undoOf && ['committed', 'undoing', 'undone'].includes(e.state)) moved.set(e.from, e.path);
    }
    return async (item): Promise<Settlement> => {
      const cmd = item.payload as Partial<FilesDeleteCommand> | null;
      if (!cmd || typeof cmd.path !== 'string') return { status: 'fail', errorCode: NOT_RESUMABLE, error: 'Interrupted by a crash, and its saved command is incomplete.' };
      const to = item.path ? moved.get(item.path) : undefined;
      if (to) return { status: 'success', result: { reason: null, changes: [{ path: item.path, kind: 'delete', before: item.path, after: null }], report: { moved_to: to } } };
      return { status: 'resume' };
    };
  };
}
