/**
 * The only way Tagsonic changes a file's tags:
 *   copy to a hidden temp sibling → write tags there → re-read it with music-metadata (not TagLib) and
 *   compare every field and the cover hash with what was asked → check the audio payload is unchanged
 *   → fsync the temp file → journal the write as pending → atomic rename over the original → fsync the
 *   folder → commit the journal entry.
 * Any failure before the rename removes the temp file and leaves the original byte-for-byte untouched.
 *
 * File metadata policy: the new file gets the original's permission bits and (when the process may)
 * its owner and group; its mtime is the time of the write, so scanners and sync tools see the change.
 * The rename gives the file a new inode: hard links to the old one keep the old bytes.
 */
import { open, realpath, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { newId } from '../ids.ts';
import { isTagsonicError } from '../errors/index.ts';
import type { TagEdit, TagField, TagSnapshot } from './model.ts';
import { inspectBuffer } from './read.ts';
import { changedFields, diffSnapshots, expectedSnapshot, normalizeEdit, untouchedParts } from './edit.ts';
import { planWrite, renderEdit } from './write.ts';
import { audioPayload, sameAudioPayload } from './audio-payload.ts';
import { tempPathFor } from './temp-files.ts';
import { fsyncDir, type TagJournal } from './journal.ts';
import { TAG_ERRORS, conflict, fsError, internal, invalid, unsupported } from './errors.ts';

export interface WriteContext {
  journal: TagJournal;
  /** Who asked: a user name, `plugin:<id>`, `system`… */
  actor: string;
  taskId?: string;
  reason?: string;
  /** Set by undo: the write this one reverses. */
  undoOf?: string;
}

export interface WriteResult {
  writeId: string;
  path: string;
  before: TagSnapshot;
  after: TagSnapshot;
  /** Editable fields whose value changed; empty for a no-op (nothing written, nothing journaled). */
  changed: TagField[];
  artworkChanged: boolean;
}

export interface SafeWriteOptions {
  /**
   * Runs after the temp file is written and before it is verified. For fault-injection tests and
   * diagnostics only: whatever it does to the temp file must be caught by the verification.
   */
  afterTempWritten?: (tempPath: string) => Promise<void>;
}

/**
 * taglib-wasm edits a file in memory (the WASM heap holds it and its new version, next to our own copies:
 * about five times the file size at the peak). Beyond this the write is refused rather than risking the
 * worker running out of memory.
 */
export const MAX_WRITE_BYTES = 1024 * 1024 * 1024;

/** Writes on one file are serialised inside a process; across processes the pre-rename check catches races. */
const inFlight = new Map<string, Promise<unknown>>();

export async function safeWriteTags(filePath: string, edit: TagEdit, context: WriteContext, options: SafeWriteOptions = {}): Promise<WriteResult> {
  const normalized = normalizeEdit(edit);
  let target: string;
  try {
    target = await realpath(filePath);
  } catch (err) {
    throw fsError(err, filePath);
  }
  const previous = inFlight.get(target) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => writeOnce(filePath, target, normalized, context, options));
  inFlight.set(target, run);
  try {
    return await run;
  } finally {
    if (inFlight.get(target) === run) inFlight.delete(target);
  }
}

