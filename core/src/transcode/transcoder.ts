/**
 * Transcodes a track with ffmpeg into an on-disk cache that clients read while it grows.
 *
 * ffmpeg writes to a file, not to the client: a slow client (playing in real time) never holds up
 * the encoder, a client that disconnects still leaves a complete cache entry for its next request
 * (players re-request when seeking), and two clients asking for the same rendition share one ffmpeg.
 * Entries are keyed by (track, file mtime and size, format, bit rate, offset, command); the cache
 * keeps the `cacheEntries` most recently used. At most `maxConcurrent` ffmpeg processes run; more
 * requests wait up to `queueTimeoutMs`, then fail with TAGSONIC_ERR_TRANSCODE_BUSY.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink, utimes, type FileHandle } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { invalid, unavailable } from '../errors/errors.ts';
import { profileCommand, templateCommand, type Command } from './command.ts';
import { Limiter } from './limiter.ts';
import { bitRateFor, type Profile } from './profiles.ts';
import { toolPath } from '../tools.ts';

export interface TranscodeSource {
  /** Track id. */
  id: string;
  path: string;
  mtimeMs: number;
  size: number;
  /** Seconds. */
  duration: number;
  /** kbps of the source (estimates for lossless output). */
  bitRate: number;
}

export type TranscodeTarget =
  | { kind: 'profile'; profile: Profile; maxBitRate?: number | null }
  | { kind: 'template'; template: string; maxBitRate?: number | null };

export interface TranscodeOptions {
  /** Seconds to skip (Subsonic timeOffset). */
  offset?: number;
}

export interface TranscodedStream {
  contentType: string;
  suffix: string;
  /** kbps of the output (null for lossless). */
  bitRate: number | null;
  /** Served from a finished cache entry (exact size known, byte ranges possible). */
  cached: boolean;
  /** Exact bytes when finished, else null. */
  size: number | null;
  /** Duration × bit rate: what `estimateContentLength` announces. */
  estimatedSize: number;
  /** The bytes from `start` to `end` inclusive (a range only when `size` is known). */
  open(range?: { start: number; end: number }): Readable;
}

export interface TranscoderOptions {
  /** Cache folder (created; stale partial files from a crash are removed). */
  dir: string;
  /** Concurrent ffmpeg processes; default the number of cores. */
  maxConcurrent?: number;
  /** How long a request waits for a free transcoder; default 5 s. */
  queueTimeoutMs?: number;
  /** An ffmpeg that runs longer is killed; default 15 min. */
  maxRunMs?: number;
  /** Finished entries to keep (read per completion, so a settings change applies at once); default 50. */
  cacheEntries?: () => number | Promise<number>;
}

const FFMPEG_STDERR_MAX = 4000;
const TOUCH_INTERVAL_MS = 60_000;
const CHUNK = 64 * 1024;

/** One running ffmpeg writing `partPath`; readers follow `written`. */
class Job extends EventEmitter {
  readonly key: string;
  readonly partPath: string;
  readonly finalPath: string;
  readonly meta: Omit<TranscodedStream, 'cached' | 'size' | 'open'>;
  written = 0;
  done = false;
  error: Error | null = null;
  /** Shared read handle: each reader keeps its own position (positional reads), valid after rename/unlink. */
  reader: FileHandle | null = null;
  private readers = 0;
  private finished = false;

  constructor(key: string, partPath: string, finalPath: string, meta: Job['meta']) {
    super();
    this.setMaxListeners(0);
    this.key = key;
    this.partPath = partPath;
    this.finalPath = finalPath;
    this.meta = meta;
  }

  attach(): void {
    this.readers++;
  }

  detach(): void {
    this.readers--;
    this.closeIfIdle();
  }

  finish(error: Error | null): void {
    this.done = true;
    this.error = error;
    this.finished = true;
    this.emit('progress');
    this.closeIfIdle();
  }

  private closeIfIdle(): void {
    if (this.finished && this.readers === 0 && this.reader) {
      const r = this.reader;
      this.reader = null;
      void r.close().catch(() => undefined);
    }
  }
}

export class Transcoder {
  readonly dir: string;
  private readonly limiter: Limiter;
  private readonly queueTimeoutMs: number;
  private readonly maxRunMs: number;
  private readonly cacheEntries: () => number | Promise<number>;
  private readonly jobs = new Map<string, Job>();
  private readonly touched = new Map<string, number>();
  private ready: Promise<void> | null = null;
  private pruning: Promise<void> = Promise.resolve();
  /** ffmpeg processes started (tests and metrics: a cache hit starts none). */
  started = 0;

