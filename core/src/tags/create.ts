/**
 * Files a task creates — a converted or cut track, a .strm, a saved .lrc or cover.jpg, a copy — journaled like
 * a tag write, so that undoing the task takes them away again: journal `pending` (what will land: size and
 * sha256, known before it lands) → the old file, when one is replaced, into the task's trash → the caller puts
 * the new file in place → fsync of the folders → `committed`.
 *
 * Undo never unlinks: the created file goes into the task's trash (`trashTo`, `<trash>/.undone/<write id>/…`),
 * and a replaced file comes back from the trash. Only a file that still holds what the task wrote is taken
 * away; a file changed since is left where it is (`TAGSONIC_ERR_TAGS_UNDO_CONFLICT`, reported as skipped by
 * `undoTask`) unless undone with force — it then goes to the trash as well, so nothing is lost either way.
 * The one change that is not a conflict: this task's own tag writes on the file (format conversion puts the
 * cover into an Ogg file it made), undone already — those restore the tags, not the byte layout.
 */
import { mkdir, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { exists, renameNoClobber } from '../files/side-files.ts';
import { newId } from '../ids.ts';
import { TAG_ERRORS, conflict } from './errors.ts';
import { bytesDigest, fileDigest, holds, type FileDigest } from './file-digest.ts';
import { fsyncDir, type JournalEntry } from './journal.ts';
import { emptyFields, type TagSnapshot } from './model.ts';
import { inspectFile } from './read.ts';
import { diffSnapshots } from './edit.ts';
import { entryContext, type WriteContext, type WriteResult } from './safe-write.ts';

export { bytesDigest, fileDigest, type FileDigest };

export interface NewFile {
  /** Where the file lands. */
  path: string;
  /** What will land there. */
  file: FileDigest;
  /** The task's trash folder in the file's media root (`<root>/.tagsonic-trash/<task id>`). */
  trashDir: string;
  /** The file's path inside its media root: its place inside the trash. */
  relative: string;
  /** The file it was made from, for reports. */
  source?: string | null;
  /** A file already at `path` is replaced: it goes into the trash first (else `path` must be free). */
  replace?: boolean;
}

/** A create's (or its undo's) result in the shape of a write's: no field changed. */
export interface CreateResult extends WriteResult {
  /** Where the file a create replaced was put aside (null when it replaced none). */
  replacedTo: string | null;
  /** Set on an undo: where the created file went (the task's trash). */
  trashedTo?: string;
}

const NO_TAGS: TagSnapshot = { fields: emptyFields(), artists: [], albumartists: [], genres: [], artwork: null };

/** Whatever `place` puts at `file.path`, journaled for the task in `context` (see the module comment). */
export async function createFile(file: NewFile, place: () => Promise<void>, context: WriteContext): Promise<CreateResult> {
  const writeId = newId();
  let replaced: ({ path: string } & FileDigest) | null = null;
  if (file.replace) {
    const old = await fileDigest(file.path);
    if (old) {
      // The first file a task replaces at a path keeps the plain trash path (the user's own file, easy to find).
      const plain = path.join(file.trashDir, file.relative);
      replaced = { path: (await exists(plain)) ? path.join(file.trashDir, '.replaced', writeId, file.relative) : plain, ...old };
    }
  }
  const trashTo = path.join(file.trashDir, '.undone', writeId, file.relative);
  await context.journal.begin({
    _id: writeId,
    kind: 'create',
    path: file.path,
    file: file.file,
    trashTo,
    replaced,
    source: file.source ?? null,
    format: path.extname(file.path).slice(1).toLowerCase(),
    ...entryContext({ ...context, undoOf: undefined }),
    before: NO_TAGS,
    after: NO_TAGS,
    changed: [],
    artworkChanged: false,
  });
  let putAside = false;
  try {
    if (replaced) {
      await mkdir(path.dirname(replaced.path), { recursive: true });
      await renameNoClobber(file.path, replaced.path);
      putAside = true;
    }
    await place();
  } catch (err) {
    if (putAside && !(await exists(file.path))) await renameNoClobber(replaced!.path, file.path).catch(() => undefined);
    await context.journal.fail(writeId, err instanceof Error ? err.message : String(err)).catch(() => undefined);
    throw err;
  }
  await fsyncDir(path.dirname(file.path));
  if (replaced) await fsyncDir(path.dirname(replaced.path));
  await context.journal.commit(writeId);
  return { writeId, path: file.path, before: NO_TAGS, after: NO_TAGS, changed: [], artworkChanged: false, replacedTo: replaced?.path ?? null };
}

/** Takes a created file away again (into the trash) and puts back what it replaced; `entry` is claimed by the caller. */
export async function undoCreate(entry: JournalEntry, context: WriteContext, options: { force?: boolean } = {}): Promise<CreateResult> {
  const trashTo = entry.trashTo!;
  const current = await stat(entry.path).catch(() => null);
  if (!current?.isFile()) {
    throw conflict(TAG_ERRORS.UNDO_CONFLICT, `${entry.path} is no longer there, so its creation (${entry._id}) is not undone.`, { writeId: entry._id, path: entry.path });
  }
  if (!options.force && !(await holds(entry.path, entry.file!)) && !(await onlyOwnWritesUndone(entry, context))) {
    throw conflict(
      TAG_ERRORS.UNDO_CONFLICT,
      `${entry.path} changed since the task created it, so it is left where it is; undo with force to move it to the trash anyway.`,
      { writeId: entry._id, path: entry.path },
    );
  }
  if (entry.replaced && !(await holds(entry.replaced.path, entry.replaced))) {
    throw conflict(TAG_ERRORS.UNDO_CONFLICT, `The file ${path.basename(entry.path)} replaced is no longer in the trash (${entry.replaced.path}), so it cannot be put back.`, {
      writeId: entry._id,
      path: entry.replaced.path,
    });
  }
  await mkdir(path.dirname(trashTo), { recursive: true });
  const left = await stat(trashTo).catch(() => null);
  if (left && left.ino === current.ino && left.dev === current.dev) {
    // A crash between the link and the unlink of an earlier undo: the file is in the trash already.
    await unlink(entry.path);
  } else {
    if (left) await rm(trashTo, { force: true }); // a leftover of a failed earlier attempt, never the user's
    await renameNoClobber(entry.path, trashTo);
  }
  if (entry.replaced) {
    try {
      await renameNoClobber(entry.replaced.path, entry.path);
    } catch (err) {
      await renameNoClobber(trashTo, entry.path).catch(() => undefined);
      throw err;
    }
  }
  await fsyncDir(path.dirname(entry.path));
  await fsyncDir(path.dirname(trashTo));
  return {
    writeId: entry._id,
    path: entry.path,
    before: NO_TAGS,
    after: NO_TAGS,
    changed: [],
    artworkChanged: false,
    replacedTo: entry.replaced?.path ?? null,
    trashedTo: trashTo,
  };
}

/**
 * True when every change to the file since its creation was a tag write of the same task, each undone already
 * (newest first, so before this create), and the tags read as they were right after the creation: the tag
 * engine's writes keep the audio bytes, and their undo restores the tags, not the byte layout.
 */
async function onlyOwnWritesUndone(entry: JournalEntry, context: WriteContext): Promise<boolean> {
  if (!entry.taskId) return false;
  const later = (await context.journal.listByPath(entry.path, { limit: 100 })).filter((e) => e._id !== entry._id && e.at >= entry.at);
  const writes = later.filter((e) => !e.undoOf);
  if (writes.length === 0 || !writes.every((e) => e.taskId === entry.taskId && (e.kind ?? 'tags') === 'tags' && e.state === 'undone')) return false;
  const undos = later.filter((e) => e.undoOf);
  if (!undos.every((e) => writes.some((w) => w._id === e.undoOf))) return false;
  const first = writes.reduce((a, b) => (a.at <= b.at ? a : b));
  try {
    return diffSnapshots(first.before, (await inspectFile(entry.path)).tags).length === 0;
  } catch {
    return false;
  }
}
