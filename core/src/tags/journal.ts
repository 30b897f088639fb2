/**
 * The tag journal: one document per write in `tag_journal`, holding the before and after snapshots, so
 * any single write or a whole task can be undone. Cover bytes are kept content-addressed in `blobDir`
 * (`<sha256>` files, written durably before the entry that needs them is committed) so undo restores
 * the exact picture.
 *
 * Entry life: pending (written before the rename) → committed (after it) → undoing → undone; or
 * failed. A crash between the rename and the commit leaves `pending`; `recover()` settles it by
 * reading the file (for a move: by which of the two names exists; for a created file: by its bytes).
 *
 * Kinds: a tag write, a move (move.ts; `plain` for a file that is not audio), or a file a task created
 * (create.ts: a converted or cut track, a .strm, a saved .lrc or cover.jpg, a copy), with its size and
 * sha256 and, when it replaced a file, where that file was put aside.
 *
 * Several processes may write through one store (distributed workers sharing the media roots), and each
 * runs `recover()` when it starts. So an entry names the process that writes it (`owner`, its lease id)
 * and recovery settles only the entries, and removes only the temp files, of processes that are gone:
 * a live process's in-flight writes look exactly like a crash's leftovers but are not.
 */
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Collection, Doc, Store } from '../store/index.ts';
import type { TagField, TagSnapshot } from './model.ts';
import { sha256Hex } from './image-info.ts';
import { inspectFile } from './read.ts';
import { diffSnapshots } from './edit.ts';
import { cleanupTempFiles } from './temp-files.ts';
import { TAG_ERRORS, conflict, internal, notFound, unavailable } from './errors.ts';
import { isTagsonicError } from '../errors/index.ts';
import { exists, renameNoClobber } from '../files/side-files.ts';
import { holds, type FileDigest } from './file-digest.ts';

export const TAG_JOURNAL_COLLECTION = 'tag_journal';

export type JournalState = 'pending' | 'committed' | 'undoing' | 'undone' | 'failed';

/**
 * The lease of the process writing through a journal (`TaskLeases` in ../tasks is one: the process's
 * task lease, so one heartbeat says a process is alive for its tasks and its writes alike). Structural,
 * so the tag engine does not depend on the task service.
 */
export interface JournalOwner {
  /** Stamped on the entries this process begins and the undos it claims. */
  readonly ownerId: string;
  /** Registers the lease before its id is stamped anywhere (idempotent). */
  ensure(): Promise<void>;
  /** The ids among `ids` whose process is alive (this process's own id included). */
  liveOwners(ids: Iterable<string | null | undefined>): Promise<Set<string>>;
}

/** What the safe write (or a move, see move.ts) records when it begins. */
export interface NewJournalEntry {
  /** The write id (`newId()`). */
  _id: string;
  /** A tag write (absent, for entries from before moves were journaled), a rename/move of the file, or a new file. */
  kind?: 'tags' | 'move' | 'create';
  /** The file; for a move, where it went; for a create, the new file. */
  path: string;
  /** A move's origin. */
  from?: string;
  /** A move of a file that is not audio (a .cue, a cover, an .lrc on its own): no tags read, nothing carried along. */
  plain?: boolean;
  /** A create: what landed at `path` (undo and recovery compare the file with it). */
  file?: FileDigest;
  /** A create: where undo puts the file (inside the task's trash; nothing a task made is unlinked). */
  trashTo?: string;
  /** A create that replaced a file: where that file was put aside (the task's trash) and what it held; undo puts it back. */
  replaced?: ({ path: string } & FileDigest) | null;
  /** A create: the file it was made from (the converted track, the CUE image, the copied file …), for reports. */
  source?: string | null;
  format: string;
  actor: string;
  taskId: string | null;
  /** The task item that made it (batch actions), when known. */
  itemId?: string | null;
  reason: string | null;
  /** Set on a write that undid another one. */
  undoOf: string | null;
  /** ISO 8601 time of the write. */
  at: string;
  before: TagSnapshot;
  after: TagSnapshot;
  changed: TagField[];
  artworkChanged: boolean;
}

