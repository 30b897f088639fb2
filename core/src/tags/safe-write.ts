/**
 * The only way Tagsonic changes a file's tags:
 *   copy to a hidden temp sibling → write tags there → fsync the temp file → re-read it from disk with
 *   music-metadata (not TagLib) and compare every field and the cover hash with what was asked → check
 *   the audio payload is byte-for-byte unchanged → journal the write as pending → atomic rename over
 *   the original → fsync the folder → commit the journal entry.
 * The parsing, rendering and verifying (write-steps.ts) run on the calling thread or on a writer thread
 * (writer-pool.ts), which also fsyncs the temp file; the journal, the rename and the folder's fsync always
 * run on the calling thread.
 * Any failure before the rename removes the temp file and leaves the original byte-for-byte untouched.
 *
 * File metadata policy: the new file gets the original's permission bits and (when the process may)
 * its owner and group; its mtime is the time of the write, so scanners and sync tools see the change.
 * The rename gives the file a new inode: hard links to the old one keep the old bytes.
 */
import { open, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { newId } from '../ids.ts';
import { isTagsonicError } from '../errors/index.ts';
import type { TagEdit, TagField, TagSnapshot } from './model.ts';
import { normalizeEdit, type NormalizedEdit } from './edit.ts';
import { WriteSteps, fsErrorOrInternal, type PrepareRequest, type Prepared, type VerifyRequest } from './write-steps.ts';
import { tempPathFor } from './temp-files.ts';
import { fsyncDir, type TagJournal } from './journal.ts';
import { TAG_ERRORS, conflict, fsError } from './errors.ts';

export { MAX_WRITE_BYTES } from './write-steps.ts';

export interface WriteContext {
  journal: TagJournal;
  /** Who asked: a user name, `plugin:<id>`, `system`… */
  actor: string;
  taskId?: string;
  /** The task item the write belongs to: a crashed item is settled by its own entries (core/tasks settle). */
  itemId?: string;
  reason?: string;
  /** Set by undo: the write this one reverses. */
  undoOf?: string;
}

/**
 * The journal entry's fields that say who wrote and why, from a write's context: every kind of entry (tag write,
 * move, created file) carries them the same way, so crash settling and undo read them alike.
 */
export function entryContext(context: Omit<WriteContext, 'journal'>) {
  return {
    actor: context.actor,
    taskId: context.taskId ?? null,
    ...(context.itemId ? { itemId: context.itemId } : {}),
    reason: context.reason ?? null,
    undoOf: context.undoOf ?? null,
    at: new Date().toISOString(),
  };
}

export interface WriteResult {
  writeId: string;
  path: string;
  before: TagSnapshot;
  after: TagSnapshot;
  /** Editable fields whose value changed; empty for a no-op (nothing written, nothing journaled). */
  changed: TagField[];
  artworkChanged: boolean;
  /** Set when the write moved the file instead (move.ts): where it came from; `path` is where it went. */
  movedFrom?: string;
}

export interface SafeWriteOptions {
  /**
   * Runs after the temp file is written and synced and before it is verified. For fault-injection tests
   * and diagnostics only: whatever it does to the temp file must be caught by the verification.
   */
  afterTempWritten?: (tempPath: string) => Promise<void>;
}

/**
 * Where the CPU-heavy steps run: on the calling thread (`safeWriteTags`) or on a writer thread
 * (`createTagWriterPool`). `verify` must run where `prepare` ran; `release` forgets a prepared write
 * that will not be verified.
 */
export interface WriteStepRunner {
  prepare(req: PrepareRequest): Promise<Prepared>;
  verify(req: VerifyRequest): Promise<TagSnapshot>;
  release(writeId: string): void;
}

const localSteps = new WriteSteps();

/** Writes on one file are serialised inside a process (pool or not); across processes the pre-rename check catches races. */
const inFlight = new Map<string, Promise<unknown>>();

/** The safe write with every step on the calling thread. For many writes, `createTagWriterPool` uses every core. */
export async function safeWriteTags(filePath: string, edit: TagEdit, context: WriteContext, options: SafeWriteOptions = {}): Promise<WriteResult> {
  return runSafeWrite(localSteps, filePath, edit, context, options);
}

export async function runSafeWrite(
  steps: WriteStepRunner,
  filePath: string,
  edit: TagEdit,
  context: WriteContext,
  options: SafeWriteOptions = {},
): Promise<WriteResult> {
  const normalized = normalizeEdit(edit);
  let target: string;
  try {
    target = await realpath(filePath);
  } catch (err) {
    throw fsError(err, filePath);
  }
  const previous = inFlight.get(target) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => writeOnce(steps, filePath, target, normalized, context, options));
  inFlight.set(target, run);
  try {
    return await run;
  } finally {
    if (inFlight.get(target) === run) inFlight.delete(target);
  }
}

