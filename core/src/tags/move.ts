/**
 * Renaming or moving an audio file (with its `.lrc`), journaled like a tag write so that it is undone
 * with its task or on its own: journal `pending` → rename without replacing anything → fsync of the
 * folders → `committed`. The entry keeps the file's tags (before = after) and its two names; undo moves
 * it back through the same protocol, journaled with `undoOf`. `moveFile` does the same for a file that is not
 * audio (a CUE sheet, a cover, an .lrc on its own): no tags to read, nothing carried along (`plain`).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { exists, renameNoClobber, renameTrack } from '../files/side-files.ts';
import { newId } from '../ids.ts';
import { TAG_ERRORS, conflict } from './errors.ts';
import { fsyncDir, type JournalEntry } from './journal.ts';
import { inspectFile } from './read.ts';
import { emptyFields, type TagSnapshot } from './model.ts';
import { entryContext, type WriteContext, type WriteResult } from './safe-write.ts';

/** A move's result in the shape of a write's: no field changed, `movedFrom` always set. */
export interface MoveResult extends WriteResult {
  movedFrom: string;
}

export async function moveTrack(from: string, to: string, context: WriteContext): Promise<MoveResult> {
  const { format, tags } = await inspectFile(from);
  return journaledRename(from, to, { snapshot: tags, format, plain: false, rename: renameTrack }, context);
}

/** A journaled move of a file that is not audio (never over another file); undone with its task like a track's. */
export async function moveFile(from: string, to: string, context: WriteContext): Promise<MoveResult> {
  const none: TagSnapshot = { fields: emptyFields(), artists: [], albumartists: [], genres: [], artwork: null };
  return journaledRename(from, to, { snapshot: none, format: path.extname(from).slice(1).toLowerCase(), plain: true, rename: renameNoClobber }, context);
}

/** The protocol both moves share: entry `pending` → rename → fsync both folders → `committed` (or `failed`). */
async function journaledRename(
  from: string,
  to: string,
  how: { snapshot: TagSnapshot; format: string; plain: boolean; rename: (from: string, to: string) => Promise<unknown> },
  context: WriteContext,
): Promise<MoveResult> {
  const writeId = newId();
  await context.journal.begin({
    _id: writeId,
    kind: 'move',
    ...(how.plain ? { plain: true } : {}),
    path: to,
    from,
    format: how.format,
    ...entryContext(context),
    before: how.snapshot,
    after: how.snapshot,
    changed: [],
    artworkChanged: false,
  });
  try {
    await how.rename(from, to);
  } catch (err) {
    await context.journal.fail(writeId, err instanceof Error ? err.message : String(err)).catch(() => undefined);
    throw err;
  }
  await fsyncDir(path.dirname(to));
  if (path.dirname(from) !== path.dirname(to)) await fsyncDir(path.dirname(from));
  await context.journal.commit(writeId);
  return { writeId, path: to, before: how.snapshot, after: how.snapshot, changed: [], artworkChanged: false, movedFrom: from };
}

/** Moves a file back to where a journaled move took it from; `entry` is claimed for undo by the caller. */
export async function undoMove(entry: JournalEntry, context: WriteContext): Promise<MoveResult> {
  const from = entry.from!;
  if (!(await exists(entry.path))) {
    throw conflict(TAG_ERRORS.UNDO_CONFLICT, `${entry.path} is no longer there, so move ${entry._id} cannot be undone.`, { writeId: entry._id, path: entry.path });
  }
  if (await exists(from)) {
    throw conflict(TAG_ERRORS.UNDO_CONFLICT, `${path.basename(from)} exists again in its folder; move ${entry._id} is not undone over it.`, { writeId: entry._id, path: from });
  }
  // The folder it came from may be gone since (remove_null_folder removes the folders it emptied).
  await mkdir(path.dirname(from), { recursive: true });
  const back = { ...context, undoOf: entry._id, reason: context.reason ?? `undo of ${entry._id}` };
  return entry.plain ? moveFile(entry.path, from, back) : moveTrack(entry.path, from, back);
}
