/**
 * The CPU-heavy half of a safe write, runnable on the calling thread or on a writer thread: read and
 * parse the original, render the new bytes into the temp sibling (`prepare`), fsync it, and re-read that
 * temp file from disk and check its tags and audio payload (`verify`) — in one step, or in two with the
 * caller's fsync between them when it must act there. After them the calling thread journals, renames
 * and fsyncs the folder (safe-write.ts). What `verify` compares against stays in the thread that
 * prepared the write, so the original's bytes never cross threads.
 */
import { closeSync, fchmodSync, fchownSync, fstatSync, fsync, ftruncateSync, open as openCallback, openSync, readSync, writeSync, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { isTagsonicError } from '../errors/index.ts';
import type { AudioFormat, TagField, TagSnapshot } from './model.ts';
import { inspectBuffer } from './read.ts';
import { changedFields, diffSnapshots, expectedSnapshot, untouchedParts, type NormalizedEdit } from './edit.ts';
import { planWrite, renderEdit } from './write.ts';
import { audioPayload, sameAudioPayload, type AudioPayload } from './audio-payload.ts';
import { TAG_ERRORS, fsError, internal, invalid, unsupported } from './errors.ts';
import { tagTooLarge } from './bounds.ts';
import { measureTag, type RandomRead } from './tag-cuts.ts';

/**
 * taglib-wasm edits a file in memory (the WASM heap holds it and its new version, next to our own copies:
 * about five times the file size at the peak). Beyond this the write is refused rather than risking the
 * worker running out of memory.
 */
export const MAX_WRITE_BYTES = 1024 * 1024 * 1024;

export interface PrepareRequest {
  writeId: string;
  /** The real path of the file (symlinks resolved). */
  target: string;
  /** The path as the caller gave it, for messages and the journal. */
  filePath: string;
  tempPath: string;
  edit: NormalizedEdit;
  /**
   * Sync the temp file and verify it in the same step (one round trip instead of two, and no second
   * open of the temp file by the caller). The caller asks for the two steps separately only when it
   * must act between them (`SafeWriteOptions.afterTempWritten`).
   */
  syncAndVerify?: boolean;
}

/** The original as it was read: the calling thread refuses the rename if it no longer matches. */
export interface OriginalStat {
  ino: number;
  size: number;
  mtimeMs: number;
}

export type Prepared =
  | { noop: true; before: TagSnapshot }
  | {
      noop: false;
      st: OriginalStat;
      format: AudioFormat;
      before: TagSnapshot;
      changed: TagField[];
      artworkChanged: boolean;
      /** The cover being replaced, so the journal can store it for undo; only set when the cover changes. */
      replacedPicture: Uint8Array | null;
      /** Set when `syncAndVerify` was asked: the temp file is synced and this is what it was verified to hold. */
      after?: TagSnapshot;
    };

export interface VerifyRequest {
  writeId: string;
  tempPath: string;
  filePath: string;
  target: string;
}

/** What a prepared write is verified against; held by the thread that prepared it. */
interface Held {
  format: AudioFormat;
  expected: TagSnapshot;
  lenient: ReturnType<typeof untouchedParts>;
  payloadBefore: AudioPayload;
}

/**
 * How the steps touch files. The calling thread uses promises so its event loop never blocks; a writer
 * thread reads and writes with blocking calls, which cost a fraction of the CPU (no thread-pool hop, no
 * promise per call) and only hold up that thread's own other writes. Creating the temp file and syncing
 * it stay asynchronous there too: they wait on the filesystem journal (another write's fsync), often for
 * longer than the whole CPU work of a write, and the thread gets on with its other writes meanwhile.
 */
export type StepIo = 'async' | 'blocking';

const openFd = promisify(openCallback);
const fsyncFd = promisify(fsync);

/** One per thread that runs write steps (the calling thread, or each writer thread). */
export class WriteSteps {
  readonly #held = new Map<string, Held>();
  readonly #io: StepIo;

  constructor(io: StepIo = 'async') {
    this.#io = io;
  }

  /**
   * Reads the original, refuses what cannot be written, and — unless the edit changes nothing — writes
   * the new bytes to `tempPath` (created exclusively, with the original's mode and owner). With
   * `syncAndVerify` the temp file is then synced and verified here; otherwise the caller syncs it before
   * asking for `verify`. On failure the caller removes the temp file.
   */
  async prepare(req: PrepareRequest): Promise<Prepared> {
    const { writeId, target, filePath, tempPath, edit, syncAndVerify = false } = req;
    const { original, st } = await readOriginal(target, filePath, this.#io);
    const inspection = await inspectBuffer(original, target);
    const before = inspection.tags;
    const plan = planWrite(filePath, inspection.format, edit, before);
    const expected = expectedSnapshot(before, edit);
    if (diffSnapshots(expected, before).length === 0) return { noop: true, before };
    const changed = changedFields(before, expected);
    const artworkChanged = (before.artwork?.sha256 ?? null) !== (expected.artwork?.sha256 ?? null);
    const lenient = inspection.legacyId3 ? untouchedParts(edit) : new Set<never>();
    // Refuses truncated or damaged originals before anything is written.
    const payloadBefore = await audioPayload(original, inspection.format, target);

    try {
      const render = () => renderEdit(original, plan, tempPath);
      if (this.#io === 'blocking') await writeTempBlocking(tempPath, render, st, syncAndVerify);
      else await writeTemp(tempPath, render, st, syncAndVerify);
    } catch (err) {
      throw isTagsonicError(err) ? err : fsErrorOrInternal(err, filePath);
    }
    this.#held.set(writeId, { format: inspection.format, expected, lenient, payloadBefore });
    const after = syncAndVerify ? await this.verify({ writeId, tempPath, filePath, target }) : undefined;
    return {
      noop: false,
      st: { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs },
      format: inspection.format,
      before,
      changed,
      artworkChanged,
      // A private copy: the picture may be a view into the original's bytes, which must not be sent whole.
      replacedPicture: artworkChanged && inspection.picture ? new Uint8Array(inspection.picture.data) : null,
      ...(after ? { after } : {}),
    };
  }

  /**
   * Re-reads the synced temp file from disk with music-metadata (not TagLib) and returns its snapshot if
   * every field and the cover are what was asked and the audio payload is byte-for-byte the original's.
   */
  async verify(req: VerifyRequest): Promise<TagSnapshot> {
    const { writeId, tempPath, filePath, target } = req;
    const held = this.#held.get(writeId);
    this.#held.delete(writeId);
    if (!held) throw internal(TAG_ERRORS.WRITE_FAILED, `Write ${writeId} to ${filePath} was not prepared on this thread; the original was left untouched.`, { path: filePath });
    let written: Uint8Array;
    try {
      written = this.#io === 'blocking' ? readWholeBlocking(tempPath) : await readWhole(tempPath);
    } catch (err) {
      throw fsErrorOrInternal(err, filePath);
    }
    const after = (await inspectBuffer(written, target)).tags;
    const differences = diffSnapshots(held.expected, after, held.lenient);
    if (differences.length > 0) {
      throw internal(
        TAG_ERRORS.VERIFY_MISMATCH,
        `The tags read back from the new ${path.basename(filePath)} differ from what was written (${differences.map((d) => d.what).join(', ')}); the original was left untouched.`,
        { path: filePath, differences },
      );
    }
    const payloadAfter = await audioPayload(written, held.format, tempPath);
    if (!sameAudioPayload(held.payloadBefore, payloadAfter)) {
      throw internal(TAG_ERRORS.PAYLOAD_CHANGED, `Writing tags would have changed the audio of ${filePath}; the original was left untouched.`, {
        path: filePath,
        method: held.payloadBefore.method,
      });
    }
    return after;
  }

  /** Forgets a prepared write that will not be verified (the caller gave up on it). */
  release(writeId: string): void {
    this.#held.delete(writeId);
  }
}

/**
 * Creates `tempPath` exclusively (never following or reusing something already sitting at the temp
 * name) and writes the rendered bytes with the original's mode and, when permitted, owner. Synced
 * when `sync` is set; otherwise the calling thread does that.
 */
async function writeTemp(tempPath: string, render: () => Promise<Uint8Array>, st: Stats, sync: boolean): Promise<void> {
  const fh = await open(tempPath, 'wx', 0o600);
  try {
    const bytes = await render();
    await writeAll(fh, bytes);
    // The WASI cover pass may have left a longer file behind at this path.
    await fh.truncate(bytes.length);
    await fh.chmod(st.mode & 0o7777);
    await fh.chown(st.uid, st.gid).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPERM') throw err;
    });
    if (sync) await fh.sync();
  } finally {
    await fh.close();
  }
}

async function writeTempBlocking(tempPath: string, render: () => Promise<Uint8Array>, st: Stats, sync: boolean): Promise<void> {
  const fd = await openFd(tempPath, 'wx', 0o600);
  try {
    const bytes = await render();
    for (let n = 0; n < bytes.length; ) n += writeSync(fd, bytes, n, bytes.length - n, n);
    ftruncateSync(fd, bytes.length);
    fchmodSync(fd, st.mode & 0o7777);
    try {
      fchownSync(fd, st.uid, st.gid);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
    }
    if (sync) await fsyncFd(fd);
  } finally {
    closeSync(fd);
  }
}

async function writeAll(fh: FileHandle, bytes: Uint8Array): Promise<void> {
  let n = 0;
  while (n < bytes.length) n += (await fh.write(bytes, n, bytes.length - n, n)).bytesWritten;
}

async function readWhole(file: string): Promise<Uint8Array> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const data = new Uint8Array(size);
    let n = 0;
    while (n < size) {
      const { bytesRead } = await fh.read(data, n, size - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    return data.subarray(0, n);
  } finally {
    await fh.close();
  }
}

function readWholeBlocking(file: string): Uint8Array {
  const fd = openSync(file, 'r');
  try {
    return readFd(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}

function readFd(fd: number, size: number): Uint8Array {
  const data = new Uint8Array(size);
  let n = 0;
  while (n < size) {
    const got = readSync(fd, data, n, size - n, n);
    if (got === 0) break;
    n += got;
  }
  return data.subarray(0, n);
}

async function readOriginal(target: string, filePath: string, io: StepIo): Promise<{ original: Uint8Array; st: Stats }> {
  try {
    if (io === 'blocking') {
      const fd = openSync(target, 'r');
      try {
        const st = fstatSync(fd);
        checkOriginal(st, filePath);
        await checkTagBounds((target, position) => Promise.resolve(readSync(fd, target, 0, target.length, position)), st.size, filePath);
        return { original: readFd(fd, st.size), st };
      } finally {
        closeSync(fd);
      }
    }
    const fh = await open(target, 'r');
    try {
      const st = await fh.stat();
      checkOriginal(st, filePath);
      await checkTagBounds(async (target, position) => (await fh.read(target, 0, target.length, position)).bytesRead, st.size, filePath);
      // A Buffer is a Uint8Array already; wrapping it in `new Uint8Array()` would copy the whole file.
      const original: Uint8Array = await fh.readFile();
      return { original, st };
    } finally {
      await fh.close();
    }
  } catch (err) {
    throw isTagsonicError(err) ? err : fsError(err, filePath);
  }
}

function checkOriginal(st: Stats, filePath: string): void {
  if (!st.isFile()) throw invalid(TAG_ERRORS.NOT_A_FILE, `${filePath} is not a regular file.`, { path: filePath });
  if (st.size > MAX_WRITE_BYTES) {
    throw unsupported(TAG_ERRORS.FILE_TOO_LARGE, `${filePath} is ${Math.round(st.size / 2 ** 20)} MiB; Tagsonic writes tags to files of at most ${MAX_WRITE_BYTES / 2 ** 20} MiB.`, {
      path: filePath,
      size: st.size,
    });
  }
}

/**
 * Refuses a file whose tag is beyond the bounds (bounds.ts) from its frame headers, before the file is
 * read whole and long before TagLib would load all of it (`inspectBuffer` checks the bytes again).
 */
async function checkTagBounds(read: RandomRead, size: number, filePath: string): Promise<void> {
  const head = new Uint8Array(10);
  const n = await read(head, 0);
  const cut = await measureTag(head.subarray(0, n), read, size);
  if (cut) throw tagTooLarge(filePath, cut.overflow);
}

export function fsErrorOrInternal(err: unknown, filePath: string): unknown {
  if (isTagsonicError(err)) return err;
  const mapped = fsError(err, filePath);
  if (mapped !== err) return mapped;
  const message = err instanceof Error ? err.message : String(err);
  return internal(TAG_ERRORS.WRITE_FAILED, `Writing tags to ${filePath} failed (${message}); the original was left untouched.`, { path: filePath }, err);
}