  constructor(options: TranscoderOptions) {
    this.dir = options.dir;
    this.limiter = new Limiter(options.maxConcurrent ?? availableParallelism());
    this.queueTimeoutMs = options.queueTimeoutMs ?? 5000;
    this.maxRunMs = options.maxRunMs ?? 15 * 60_000;
    this.cacheEntries = options.cacheEntries ?? (() => 50);
  }

  get active(): number {
    return this.limiter.active;
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      for (const name of await readdir(this.dir)) if (name.endsWith('.part')) await rm(path.join(this.dir, name), { force: true });
    })();
    return this.ready;
  }

  /**
   * A stream of the track in the target format. Resolves once output has started (or a cached copy
   * exists), so failures before the first byte (unreadable file, bad command, busy) reject here.
   */
  async transcode(source: TranscodeSource, target: TranscodeTarget, options: TranscodeOptions = {}): Promise<TranscodedStream> {
    await this.init();
    const offset = Math.max(0, Math.min(options.offset ?? 0, Math.max(0, source.duration)));
    const { command, bitRate } = this.command(source, target, offset);
    const key = createHash('sha256')
      .update(JSON.stringify([source.id, source.path, source.mtimeMs, source.size, command.args.join('\u0000')]))
      .digest('hex')
      .slice(0, 40);
    const finalPath = path.join(this.dir, `${key}.${command.suffix}`);
    const remaining = Math.max(0, source.duration - offset);
    const estimatedKbps = bitRate ?? (source.bitRate > 0 ? source.bitRate : 1000);
    const meta = { contentType: command.contentType, suffix: command.suffix, bitRate, estimatedSize: Math.max(1, Math.ceil((remaining * estimatedKbps * 1000) / 8)) };

    const running = this.jobs.get(key);
    if (running) return this.follow(running);
    const hit = await stat(finalPath).catch(() => null);
    if (hit?.isFile()) {
      this.touch(finalPath);
      return { ...meta, cached: true, size: hit.size, open: (range) => createReadStream(finalPath, range ? { start: range.start, end: range.end, highWaterMark: CHUNK } : { highWaterMark: CHUNK }) };
    }
    const again = this.jobs.get(key);
    if (again) return this.follow(again);
    const job = new Job(key, path.join(this.dir, `${key}.part`), finalPath, meta);
    // Registered before waiting for a slot, so identical requests queue behind one job.
    this.jobs.set(key, job);
    let release: () => void;
    try {
      release = await this.limiter.acquire(this.queueTimeoutMs);
    } catch (e) {
      this.jobs.delete(key);
      job.finish(e as Error);
      throw e;
    }
    await this.run(job, command, release, remaining);
    return this.follow(job);
  }

  private command(source: TranscodeSource, target: TranscodeTarget, offset: number): { command: Command; bitRate: number | null } {
    if (target.kind === 'profile') {
      const bitRate = bitRateFor(target.profile, target.maxBitRate);
      return { command: profileCommand(target.profile, { path: source.path, offset, bitRate }), bitRate };
    }
    const bitRate = target.maxBitRate && target.maxBitRate > 0 ? Math.round(target.maxBitRate) : 192;
    return { command: templateCommand(target.template, { path: source.path, offset, bitRate }, 192), bitRate };
  }

  private async run(job: Job, command: Command, release: () => void, durationSec: number): Promise<void> {
    let out: ReturnType<typeof createWriteStream>;
    try {
      out = createWriteStream(job.partPath, { mode: 0o600 });
      await new Promise<void>((resolve, reject) => out.once('open', () => resolve()).once('error', reject));
      job.reader = await open(job.partPath, 'r');
    } catch (e) {
      release();
      this.jobs.delete(job.key);
      job.finish(unavailable('TAGSONIC_ERR_TRANSCODE_CACHE', 'The transcode cache folder is not writable.', e));
      throw job.error;
    }
    this.started++;
    const child = spawn(toolPath('ffmpeg'), command.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let killedForTime = false;
    const timer = setTimeout(() => {
      killedForTime = true;
      child.kill('SIGKILL');
    }, this.maxRunMs);
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < FFMPEG_STDERR_MAX) stderr += c.toString();
    });
    child.stdout.on('data', (c: Buffer) => {
      // Backpressure on the file only; readers follow `written` after each chunk lands.
      if (!out.write(c, () => {
        job.written += c.length;
        job.emit('progress');
      })) {
        child.stdout.pause();
        out.once('drain', () => child.stdout.resume());
      }
    });
    const exited = new Promise<{ code: number | null; spawnError: Error | null }>((resolve) => {
      child.once('error', (e) => resolve({ code: null, spawnError: e }));
      child.once('close', (code) => resolve({ code, spawnError: null }));
    });
    const firstOutput = new Promise<void>((resolve) => {
      const check = () => {
        if (job.written > 0 || job.done) {
          job.off('progress', check);
          resolve();
        }
      };
      job.on('progress', check);
    });
    void exited.then(async ({ code, spawnError }) => {
      clearTimeout(timer);
      release();
      await new Promise<void>((resolve) => out.end(resolve));
      let error: Error | null = null;
      if (spawnError) error = unavailable('TAGSONIC_ERR_TRANSCODE_FFMPEG', 'ffmpeg is not available for transcoding.', spawnError);
      else if (killedForTime) error = unavailable('TAGSONIC_ERR_TRANSCODE_TIMEOUT', `Transcoding took longer than ${Math.round(this.maxRunMs / 1000)} s and was stopped.`);
      else if (code !== 0) {
        const why = stderr.trim().split('\n').pop() || `ffmpeg exit ${code}`;
        error = invalid('TAGSONIC_ERR_TRANSCODE_FAILED', `The track could not be transcoded (${why}).`, { durationSec });
      }
      try {
        const keep = error ? 0 : await this.cacheEntries();
        if (keep > 0) await rename(job.partPath, job.finalPath);
        else await unlink(job.partPath);
      } catch (e) {
        error ??= unavailable('TAGSONIC_ERR_TRANSCODE_CACHE', 'The transcoded file could not be stored.', e);
      }
      this.jobs.delete(job.key);
      job.finish(error);
      if (!error) this.schedulePrune();
    });
    await firstOutput;
    if (job.error && job.written === 0) throw job.error;
  }

  /** A stream that follows a job's file until the job is done. */
  private follow(job: Job): Promise<TranscodedStream> {
    return new Promise((resolve, reject) => {
      const ready = () => {
        if (job.written === 0 && !job.done) return;
        job.off('progress', ready);
        if (job.error && job.written === 0) reject(job.error);
        else resolve({ ...job.meta, cached: false, size: job.done && !job.error ? job.written : null, open: () => this.reader(job) });
      };
      job.on('progress', ready);
      ready();
    });
  }

  private reader(job: Job): Readable {
    let position = 0;
    let waiting: (() => void) | null = null;
    let detached = false;
    job.attach();
    const detach = () => {
      if (detached) return;
      detached = true;
      if (waiting) job.off('progress', waiting);
      job.detach();
    };
    const pump = async (size: number): Promise<void> => {
      if (position < job.written && job.reader) {
        const want = Math.min(Math.max(size, CHUNK), job.written - position);
        const buf = Buffer.allocUnsafe(want);
        const { bytesRead } = await job.reader.read(buf, 0, want, position);
        position += bytesRead;
        stream.push(buf.subarray(0, bytesRead));
        return;
      }
      if (job.done) {
        if (job.error) stream.destroy(job.error);
        else stream.push(null);
        return;
      }
      const wake = () => {
        job.off('progress', wake);
        waiting = null;
        pump(size).catch((e: Error) => stream.destroy(e));
      };
      waiting = wake;
      job.on('progress', wake);
    };
    const stream: Readable = new Readable({
      highWaterMark: CHUNK,
      read: (size) => {
        pump(size).catch((e: Error) => stream.destroy(e));
      },
      destroy: (err, cb) => {
        detach();
        cb(err);
      },
    });
    stream.on('end', detach);
    return stream;
  }

  /** Refreshes an entry's mtime (the LRU clock), at most once a minute per entry. */
  private touch(file: string): void {
    const now = Date.now();
    if (now - (this.touched.get(file) ?? 0) < TOUCH_INTERVAL_MS) return;
    this.touched.set(file, now);
    if (this.touched.size > 10_000) this.touched.clear();
    const t = new Date(now);
    void utimes(file, t, t).catch(() => undefined);
  }

  private schedulePrune(): void {
    this.pruning = this.pruning.then(() => this.prune()).catch(() => undefined);
  }

  /** Drops the least recently used entries beyond the configured count. */
  async prune(): Promise<void> {
    const keep = await this.cacheEntries();
    const names = (await readdir(this.dir)).filter((n) => !n.endsWith('.part'));
    if (names.length <= keep) return;
    const entries = await Promise.all(
      names.map(async (n) => {
        const s = await stat(path.join(this.dir, n)).catch(() => null);
        return { n, t: s?.mtimeMs ?? 0 };
      }),
    );
    entries.sort((a, b) => b.t - a.t);
    for (const e of entries.slice(keep)) await rm(path.join(this.dir, e.n), { force: true });
  }

  /** Waits for pending cache maintenance (tests). */
  async settle(): Promise<void> {
    await this.pruning;
  }
}