async function writeOnce(
  filePath: string,
  target: string,
  edit: ReturnType<typeof normalizeEdit>,
  context: WriteContext,
  options: SafeWriteOptions,
): Promise<WriteResult> {
  const { original, st } = await readOriginal(target, filePath);
  const inspection = await inspectBuffer(original, target);
  const before = inspection.tags;
  const plan = planWrite(filePath, inspection.format, edit, before);
  const expected = expectedSnapshot(before, edit);
  const changed = changedFields(before, expected);
  const artworkChanged = (before.artwork?.sha256 ?? null) !== (expected.artwork?.sha256 ?? null);
  const writeId = newId();
  const lenient = inspection.legacyId3 ? untouchedParts(edit) : new Set<never>();
  if (diffSnapshots(expected, before).length === 0) {
    return { writeId, path: filePath, before, after: before, changed: [], artworkChanged: false };
  }
  // Refuses truncated or damaged originals before anything is written.
  const payloadBefore = await audioPayload(original, inspection.format, target);

  const tempPath = tempPathFor(target, writeId);
  let begun = false;
  let renamed = false;
  try {
    // Exclusive create: never follow or reuse something already sitting at the temp name. The one handle
    // writes the new bytes, syncs them and reads them back for verification.
    const fh = await open(tempPath, 'wx+', 0o600);
    let written: Uint8Array;
    try {
      const bytes = await renderEdit(original, plan, tempPath);
      await fh.write(bytes, 0, bytes.length, 0);
      // The WASI cover pass may have left a longer file behind at this path.
      await fh.truncate(bytes.length);
      await fh.chmod(st.mode & 0o7777);
      await fh.chown(st.uid, st.gid).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPERM') throw err;
      });
      await fh.sync();
      await options.afterTempWritten?.(tempPath);
      written = await readAll(fh);
    } finally {
      await fh.close();
    }

    const after = (await inspectBuffer(written, target)).tags;
    const differences = diffSnapshots(expected, after, lenient);
    if (differences.length > 0) {
      throw internal(
        TAG_ERRORS.VERIFY_MISMATCH,
        `The tags read back from the new ${path.basename(filePath)} differ from what was written (${differences.map((d) => d.what).join(', ')}); the original was left untouched.`,
        { path: filePath, differences },
      );
    }
    const payloadAfter = await audioPayload(written, inspection.format, tempPath);
    if (!sameAudioPayload(payloadBefore, payloadAfter)) {
      throw internal(TAG_ERRORS.PAYLOAD_CHANGED, `Writing tags would have changed the audio of ${filePath}; the original was left untouched.`, {
        path: filePath,
        method: payloadBefore.method,
      });
    }

    // Undo must be able to restore both pictures exactly, so they are stored before the entry exists.
    if (artworkChanged) {
      if (inspection.picture) await context.journal.putBlob(inspection.picture.data);
      if (edit.artwork) await context.journal.putBlob(edit.artwork.data);
    }
    await context.journal.begin({
      _id: writeId,
      path: filePath,
      format: inspection.format,
      actor: context.actor,
      taskId: context.taskId ?? null,
      reason: context.reason ?? null,
      undoOf: context.undoOf ?? null,
      at: new Date().toISOString(),
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
    if (!renamed) {
      await rm(tempPath, { force: true }).catch(() => undefined);
      if (begun) await context.journal.fail(writeId, err instanceof Error ? err.message : String(err)).catch(() => undefined);
    }
    // After the rename the new tags are in place; a journal that could not commit stays pending and
    // `recover()` commits it by reading the file.
    throw isTagsonicError(err) ? err : fsErrorOrInternal(err, filePath);
  }
}

/** The whole file behind `fh`, read from disk (what the rename will publish). */
async function readAll(fh: FileHandle): Promise<Uint8Array> {
  const { size } = await fh.stat();
  const data = new Uint8Array(size);
  let n = 0;
  while (n < size) {
    const { bytesRead } = await fh.read(data, n, size - n, n);
    if (bytesRead === 0) break;
    n += bytesRead;
  }
  return data.subarray(0, n);
}

async function readOriginal(target: string, filePath: string) {
  try {
    const fh = await open(target, 'r');
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw invalid(TAG_ERRORS.NOT_A_FILE, `${filePath} is not a regular file.`, { path: filePath });
      if (st.size > MAX_WRITE_BYTES) {
        throw unsupported(TAG_ERRORS.FILE_TOO_LARGE, `${filePath} is ${Math.round(st.size / 2 ** 20)} MiB; Tagsonic writes tags to files of at most ${MAX_WRITE_BYTES / 2 ** 20} MiB.`, {
          path: filePath,
          size: st.size,
        });
      }
      return { original: new Uint8Array(await fh.readFile()), st };
    } finally {
      await fh.close();
    }
  } catch (err) {
    throw isTagsonicError(err) ? err : fsError(err, filePath);
  }
}

function fsErrorOrInternal(err: unknown, filePath: string): unknown {
  const mapped = fsError(err, filePath);
  if (mapped !== err) return mapped;
  const message = err instanceof Error ? err.message : String(err);
  return internal(TAG_ERRORS.WRITE_FAILED, `Writing tags to ${filePath} failed (${message}); the original was left untouched.`, { path: filePath }, err);
}