async function writeOnce(
  steps: WriteStepRunner,
  filePath: string,
  target: string,
  edit: NormalizedEdit,
  context: WriteContext,
  options: SafeWriteOptions,
): Promise<WriteResult> {
  const writeId = newId();
  const tempPath = tempPathFor(target, writeId);
  let prepared: Prepared;
  try {
    prepared = await steps.prepare({ writeId, target, filePath, tempPath, edit, syncAndVerify: !options.afterTempWritten });
  } catch (err) {
    await rm(tempPath, { force: true }).catch(() => undefined);
    throw isTagsonicError(err) ? err : fsErrorOrInternal(err, filePath);
  }
  if (prepared.noop) {
    return { writeId, path: filePath, before: prepared.before, after: prepared.before, changed: [], artworkChanged: false };
  }
  const { st, before, changed, artworkChanged } = prepared;

  // The thread that prepared the write holds it until it is verified (at once when synced and verified in one step).
  let held = !prepared.after;
  let begun = false;
  let renamed = false;
  try {
    let after = prepared.after;
    if (!after) {
      await fsyncFile(tempPath);
      await options.afterTempWritten?.(tempPath);
      held = false; // verify takes it over, and releases it whatever happens
      after = await steps.verify({ writeId, tempPath, filePath, target });
    }

    // Undo must be able to restore both pictures exactly, so they are stored before the entry exists.
    if (artworkChanged) {
      if (prepared.replacedPicture) await context.journal.putBlob(prepared.replacedPicture);
      if (edit.artwork) await context.journal.putBlob(edit.artwork.data);
    }
    await context.journal.begin({
      _id: writeId,
      path: filePath,
      format: prepared.format,
      ...entryContext(context),
      before,
      after,
      changed,
      artworkChanged,
    });
    begun = true;

    const now = await stat(target).catch((err: unknown) => {
      throw fsError(err, filePath);
    });
    if (now.ino !== st.ino || now.size !== st.size || now.mtimeMs !== st.mtimeMs) {
      throw conflict(TAG_ERRORS.FILE_CHANGED, `${filePath} changed while its tags were being written; nothing was replaced. Try again.`, { path: filePath });
    }
    await rename(tempPath, target);
    renamed = true;
    await fsyncDir(path.dirname(target));
    await context.journal.commit(writeId);
    return { writeId, path: filePath, before, after, changed, artworkChanged };
  } catch (err) {
    if (held) steps.release(writeId);
    if (!renamed) {
      await rm(tempPath, { force: true }).catch(() => undefined);
      if (begun) await context.journal.fail(writeId, err instanceof Error ? err.message : String(err)).catch(() => undefined);
    }
    // After the rename the new tags are in place; a journal that could not commit stays pending and
    // `recover()` commits it by reading the file.
    throw isTagsonicError(err) ? err : fsErrorOrInternal(err, filePath);
  }
}

async function fsyncFile(file: string): Promise<void> {
  const fh = await open(file, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