export interface JournalEntry extends Doc, NewJournalEntry {
  state: JournalState;
  updatedAt: string;
  /** Set on a write that was undone: the id of the undoing write (null when nothing had to be written). */
  undoneBy: string | null;
  error: string | null;
  /** The lease id of the process that wrote the entry; absent on entries from before owners were kept. */
  owner?: string | null;
  /** The lease id of the process undoing it (set by `claimForUndo`). */
  undoOwner?: string | null;
  /** Set when `recover()` settled the entry instead of its writer. */
  recovered?: boolean;
}

export interface RecoveryReport {
  committed: string[];
  failed: string[];
  undone: string[];
  reopened: string[];
  /** Pending or undoing entries of processes still alive: their writes are in flight, not crashed. */
  inFlight: string[];
  tempFilesRemoved: string[];
}

/**
 * A temp file no journal entry names is a write before its entry, or one that crashed there. It may be
 * a write in flight (in this process or another one), so with owners it is removed only when older than
 * any write takes (the writer pool gives up on a step after 120 s).
 */
const STRAY_TEMP_AGE_MS = 10 * 60_000;

export interface TagJournal {
  readonly blobDir: string;
  /** Stores picture bytes durably under their sha256 (idempotent) and returns the hash. */
  putBlob(data: Uint8Array): Promise<string>;
  readBlob(sha256: string): Promise<Uint8Array>;
  begin(entry: NewJournalEntry): Promise<void>;
  commit(writeId: string): Promise<void>;
  fail(writeId: string, reason: string): Promise<void>;
  /** Moves a committed entry to `undoing`; exactly one caller wins, the others get a clear conflict. */
  claimForUndo(writeId: string): Promise<JournalEntry>;
  finishUndo(writeId: string, undoneBy: string | null): Promise<void>;
  releaseUndo(writeId: string): Promise<void>;
  get(writeId: string): Promise<JournalEntry | null>;
  /** A task's writes, oldest first. */
  listByTask(taskId: string): Promise<JournalEntry[]>;
  /** A file's writes, newest first. */
  listByPath(filePath: string, options?: { limit?: number }): Promise<JournalEntry[]>;
  /**
   * Settles entries a crash left `pending` or `undoing`, and removes temp files next to them. With an
   * owner, entries of live processes (this one included) and their temp files are left alone; entries
   * without an owner are settled as a crash's. Safe while others write: an entry its writer settles
   * meanwhile is left as its writer left it.
   */
  recover(): Promise<RecoveryReport>;
}

/**
 * `owner`: this process's lease. Without one (tests, tools) entries carry no owner and `recover()`
 * treats every unfinished entry as a crash's, as a single process may.
 */
export function createTagJournal(options: { store: Store; blobDir: string; owner?: JournalOwner }): TagJournal {
  return new StoreTagJournal(options.store.collection<JournalEntry>(TAG_JOURNAL_COLLECTION), path.resolve(options.blobDir), options.owner ?? null);
}

const now = () => new Date().toISOString();

class StoreTagJournal implements TagJournal {
  readonly blobDir: string;
  readonly #entries: Collection<JournalEntry>;
  readonly #owner: JournalOwner | null;
  #indexes: Promise<void> | null = null;
  #blobDirReady: Promise<unknown> | null = null;

  constructor(entries: Collection<JournalEntry>, blobDir: string, owner: JournalOwner | null) {
    this.#entries = entries;
    this.blobDir = blobDir;
    this.#owner = owner;
  }

  /** This process's owner id, its lease registered first (an unregistered id would look dead to others). */
  async #ownerId(): Promise<string | null> {
    if (!this.#owner) return null;
    await this.#owner.ensure();
    return this.#owner.ownerId;
  }

