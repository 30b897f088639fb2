/**
 * The library scanner: walks the roots, works out what is new, changed, moved and gone by (size,
 * mtime, inode), reads only what it must with the tag reader pool (all cores), re-derives albums,
 * artists and genres, and commits the difference as one library revision. See README.md.
 */
import { access, lstat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { setInterval as every } from 'node:timers';
import type { Bus } from '@tagsonic/core/bus';
import { conflict, isTagsonicError, unavailable } from '@tagsonic/core/errors';
import { newId } from '@tagsonic/core';
import type { MediaRoot, MediaRoots } from '@tagsonic/core/media';
import { SUBJECTS } from '@tagsonic/core/tasks';
import { noteActivity } from '@tagsonic/core/memory';
import { createTagReaderPool, readTags, TAG_ERRORS, type ReadResult, type TagReaderPool } from '@tagsonic/core/tags';
import {
  aggregate,
  assignAlbums,
  folderIdFor,
  sameDoc,
  type Catalog,
  type LibraryChanges,
  type LibraryStore,
  type ScanFailureDoc,
  type TrackDoc,
} from '@tagsonic/core/library';
import { AUDIO_EXTENSIONS, folderCoverFor, lrcFor, readDirInfo, walkRoots, type DirInfo, type FoundFile, type WalkResult } from './walk.ts';
import { NOT_A_SONG_CODES, notAudio, trackDocFrom, withSidecars, type Sidecars } from './track-doc.ts';

export interface ScannerDeps {
  roots: MediaRoots;
  library: LibraryStore;
  catalog: Catalog;
  /** Publishes `tagsonic.evt.library.changed` after a commit. */
  bus?: Bus;
  /** Reader threads (default: one per core). */
  readerThreads?: number;
  /** Files parsed at once per thread. */
  inFlightPerThread?: number;
}

export interface ScanProgress {
  phase: 'walk' | 'read' | 'write' | 'done';
  found: number;
  toRead: number;
  read: number;
  failed: number;
}

export interface ScanOptions {
  /** Re-read every file. Default false: only new and changed files are read. */
  full?: boolean;
  /** Root names; default every root except webdav. */
  roots?: readonly string[];
  /** The task running this scan (recorded with the lock). */
  taskId?: string | null;
  /** Called at most every `progressEveryMs` and once per phase. */
  onProgress?: (p: ScanProgress) => void | Promise<void>;
  progressEveryMs?: number;
}

export interface FailedFile {
  path: string;
  code: string;
  message: string;
}

export interface EntityCounts {
  added: number;
  updated: number;
  removed: number;
}

export interface ScanResult {
  full: boolean;
  roots: string[];
  /** Audio files seen. */
  found: number;
  unchanged: number;
  added: number;
  /** Tracks whose file changed (or, in a full scan, was re-read and differed) or whose side files changed. */
  updated: number;
  /** Files found at a new path that kept their track id. */
  moved: number;
  removed: number;
  /** Files parsed. */
  read: number;
  /** Unreadable files (corrupt, truncated, not audio): reported, never fatal. */
  failed: FailedFile[];
  /** Folders or files the walk could not list. */
  walkErrors: Array<{ path: string; message: string }>;
  albums: EntityCounts;
  artists: EntityCounts;
  genres: EntityCounts;
  /** Library revision after the scan. */
  rev: number;
  durationMs: number;
  /** Milliseconds spent walking and planning, reading files, deriving the model, writing it. */
  timings: { walk: number; read: number; derive: number; write: number };
}

/** One file put into the library at once (import collection), see {@link Scanner.indexFiles}. */
export interface IndexedFile {
  path: string;
  /**
   * `added`: a new track; `updated`: its track was listed and is re-read (in a dry run: whose file changed since);
   * `unchanged`: listed and the same; `failed`: unreadable or not a song (`code`, `message`), kept out of the library.
   */
  status: 'added' | 'updated' | 'unchanged' | 'failed';
  /** The file's track (kept when it was listed); null when it failed. */
  trackId: string | null;
  /** Another listed track with the same size and content fingerprint: this file is a copy of it. */
  sameAs: { id: string; path: string } | null;
  code?: string;
  message?: string;
}

export interface IndexFilesOptions {
  /** Read and compare only: nothing is written and no lock is taken. */
  dryRun?: boolean;
  /** The task importing (recorded with the lock). */
  taskId?: string | null;
  /** How long to wait for a running scan's lock before giving up with `TAGSONIC_ERR_LIBRARY_SCAN_RUNNING`. Default 20 s. */
  waitMs?: number;
  /**
   * Follow edits (follow-edits.ts): the paths are files something just wrote, moved or deleted, and the library
   * takes them as a scan would. A listed path whose file is gone leaves the library (or, when a new path of the
   * batch or a file with its inode, size and mtime appears, moves there keeping its track id); files excluded by
   * hand stay out; non-audio files, hidden files (the trash) and paths outside the roots are passed over silently.
   */
  follow?: boolean;
}

/** What an incremental scan would do, found without reading any file. */
export interface ChangeSummary {
  changed: boolean;
  found: number;
  newFiles: number;
  changedFiles: number;
  missingFiles: number;
  sidecarChanges: number;
}

/** Up to this many files are read in this thread, without starting the reader pool. */
const INLINE_READS = 24;
const INLINE_IN_FLIGHT = 4;
const LOCK_TTL_MS = 60_000;
const LOCK_RENEW_MS = 15_000;
/** indexFiles: how often a held scan lock is tried again, and for how long by default. */
const INDEX_LOCK_POLL_MS = 250;
const INDEX_LOCK_WAIT_MS = 20_000;
/** A scan finding the lock held by indexFiles (short batches) waits this long for it instead of being skipped. */
const SCAN_WAIT_FOR_INDEX_MS = 30_000;
/** Lock owners: a full scan's ends in `:full`, indexFiles' in `:index` (see fullScanRunning, lockForScan). */
const FULL_SUFFIX = ':full';
const INDEX_SUFFIX = ':index';
const PROGRESS_COUNT_MS = 2_000;
const DEFAULT_ROOTS_EXCLUDE = new Set(['webdav']);

export const SCAN_ERRORS = {
  running: 'TAGSONIC_ERR_LIBRARY_SCAN_RUNNING',
  lockLost: 'TAGSONIC_ERR_LIBRARY_SCAN_LOCK_LOST',
  unknownRoot: 'TAGSONIC_ERR_LIBRARY_UNKNOWN_ROOT',
} as const;

const exists = (p: string) => access(p).then(() => true, () => false);
const statKey = (ino: number, size: number, mtimeMs: number) => `${ino}:${size}:${mtimeMs}`;
const contentKey = (size: number, mtimeMs: number, fp: string) => `${size}:${mtimeMs}:${fp}`;

interface Plan {
  walk: WalkResult;
  roots: MediaRoot[];
  /** Existing tracks of the scanned roots, by path. */
  existing: Map<string, TrackDoc>;
  unchanged: TrackDoc[];
  /** Unchanged files whose .lrc or folder image changed. */
  sidecarUpdates: Array<{ track: TrackDoc; file: FoundFile }>;
  /** Existing tracks found at a new path by inode. */
  movedByInode: Array<{ track: TrackDoc; file: FoundFile }>;
  toRead: Array<{ file: FoundFile; existing: TrackDoc | null }>;
  /** Existing tracks not found (yet): removed unless a read claims them as moved. */
  missing: Map<string, TrackDoc>;
  /** Unreadable files from earlier scans that did not change: not read again. */
  knownFailures: ScanFailureDoc[];
  /** Recorded failures of the scanned roots whose file is gone or changed. */
  staleFailures: string[];
}

interface CommitInput {
  plan: Plan;
  added: TrackDoc[];
  /** Re-read files and side-file changes (possibly identical to before). */
  updated: TrackDoc[];
  moved: TrackDoc[];
  removed: TrackDoc[];
  full: boolean;
  failed: FailedFile[];
  started: number;
  timings: ScanResult['timings'];
  /** False for files indexed one by one (import collection): the library's last scan stays the last scan. */
  recordScan?: boolean;
}

export class Scanner {
  private readonly deps: ScannerDeps;
  private readonly owner = `${hostname()}:${process.pid}:${newId()}`;

  constructor(deps: ScannerDeps) {
    this.deps = deps;
  }

  private selectRoots(names: readonly string[] | undefined): MediaRoot[] {
    const all = this.deps.roots.roots;
    if (!names) return all.filter((r) => !DEFAULT_ROOTS_EXCLUDE.has(r.name));
    return names.map((n) => {
      const r = all.find((x) => x.name === n);
      if (!r) throw conflict(SCAN_ERRORS.unknownRoot, `There is no media root named "${n}" to scan.`, { root: n });
      return r;
    });
  }

  private sidecarsOf(walk: WalkResult, file: FoundFile): Sidecars {
    return { lrcPath: lrcFor(walk.dirs, file.path), folderCover: folderCoverFor(walk.dirs, file.dir) };
  }

  /** Walks the roots and compares them with the catalogue. Reads no file (`onFile` may). */
  private async plan(rootNames: readonly string[] | undefined, full: boolean, onFile?: (file: FoundFile) => void): Promise<Plan> {
    const roots = this.selectRoots(rootNames);
    await this.deps.catalog.sync();
    const walk = await walkRoots(roots, onFile);
    // Files taken out of the library by hand (deleteTrack's delete_track) stay on disk but are not found.
    const excluded = new Set((await this.deps.library.excluded.find({})).map((d) => d._id));
    if (excluded.size) walk.files = walk.files.filter((f) => !excluded.has(f.path));
    const scanned = new Set(roots.map((r) => r.name));
    const existing = new Map<string, TrackDoc>();
    for (const t of this.deps.catalog.tracks.values()) if (scanned.has(t.root)) existing.set(t.path, t);
    const foundPaths = new Set(walk.files.map((f) => f.path));
    const missing = new Map<string, TrackDoc>();
    for (const t of existing.values()) if (!foundPaths.has(t.path)) missing.set(t._id, t);
    const missingByStat = new Map<string, TrackDoc>();
    for (const t of missing.values()) missingByStat.set(statKey(t.ino, t.size, t.mtimeMs), t);

    const failures = new Map<string, ScanFailureDoc>();
    for (const f of await this.deps.library.failures.find({ root: { $in: [...scanned] } })) failures.set(f._id, f);
    const plan: Plan = { walk, roots, existing, unchanged: [], sidecarUpdates: [], movedByInode: [], toRead: [], missing, knownFailures: [], staleFailures: [] };
    for (const file of walk.files) {
      const failure = failures.get(file.path);
      if (failure) {
        failures.delete(file.path);
        if (!full && failure.size === file.size && failure.mtimeMs === file.mtimeMs && failure.ino === file.ino) {
          plan.knownFailures.push(failure);
          continue;
        }
        plan.staleFailures.push(file.path);
      }
      const known = existing.get(file.path);
      if (known) {
        const same = known.size === file.size && known.mtimeMs === file.mtimeMs && known.ino === file.ino;
        if (same && !full) {
          const sidecars = this.sidecarsOf(walk, file);
          if (sidecars.lrcPath !== known.lrcPath || sidecars.folderCover !== known.folderCover) plan.sidecarUpdates.push({ track: known, file });
          else plan.unchanged.push(known);
        } else plan.toRead.push({ file, existing: known });
        continue;
      }
      const moved = missingByStat.get(statKey(file.ino, file.size, file.mtimeMs));
      if (moved && missing.has(moved._id)) {
        missing.delete(moved._id);
        missingByStat.delete(statKey(file.ino, file.size, file.mtimeMs));
        if (full) plan.toRead.push({ file, existing: moved });
        else plan.movedByInode.push({ track: moved, file });
        continue;
      }
      plan.toRead.push({ file, existing: null });
    }
    plan.staleFailures.push(...failures.keys());
    return plan;
  }

  /** True while a full scan (any process) holds the scan lock: it re-reads everything, so edits need not be followed now. */
  async fullScanRunning(): Promise<boolean> {
    return (await this.deps.library.scanLock())?.owner.endsWith(FULL_SUFFIX) ?? false;
  }

  /**
   * Takes the scan lock for a scan. Held by indexFiles (a short batch: an import, followed edits), the scan waits
   * for it up to SCAN_WAIT_FOR_INDEX_MS instead of ending as skipped; held by another scan, it gives up at once.
   */
  private async lockForScan(owner: string, taskId: string | null): Promise<boolean> {
    const { library } = this.deps;
    const until = Date.now() + SCAN_WAIT_FOR_INDEX_MS;
    for (;;) {
      if (await library.acquireScanLock(owner, taskId, LOCK_TTL_MS)) return true;
      const holder = await library.scanLock();
      if ((holder && !holder.owner.endsWith(INDEX_SUFFIX)) || Date.now() + INDEX_LOCK_POLL_MS > until) return false;
      await new Promise((resolve) => setTimeout(resolve, INDEX_LOCK_POLL_MS));
    }
  }

  /** The task of the scan holding the lock now (any process), if any. */
  async runningTaskId(): Promise<string | null> {
    return (await this.deps.library.scanLock())?.taskId ?? null;
  }

  /** What an incremental scan would change; cheap (a walk and a comparison), for the watcher. */
  async detectChanges(options: { roots?: readonly string[] } = {}): Promise<ChangeSummary> {
    const plan = await this.plan(options.roots, false);
    const newFiles = plan.toRead.filter((r) => !r.existing).length + plan.movedByInode.length;
    const changedFiles = plan.toRead.length - plan.toRead.filter((r) => !r.existing).length;
    return {
      changed: plan.toRead.length + plan.movedByInode.length + plan.missing.size + plan.sidecarUpdates.length + plan.staleFailures.length > 0,
      found: plan.walk.files.length,
      newFiles,
      changedFiles,
      missingFiles: plan.missing.size,
      sidecarChanges: plan.sidecarUpdates.length,
    };
  }

  /**
   * Runs one scan under the scan lock. Throws `TAGSONIC_ERR_LIBRARY_SCAN_RUNNING` (conflict) when
   * another scan holds the lock.
   */
  async scan(options: ScanOptions = {}): Promise<ScanResult> {
    const started = Date.now();
    const full = options.full === true;
    const { library } = this.deps;
    const owner = full ? `${this.owner}${FULL_SUFFIX}` : this.owner;
    if (!(await this.lockForScan(owner, options.taskId ?? null))) {
      throw conflict(SCAN_ERRORS.running, 'A library scan is already running; this one was not started.');
    }
    const progress: ScanProgress = { phase: 'walk', found: 0, toRead: 0, read: 0, failed: 0 };
    const timings: ScanResult['timings'] = { walk: 0, read: 0, derive: 0, write: 0 };
    let lockLost = false;
    const renew = every(() => {
      library.renewScanLock(owner, LOCK_TTL_MS, progress.read).then(
        (held) => (lockLost ||= !held),
        () => undefined,
      );
    }, LOCK_RENEW_MS);
    renew.unref();
    let lastReport = 0;
    let lastCount = 0;
    const report = async (force: boolean) => {
      const now = Date.now();
      // getScanStatus reads the count from the lock: keep it current every few seconds and per phase.
      if (force || now - lastCount >= PROGRESS_COUNT_MS) {
        lastCount = now;
        const renewal = library.renewScanLock(owner, LOCK_TTL_MS, progress.read).then((held) => (lockLost ||= !held), () => undefined);
        if (force) await renewal;
      }
      if (!options.onProgress || (!force && now - lastReport < (options.progressEveryMs ?? 500))) return;
      lastReport = now;
      await options.onProgress({ ...progress });
    };
    let pool: TagReaderPool | null = null;
    const startPool = () => createTagReaderPool({ threads: this.deps.readerThreads, inFlightPerThread: this.deps.inFlightPerThread });
    try {
      await report(true);
      // A first or full scan reads everything: start the reader threads now, so that loading their
      // modules overlaps the walk instead of following it; and when the catalogue is empty every file
      // found will be read, so reading starts as the walk finds them. (A file the plan then skips, a
      // known failure, is read for nothing; its result is dropped.)
      const early = new Map<string, Promise<ReadResult>>();
      let onFile: ((file: FoundFile) => void) | undefined;
      const firstScan = this.deps.catalog.tracks.size === 0;
      if (full || firstScan) {
        const reader = (pool = startPool());
        if (firstScan) {
          onFile = (file) => {
            if (early.has(file.path)) return;
            const read = reader.read(file.path);
            read.catch(() => undefined);
            early.set(file.path, read);
          };
        }
      }
      const plan = await this.plan(options.roots, full, onFile);
      timings.walk = Date.now() - started;
      progress.found = plan.walk.files.length;
      progress.toRead = plan.toRead.length;
      progress.phase = 'read';
      await report(true);

      const now = new Date();
      const failed: FailedFile[] = [];
      const failedFiles: FoundFile[] = [];
      /** Listed tracks whose file turned out not to be a song: they leave the library. */
      const notSongs: TrackDoc[] = [];
      const added: TrackDoc[] = [];
      const updated: TrackDoc[] = [];
      const moved: TrackDoc[] = plan.movedByInode.map(({ track, file }) => ({
        ...withSidecars(track, this.sidecarsOf(plan.walk, file)),
        path: file.path,
        root: file.root,
        relPath: file.relPath,
        folderId: folderIdFor(file.dir),
        updatedAt: now,
      }));
      // Moves across file systems change the inode: match new files to missing ones by content.
      const missingByContent = new Map<string, TrackDoc>();
      for (const t of plan.missing.values()) missingByContent.set(contentKey(t.size, t.mtimeMs, t.fp), t);

      if (plan.toRead.length > 0) {
        // Starting reader threads costs more than reading a handful of files here (the watcher's usual case).
        let readFile: (p: string) => Promise<ReadResult>;
        if (pool || plan.toRead.length > INLINE_READS) {
          const reader = (pool ??= startPool());
          readFile = (p) => reader.read(p);
        } else readFile = limited(INLINE_IN_FLIGHT, (p: string) => readTags(p));
        await Promise.all(
          plan.toRead.map(async ({ file, existing }) => {
            const fail = (code: string, message: string) => {
              failed.push({ path: file.path, code, message });
              failedFiles.push(file);
              progress.failed++;
              if (existing && NOT_A_SONG_CODES.has(code)) notSongs.push(existing);
            };
            let read: ReadResult;
            try {
              read = await (early.get(file.path) ?? readFile(file.path));
              // Parsed headers are not yet a song: junk can look like one (see notAudio).
              const problem = await notAudio(file.path, read);
              if (problem) return fail(problem.code, problem.message);
            } catch (e) {
              if (!isTagsonicError(e) || e.kind === 'unavailable') throw e;
              return fail(e.code, e.message);
            } finally {
              progress.read++;
              void report(false);
            }
            const sidecars = this.sidecarsOf(plan.walk, file);
            if (existing) {
              const doc = trackDocFrom(file, read, sidecars, { id: existing._id, createdAt: existing.createdAt }, now);
              if (existing.path !== file.path) moved.push(doc);
              else updated.push(doc);
              return;
            }
            const fresh = trackDocFrom(file, read, sidecars, { id: newId(), createdAt: now }, now);
            const key = contentKey(file.size, file.mtimeMs, fresh.fp);
            const was = missingByContent.get(key);
            if (was && plan.missing.has(was._id)) {
              plan.missing.delete(was._id);
              missingByContent.delete(key);
              moved.push({ ...fresh, _id: was._id, createdAt: was.createdAt });
              return;
            }
            added.push(fresh);
          }),
        );
      }
      for (const { track, file } of plan.sidecarUpdates) updated.push({ ...withSidecars(track, this.sidecarsOf(plan.walk, file)), updatedAt: now });
      if (lockLost) throw unavailable(SCAN_ERRORS.lockLost, 'The scan lost its lock (it took too long to renew); nothing was written.');

      timings.read = Date.now() - started - timings.walk;
      progress.phase = 'write';
      await report(true);
      const removed = [...plan.missing.values(), ...notSongs];
      await this.recordFailures(plan, failed, failedFiles);
      failed.push(...plan.knownFailures.map((f) => ({ path: f._id, code: f.code, message: f.message })));
      const result = await this.commit({ plan, added, updated, moved, removed, full, failed, started, timings });
      progress.phase = 'done';
      await report(true);
      return result;
    } finally {
      clearInterval(renew);
      if (pool) await pool.close();
      // The scan's documents, reads and plan are garbage now: collected once the process goes quiet.
      noteActivity();
      await library.releaseScanLock(owner).catch(() => undefined);
    }
  }

  /**
   * Puts the named audio files (absolute, resolved paths inside the roots) into the library now, without
   * walking the roots: import collection. Each file is read and turned into its track exactly as a scan does
   * (same reader, same not-a-song check, same side files, same track id when it is listed), and the difference
   * is committed as one library revision with albums, artists and genres derived again over the whole library,
   * so Subsonic and the dashboard list it at once. A file removed from the library by hand (delete_track) comes
   * back. Unreadable files are `failed` (and listed among the scan failures, as a scan would), never thrown.
   * Runs under the scan lock (its own owner, so a scan of this process is not taken over), waiting up to
   * `waitMs` for a running scan; `dryRun` reads and compares only.
   */
  async indexFiles(paths: readonly string[], options: IndexFilesOptions = {}): Promise<IndexedFile[]> {
    const started = Date.now();
    const { library, catalog } = this.deps;
    const owner = `${this.owner}${INDEX_SUFFIX}`;
    if (!options.dryRun) {
      const until = started + (options.waitMs ?? INDEX_LOCK_WAIT_MS);
      while (!(await library.acquireScanLock(owner, options.taskId ?? null, LOCK_TTL_MS))) {
        if (Date.now() + INDEX_LOCK_POLL_MS > until) throw conflict(SCAN_ERRORS.running, 'A library scan is running; the files were not put into the library. Try again when it has finished.');
        await new Promise((resolve) => setTimeout(resolve, INDEX_LOCK_POLL_MS));
      }
    }
    try {
      await catalog.sync();
      const byPath = new Map<string, TrackDoc>();
      const byContent = new Map<string, TrackDoc>();
      for (const t of catalog.tracks.values()) {
        byPath.set(t.path, t);
        byContent.set(`${t.size}:${t.fp}`, t);
      }
      const dirs = new Map<string, DirInfo>();
      const dirInfo = async (dir: string) => {
        if (!dirs.has(dir)) dirs.set(dir, await readDirInfo(dir));
      };
      const now = new Date();
      const results: IndexedFile[] = [];
      const files: FoundFile[] = [];
      const failed: FailedFile[] = [];
      const failedFiles: FoundFile[] = [];
      const added: TrackDoc[] = [];
      const updated: TrackDoc[] = [];
      const notSongs: TrackDoc[] = [];
      const roots = new Map<string, MediaRoot>();
      const unique = [...new Set(paths)];
      const follow = options.follow === true;
      // Following edits: listed tracks whose file is gone (deleted, or moved: claimed below by its new path).
      const gone = new Map<string, TrackDoc>();
      const excluded = new Set<string>();
      const asked = new Set(unique);
      if (follow) {
        for (const d of await library.excluded.find({ _id: { $in: unique } })) excluded.add(d._id);
        for (const p of unique) {
          const t = byPath.get(p);
          if (t && !(await exists(p))) gone.set(t._id, t);
        }
      }
      let byStat: Map<string, TrackDoc> | null = null;
      /** A listed track whose file vanished and that this new file is (same inode, size and mtime: a rename). */
      const movedHere = async (f: FoundFile): Promise<TrackDoc | null> => {
        if (!byStat) {
          byStat = new Map();
          for (const t of catalog.tracks.values()) byStat.set(statKey(t.ino, t.size, t.mtimeMs), t);
        }
        const t = byStat.get(statKey(f.ino, f.size, f.mtimeMs));
        if (!t || t.path === f.path) return null;
        if (gone.has(t._id) || (!asked.has(t.path) && !(await exists(t.path)))) {
          gone.delete(t._id);
          return t;
        }
        return null;
      };
      for (const filePath of unique) {
        if (follow && (excluded.has(filePath) || gone.has(byPath.get(filePath)?._id ?? ''))) continue;
        let existing = byPath.get(filePath) ?? null;
        const fail = (code: string, message: string, file?: FoundFile) => {
          results.push({ path: filePath, status: 'failed', trackId: null, sameAs: null, code, message });
          if (file) {
            failed.push({ path: filePath, code, message });
            failedFiles.push(file);
          }
          if (existing && NOT_A_SONG_CODES.has(code)) notSongs.push(existing);
        };
        const file = await this.foundFile(filePath);
        if ('code' in file) {
          if (!follow) fail(file.code, file.message);
          continue;
        }
        // The walk's rules: hidden entries (the trash, the tag engine's temp files) are no part of the library.
        if (follow && file.file.relPath.split('/').some((s) => s.startsWith('.'))) continue;
        roots.set(file.root.name, file.root);
        const found = file.file;
        if (follow && !existing) existing = await movedHere(found);
        let read: ReadResult;
        try {
          read = await readTags(found.path);
          const problem = await notAudio(found.path, read);
          if (problem) {
            fail(problem.code, problem.message, found);
            continue;
          }
        } catch (e) {
          if (!isTagsonicError(e) || e.kind === 'unavailable') throw e;
          fail(e.code, e.message, found);
          continue;
        }
        files.push(found);
        await dirInfo(found.dir);
        await dirInfo(path.dirname(found.dir));
        const sidecars = { lrcPath: lrcFor(dirs, found.path), folderCover: folderCoverFor(dirs, found.dir) };
        if (follow && !existing && gone.size > 0) {
          // Moved across file systems (a new inode): the same size, mtime and content as a vanished track of the batch.
          const fp = trackDocFrom(found, read, sidecars, { id: '', createdAt: now }, now).fp;
          existing = [...gone.values()].find((t) => contentKey(t.size, t.mtimeMs, t.fp) === contentKey(found.size, found.mtimeMs, fp)) ?? null;
          if (existing) gone.delete(existing._id);
        }
        const doc = trackDocFrom(found, read, sidecars, existing ? { id: existing._id, createdAt: existing.createdAt } : { id: newId(), createdAt: now }, now);
        const copy = byContent.get(`${doc.size}:${doc.fp}`);
        const sameAs = copy && copy.path !== found.path ? { id: copy._id, path: copy.path } : null;
        const same = existing !== null && existing.size === found.size && existing.mtimeMs === found.mtimeMs && existing.ino === found.ino && existing.fp === doc.fp;
        results.push({ path: found.path, status: !existing ? 'added' : same ? 'unchanged' : 'updated', trackId: doc._id, sameAs });
        if (existing) updated.push(doc);
        else added.push(doc);
      }
      if (options.dryRun) return results;

      const indexed = [...added, ...updated].map((t) => t.path);
      // An import brings back a file excluded by hand; following edits passed such files over (nothing to delete).
      if (indexed.length && !follow) await library.excluded.deleteMany({ _id: { $in: indexed } });
      const walk: WalkResult = { files: [...files, ...failedFiles], dirs, errors: [] };
      const plan: Plan = {
        walk, roots: [...roots.values()], existing: byPath, unchanged: [], sidecarUpdates: [], movedByInode: [],
        toRead: walk.files.map((f) => ({ file: f, existing: byPath.get(f.path) ?? null })),
        missing: new Map(), knownFailures: [], staleFailures: [...indexed, ...[...gone.values()].map((t) => t.path)],
      };
      for (const t of gone.values()) results.push({ path: t.path, status: 'failed', trackId: null, sameAs: null, code: 'TAGSONIC_ERR_MEDIA_NOT_FOUND', message: `${t.path} is gone; its song left the library.` });
      await this.recordFailures(plan, failed, failedFiles);
      const before = new Map(updated.map((t) => [t._id, catalog.tracks.get(t._id)]));
      if (added.length + updated.length + notSongs.length + gone.size > 0) {
        await this.commit({ plan, added, updated, moved: [], removed: [...notSongs, ...gone.values()], full: false, failed, started, timings: { walk: 0, read: 0, derive: 0, write: 0 }, recordScan: false });
      }
      // A listed track whose file read the same is unchanged: the commit kept its document.
      for (const r of results) if (r.status !== 'failed' && r.status !== 'added' && r.trackId) r.status = catalog.tracks.get(r.trackId) === before.get(r.trackId) ? 'unchanged' : 'updated';
      return results;
    } finally {
      if (!options.dryRun) await library.releaseScanLock(owner).catch(() => undefined);
    }
  }

  /** A file to index, as the walk would have found it (the deepest root containing it), or why it cannot be. */
  private async foundFile(filePath: string): Promise<{ file: FoundFile; root: MediaRoot } | { code: string; message: string }> {
    const root = this.deps.roots.roots.filter((r) => filePath === r.dir || filePath.startsWith(`${r.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0];
    if (!root) return { code: 'TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS', message: `${filePath} is not inside a media folder.` };
    const suffix = path.extname(filePath).slice(1).toLowerCase();
    if (!AUDIO_EXTENSIONS.has(suffix)) return { code: TAG_ERRORS.UNSUPPORTED_FORMAT, message: `${filePath} is not an audio file (.${suffix || '?'}): only ${[...AUDIO_EXTENSIONS].join(', ')} files are music.` };
    let st;
    try {
      st = await lstat(filePath);
    } catch (e) {
      return { code: 'TAGSONIC_ERR_MEDIA_NOT_FOUND', message: `${filePath} cannot be read: ${(e as Error).message}` };
    }
    if (!st.isFile()) return { code: TAG_ERRORS.NOT_A_FILE, message: `${filePath} is not a file.` };
    const dir = path.dirname(filePath);
    return {
      root,
      file: { path: filePath, root: root.name, relPath: filePath.slice(root.dir.length + 1), dir, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, suffix },
    };
  }

  private async recordFailures(plan: Plan, failed: FailedFile[], files: FoundFile[]): Promise<void> {
    const { failures } = this.deps.library;
    const now = new Date();
    const byPath = new Map(files.map((f) => [f.path, f]));
    if (plan.staleFailures.length > 0) await failures.deleteMany({ _id: { $in: plan.staleFailures } });
    if (failed.length > 0) {
      await failures.bulkWrite(
        failed.map((f) => {
          const file = byPath.get(f.path)!;
          const doc: ScanFailureDoc = { _id: f.path, root: file.root, size: file.size, mtimeMs: file.mtimeMs, ino: file.ino, code: f.code, message: f.message, at: now };
          return { replaceOne: { filter: { _id: f.path }, replacement: doc, upsert: true } };
        }),
      );
    }
  }

  /** Derives album assignment and aggregates over the library after this scan, and commits the difference. */
  private async commit(input: CommitInput): Promise<ScanResult> {
    const { catalog } = this.deps;
    const { added, moved, removed } = input;
    if (input.updated.length + moved.length + added.length + removed.length === 0) {
      // Nothing to derive: album assignment and aggregates only change with the tracks.
      const none: EntityCounts = { added: 0, updated: 0, removed: 0 };
      return this.finish(input, 0, { albums: none, artists: none, genres: none }, {});
    }
    // The whole library after this scan, then album assignment over it (it depends on siblings).
    const next = new Map(catalog.tracks);
    for (const t of removed) next.delete(t._id);
    const candidates = [...input.updated, ...moved, ...added];
    for (const t of candidates) next.set(t._id, t);
    for (const [id, a] of assignAlbums(next.values())) {
      const t = next.get(id)!;
      if (t.albumId === a.albumId && t.albumArtist === a.albumArtist && t.compilation === a.compilation && sameList(t.albumArtistIds, a.albumArtistIds)) continue;
      next.set(id, { ...t, ...a });
    }
    const touched = new Map<string, TrackDoc>();
    let updatedCount = 0;
    const reread = new Set(input.updated.map((t) => t._id));
    for (const t of next.values()) {
      const before = catalog.tracks.get(t._id);
      if (before === t) continue;
      // A re-read file that came out the same (a full scan) is not an update, and keeps its times.
      if (before && sameDoc(withoutTimes(before), withoutTimes(t))) {
        next.set(t._id, before);
        continue;
      }
      touched.set(t._id, t);
      if (reread.has(t._id)) updatedCount++;
    }
    const derived = aggregate(next.values());
    input.timings.derive = Date.now() - input.started - input.timings.walk - input.timings.read;
    const fresh = new Set(added.map((t) => t._id));
    const changes: LibraryChanges = {
      insertTracks: [...touched.values()].filter((t) => fresh.has(t._id)),
      upsertTracks: [...touched.values()].filter((t) => !fresh.has(t._id)),
      removeTracks: removed.map((t) => t._id),
    };
    const counts = {
      albums: diff(derived.albums, catalog.albums, (docs, ids) => ((changes.upsertAlbums = docs), (changes.removeAlbums = ids))),
      artists: diff(derived.artists, catalog.artists, (docs, ids) => ((changes.upsertArtists = docs), (changes.removeArtists = ids))),
      genres: diff(derived.genres, catalog.genres, (docs, ids) => ((changes.upsertGenres = docs), (changes.removeGenres = ids))),
    };
    return this.finish(input, updatedCount, counts, changes);
  }

  /** Commits the changes with the scan record and builds the result. */
  private async finish(
    input: CommitInput,
    updatedCount: number,
    entity: { albums: EntityCounts; artists: EntityCounts; genres: EntityCounts },
    changes: LibraryChanges,
  ): Promise<ScanResult> {
    const { catalog, library } = this.deps;
    const { plan, full, failed, started } = input;
    const durationMs = Date.now() - started;
    if (input.recordScan !== false) changes.lastScan = { at: new Date(), full, durationMs, found: plan.walk.files.length, read: plan.toRead.length, failed: failed.length };
    const before = catalog.revision;
    const writeStarted = Date.now();
    const rev = await library.commit(changes);
    await catalog.applyCommit(changes, rev);
    input.timings.write = Date.now() - writeStarted;
    const result: ScanResult = {
      full,
      roots: plan.roots.map((r) => r.name),
      found: plan.walk.files.length,
      unchanged: plan.unchanged.length + (input.updated.length - updatedCount),
      added: input.added.length,
      updated: updatedCount,
      moved: input.moved.length,
      removed: input.removed.length,
      read: plan.toRead.length,
      failed: failed.sort((a, b) => (a.path < b.path ? -1 : 1)),
      walkErrors: plan.walk.errors,
      ...entity,
      rev,
      durationMs: Date.now() - started,
      timings: input.timings,
    };
    if (rev !== before && this.deps.bus) {
      await this.deps.bus
        .publish(SUBJECTS.libraryChanged, { rev, added: result.added, updated: result.updated, moved: result.moved, removed: result.removed })
        .catch(() => undefined);
    }
    return result;
  }
}

function withoutTimes(t: TrackDoc): Record<string, unknown> {
  const { updatedAt: _u, rev: _r, ...rest } = t;
  return rest;
}

/** Wraps `fn` so at most `n` calls run at once. */
function limited<A, R>(n: number, fn: (a: A) => Promise<R>): (a: A) => Promise<R> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (a) => {
    if (running >= n) await new Promise<void>((r) => waiting.push(r));
    running++;
    try {
      return await fn(a);
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Derived documents that are new or differ, and ids that are gone; returns the counts. */
function diff<T extends { _id: string; createdAt?: Date }>(
  next: T[],
  current: ReadonlyMap<string, T>,
  apply: (docs: T[], removed: string[]) => void,
): EntityCounts {
  const docs: T[] = [];
  let added = 0;
  let updated = 0;
  const seen = new Set<string>();
  for (const d of next) {
    seen.add(d._id);
    const was = current.get(d._id);
    if (!was) {
      docs.push(d);
      added++;
    } else if (!sameDoc(was as unknown as Record<string, unknown>, d as unknown as Record<string, unknown>)) {
      docs.push(d);
      updated++;
    }
  }
  const removed = [...current.keys()].filter((id) => !seen.has(id));
  apply(docs, removed);
  return { added, updated, removed: removed.length };
}
