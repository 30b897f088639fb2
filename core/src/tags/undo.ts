/**
 * Undo: restore a write's before-state (fields, individual artists/genres and the exact cover bytes)
 * through the same safe write, itself journaled with `undoOf`; a journaled move goes back to its old
 * name (move.ts); a file a task created goes into the task's trash, and a file it replaced comes back
 * (create.ts). A task's entries are undone newest first, so a file renamed and then edited gets
 * its tags back under the new name and then its old name. Undo restores what a reader sees (the
 * snapshot), not the byte layout of the old tag.
 */
import { isTagsonicError } from '../errors/index.ts';
import type { TagEdit } from './model.ts';
import { inspectFile } from './read.ts';
import { diffSnapshots, editTowards } from './edit.ts';
import { safeWriteTags, type WriteContext, type WriteResult } from './safe-write.ts';
import { undoMove } from './move.ts';
import { undoCreate } from './create.ts';
import { TAG_ERRORS, conflict, fsError } from './errors.ts';

export interface UndoOptions {
  /** Undo even if the file changed since the write (those later changes to the same fields are lost). */
  force?: boolean;
}

export async function undoWrite(writeId: string, context: WriteContext, options: UndoOptions = {}): Promise<WriteResult> {
  const journal = context.journal;
  const entry = await journal.claimForUndo(writeId);
  try {
    if (entry.kind === 'move') {
      const moved = await undoMove(entry, context);
      await journal.finishUndo(writeId, moved.writeId);
      return moved;
    }
    if (entry.kind === 'create') {
      const taken = await undoCreate(entry, context, options);
      await journal.finishUndo(writeId, null);
      return taken;
    }
    const current = (await inspectFile(entry.path)).tags;
    const drift = diffSnapshots(entry.after, current);
    if (drift.length > 0 && !options.force) {
      throw conflict(
        TAG_ERRORS.UNDO_CONFLICT,
        `${entry.path} changed since write ${writeId} (${drift.map((d) => d.what).join(', ')}); undo it with force to overwrite those changes.`,
        { writeId, path: entry.path, differences: drift },
      );
    }
    const edit: TagEdit = editTowards(current, entry.before);
    const wantedCover = entry.before.artwork?.sha256 ?? null;
    if ((current.artwork?.sha256 ?? null) !== wantedCover) {
      edit.artwork = wantedCover === null ? null : { mime: entry.before.artwork!.mime, data: await journal.readBlob(wantedCover) };
    }
    const result = await safeWriteTags(entry.path, edit, { ...context, undoOf: writeId, reason: context.reason ?? `undo of ${writeId}` });
    await journal.finishUndo(writeId, result.changed.length > 0 || result.artworkChanged ? result.writeId : null);
    return result;
  } catch (err) {
    await journal.releaseUndo(writeId).catch(() => undefined);
    throw err;
  }
}

export interface UndoTaskItem {
  writeId: string;
  path: string;
  status: 'undone' | 'skipped' | 'failed';
  /** The undoing write, when one was needed. */
  result?: WriteResult;
  error?: { code: string; kind: string; message: string };
  /** Why an entry was skipped (it was not in the committed state, or a created file changed since). */
  note?: string;
}

export interface UndoTaskReport {
  taskId: string;
  undone: number;
  skipped: number;
  failed: number;
  items: UndoTaskItem[];
}

/** Undoes every committed write of a task, newest first; one file failing does not stop the others. */
export async function undoTask(taskId: string, context: WriteContext, options: UndoOptions = {}): Promise<UndoTaskReport> {
  const entries = (await context.journal.listByTask(taskId)).reverse();
  const report: UndoTaskReport = { taskId, undone: 0, skipped: 0, failed: 0, items: [] };
  for (const entry of entries) {
    if (entry.state !== 'committed') {
      report.skipped++;
      report.items.push({ writeId: entry._id, path: entry.path, status: 'skipped', note: `the write is ${entry.state}` });
      continue;
    }
    try {
      const result = await undoWrite(entry._id, context, options);
      report.undone++;
      report.items.push({ writeId: entry._id, path: entry.path, status: 'undone', result });
    } catch (caught) {
      // A file-system refusal on one file (access denied, a folder in the way) fails that entry, not the whole undo.
      const err = isTagsonicError(caught) ? caught : fsError(caught, entry.path);
      if (!isTagsonicError(err)) throw caught;
      if (entry.kind === 'create' && err.code === TAG_ERRORS.UNDO_CONFLICT) {
        // A created file changed (or went) since: it is the user's now, left alone — not a failure of the undo.
        report.skipped++;
        report.items.push({ writeId: entry._id, path: entry.path, status: 'skipped', note: err.message });
        continue;
      }
      report.failed++;
      report.items.push({ writeId: entry._id, path: entry.path, status: 'failed', error: { code: err.code, kind: err.kind, message: err.message } });
    }
  }
  return report;
}