  async #ready(): Promise<Collection<JournalEntry>> {
    this.#indexes ??= this.#entries
      .createIndexes([
        { keys: { taskId: 1, at: 1 }, name: 'taskId_at', sparse: true },
        { keys: { path: 1, at: -1 }, name: 'path_at' },
        { keys: { at: -1 }, name: 'at' },
        { keys: { state: 1 }, name: 'state' },
      ])
      .catch((err: unknown) => {
        this.#indexes = null;
        throw unavailable(TAG_ERRORS.ENGINE_UNAVAILABLE, 'The tag journal could not prepare its indexes in the store.', err);
      });
    await this.#indexes;
    return this.#entries;
  }

  async putBlob(data: Uint8Array): Promise<string> {
    const sha = sha256Hex(data);
    const target = path.join(this.blobDir, sha);
    try {
      if ((await stat(target)).size === data.byteLength) return sha;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    this.#blobDirReady ??= mkdir(this.blobDir, { recursive: true });
    await this.#blobDirReady;
    const temp = path.join(this.blobDir, `.${sha}.${randomBytes(6).toString('hex')}.tmp`);
    const fh = await open(temp, 'wx', 0o600);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    await fsyncDir(this.blobDir);
    return sha;
  }

  async readBlob(sha256: string): Promise<Uint8Array> {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw notFound(TAG_ERRORS.BLOB_MISSING, `No stored cover ${sha256}.`);
    try {
      const data = new Uint8Array(await readFile(path.join(this.blobDir, sha256)));
      if (sha256Hex(data) !== sha256) throw internal(TAG_ERRORS.BLOB_MISSING, `The stored cover ${sha256} is damaged.`, { sha256 });
      return data;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw notFound(TAG_ERRORS.BLOB_MISSING, `The cover ${sha256} needed to undo this write is no longer stored in ${this.blobDir}.`, { sha256 });
      }
      throw err;
    }
  }

  async begin(entry: NewJournalEntry): Promise<void> {
    const entries = await this.#ready();
    const owner = await this.#ownerId();
    await entries.insertOne({ ...entry, state: 'pending', undoneBy: null, error: null, owner, updatedAt: now() });
  }

  async commit(writeId: string): Promise<void> {
    if (await this.#update(writeId, ['pending'], { state: 'committed' })) return;
    // Only a recovery settles another process's entry: one ran while this write renamed (this process
    // looked dead — a lapsed heartbeat — or ran code that kept no owners). The rename happened, so the
    // write is committed whatever that recovery saw then; one it committed already stays as it is.
    const entries = await this.#ready();
    const reclaimed = await entries.updateOne({ _id: writeId, state: 'failed', recovered: true }, { $set: { state: 'committed', error: null, updatedAt: now() } });
    if (reclaimed.matchedCount > 0) return;
    await this.#transition(writeId, ['pending'], { state: 'committed' }, (e) => e.recovered === true && ['committed', 'undoing', 'undone'].includes(e.state));
  }

  async fail(writeId: string, reason: string): Promise<void> {
    await this.#transition(writeId, ['pending'], { state: 'failed', error: reason.slice(0, 2000) });
  }

  async claimForUndo(writeId: string): Promise<JournalEntry> {
    const entries = await this.#ready();
    const undoOwner = await this.#ownerId();
    const claimed = await entries.findOneAndUpdate(
      { _id: writeId, state: 'committed' },
      { $set: { state: 'undoing', undoOwner, updatedAt: now() } },
      { returnDocument: 'after' },
    );
    if (claimed) return claimed;
    const entry = await entries.findOne({ _id: writeId });
    if (!entry) throw notFound(TAG_ERRORS.JOURNAL_NOT_FOUND, `No tag write ${writeId} in the journal.`, { writeId });
    if (entry.state === 'undone') {
      throw conflict(TAG_ERRORS.ALREADY_UNDONE, `Write ${writeId} on ${entry.path} was already undone${entry.undoneBy ? ` (by write ${entry.undoneBy})` : ''}.`, {
        writeId,
        undoneBy: entry.undoneBy,
      });
    }
    if (entry.state === 'undoing') throw conflict(TAG_ERRORS.NOT_UNDOABLE, `Write ${writeId} is being undone right now.`, { writeId });
    throw conflict(TAG_ERRORS.NOT_UNDOABLE, `Write ${writeId} is ${entry.state}, so there is nothing to undo.`, { writeId, state: entry.state });
  }

  async finishUndo(writeId: string, undoneBy: string | null): Promise<void> {
    // A recovery that found the file already restored may have finished it first.
    await this.#transition(writeId, ['undoing'], { state: 'undone', undoneBy }, (e) => e.recovered === true && e.state === 'undone');
  }

  async releaseUndo(writeId: string): Promise<void> {
    await this.#transition(writeId, ['undoing'], { state: 'committed' }, (e) => e.recovered === true && e.state === 'committed');
  }

  async get(writeId: string): Promise<JournalEntry | null> {
    return (await this.#ready()).findOne({ _id: writeId });
  }

  async listByTask(taskId: string): Promise<JournalEntry[]> {
    return (await this.#ready()).find({ taskId }, { sort: { at: 1, _id: 1 } });
  }

  async listByPath(filePath: string, options: { limit?: number } = {}): Promise<JournalEntry[]> {
    return (await this.#ready()).find({ path: filePath }, { sort: { at: -1, _id: -1 }, limit: options.limit ?? 100 });
  }

  async recover(): Promise<RecoveryReport> {
    const entries = await this.#ready();
    // Registered before judging others, so a process starting meanwhile leaves this one's writes alone.
    await this.#ownerId();
    const report: RecoveryReport = { committed: [], failed: [], undone: [], reopened: [], inFlight: [], tempFilesRemoved: [] };
    const pending = await entries.find({ state: 'pending' }, { sort: { at: 1, _id: 1 } });
    const undoing = await entries.find({ state: 'undoing' }, { sort: { at: 1, _id: 1 } });
    const live = this.#owner ? await this.#owner.liveOwners([...pending.map((e) => e.owner), ...undoing.map((e) => e.undoOwner)]) : new Set<string>();
    const isLive = (owner: string | null | undefined) => typeof owner === 'string' && live.has(owner);
    /** Folder → the entries settled there: their temp files go. */
    const settledIn = new Map<string, Set<string>>();
    const settled = (entry: JournalEntry, done: boolean, list: string[]) => {
      if (!done) return; // its writer (or another recovery) settled it meanwhile
      list.push(entry._id);
      const dir = path.dirname(entry.path);
      if (!settledIn.has(dir)) settledIn.set(dir, new Set());
      settledIn.get(dir)!.add(entry._id);
    };

    for (const entry of pending) {
      if (isLive(entry.owner)) {
        report.inFlight.push(entry._id);
        continue;
      }
      if (entry.kind === 'create') {
        // The file landed when its bytes are there; otherwise a file it was to replace goes back in place.
        if (await holds(entry.path, entry.file!)) {
          settled(entry, await this.#update(entry._id, ['pending'], { state: 'committed', recovered: true }), report.committed);
        } else {
          if (entry.replaced && !(await exists(entry.path)) && (await exists(entry.replaced.path))) await renameNoClobber(entry.replaced.path, entry.path).catch(() => undefined);
          settled(entry, await this.#update(entry._id, ['pending'], { state: 'failed', error: 'the file was not created before a crash', recovered: true }), report.failed);
        }
        continue;
      }
      if (entry.kind === 'move') {
        // The move happened when the file is at its new name and no longer at the old one.
        if ((await exists(entry.path)) && !(await exists(entry.from!))) {
          settled(entry, await this.#update(entry._id, ['pending'], { state: 'committed', recovered: true }), report.committed);
        } else {
          settled(entry, await this.#update(entry._id, ['pending'], { state: 'failed', error: 'the move did not happen before a crash', recovered: true }), report.failed);
        }
        continue;
      }
      const current = await snapshotOrNull(entry.path);
      if (current && diffSnapshots(entry.after, current).length === 0) {
        settled(entry, await this.#update(entry._id, ['pending'], { state: 'committed', recovered: true }), report.committed);
      } else {
        const why = current === null ? 'the file could not be read after a crash' : 'the write did not reach the file before a crash';
        settled(entry, await this.#update(entry._id, ['pending'], { state: 'failed', error: why, recovered: true }), report.failed);
      }
    }
    for (const entry of undoing) {
      if (isLive(entry.undoOwner)) {
        report.inFlight.push(entry._id);
        continue;
      }
      const restored =
        entry.kind === 'create'
          ? await createUndone(entry)
          : entry.kind === 'move'
          ? (await exists(entry.from!)) && !(await exists(entry.path))
          : await snapshotOrNull(entry.path).then((current) => current !== null && diffSnapshots(entry.before, current).length === 0);
      if (restored) {
        const undo = await entries.findOne({ undoOf: entry._id, state: 'committed' }, { sort: { at: -1 } });
        settled(entry, await this.#update(entry._id, ['undoing'], { state: 'undone', undoneBy: undo?._id ?? null, recovered: true }), report.undone);
      } else {
        settled(entry, await this.#update(entry._id, ['undoing'], { state: 'committed', recovered: true }), report.reopened);
      }
    }

    // Temp files of live processes' entries stay; those no entry names stay while they may be in flight.
    const keep = new Set(report.inFlight);
    const strayAgeMs = this.#owner ? STRAY_TEMP_AGE_MS : 0;
    for (const [dir, ids] of settledIn) report.tempFilesRemoved.push(...(await removeTempFiles(dir, { settled: ids, keep, strayAgeMs })));
    return report;
  }

  /** A conditional state change; false when the entry was no longer in a state of `from`. */
  async #update(writeId: string, from: JournalState[], set: Partial<JournalEntry>): Promise<boolean> {
    const entries = await this.#ready();
    const res = await entries.updateOne({ _id: writeId, state: { $in: from } }, { $set: { ...set, updatedAt: now() } });
    return res.matchedCount > 0;
  }

  /** A state change that must happen: a clear conflict otherwise, unless `alreadyDone` accepts the entry as it is. */
  async #transition(writeId: string, from: JournalState[], set: Partial<JournalEntry>, alreadyDone?: (entry: JournalEntry) => boolean): Promise<void> {
    if (await this.#update(writeId, from, set)) return;
    const entry = await (await this.#ready()).findOne({ _id: writeId });
    if (!entry) throw notFound(TAG_ERRORS.JOURNAL_NOT_FOUND, `No tag write ${writeId} in the journal.`, { writeId });
    if (alreadyDone?.(entry)) return;
    throw conflict(TAG_ERRORS.NOT_UNDOABLE, `Write ${writeId} is ${entry.state}; expected ${from.join(' or ')}.`, { writeId, state: entry.state });
  }
}

/**
 * Removes the temp files in `dir` of the writes in `settled`, and those of no write in `keep` (a
 * crash's before its entry existed) once older than `strayAgeMs`. Returns the removed paths.
 */
const removeTempFiles = (dir: string, which: { settled: Set<string>; keep: Set<string>; strayAgeMs: number }): Promise<string[]> =>
  cleanupTempFiles(dir, { minAgeFor: (writeId) => (which.keep.has(writeId) ? null : which.settled.has(writeId) ? 0 : which.strayAgeMs) });

/**
 * Whether a crash during the undo of a create left it done: the file is in the trash (`trashTo`) and, when it had
 * replaced one, that file is back (put back here when the crash came between the two renames).
 */
async function createUndone(entry: JournalEntry): Promise<boolean> {
  if (!(await exists(entry.trashTo!))) return false;
  if (!entry.replaced) return !(await exists(entry.path));
  if (!(await exists(entry.path)) && (await exists(entry.replaced.path))) await renameNoClobber(entry.replaced.path, entry.path).catch(() => undefined);
  return holds(entry.path, entry.replaced);
}

async function snapshotOrNull(filePath: string): Promise<TagSnapshot | null> {
  try {
    return (await inspectFile(filePath)).tags;
  } catch (err) {
    if (isTagsonicError(err)) return null;
    throw err;
  }
}

async function syncFolder(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * A folder fsync shared by the calls for one folder (group commit), built on `sync`. A call resolves
 * after an fsync of the folder that started after the call, so whatever the caller renamed or created
 * in it before calling is durable: an fsync under way when it arrives does not count, and every call
 * arriving meanwhile shares the next one. Tagging an album renames a dozen files in one folder at once.
 */
export function sharedFolderSync(sync: (dir: string) => Promise<void>): (dir: string) => Promise<void> {
  const folders = new Map<string, { running: Promise<void>; next: Promise<void> | null }>();
  const start = (dir: string): Promise<void> => {
    const state = { running: sync(dir), next: null as Promise<void> | null };
    folders.set(dir, state);
    const settled = () => {
      if (folders.get(dir) === state && state.next === null) folders.delete(dir);
    };
    state.running.then(settled, settled);
    return state.running;
  };
  const ignore = () => undefined;
  return (dir) => {
    const state = folders.get(dir);
    if (!state) return start(dir);
    state.next ??= state.running.then(ignore, ignore).then(() => start(dir));
    return state.next;
  };
}

/** fsyncs a folder: renames and creations in it before the call are durable when this resolves. */
export const fsyncDir: (dir: string) => Promise<void> = sharedFolderSync(syncFolder);
