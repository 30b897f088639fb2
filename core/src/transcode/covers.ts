/**
 * Cover pictures for Subsonic getCoverArt: the original bytes, or scaled down with ffmpeg to a JPEG
 * whose longer side is `size`. Scaled pictures are kept on disk (least recently used go first once
 * the folder exceeds `maxBytes`) and the hottest ones in memory; a default cover is drawn once when an
 * item has no picture.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { toJpeg } from '../files/images.ts';
import { sniffImage } from '../tags/image-info.ts';
import { unavailable } from '../errors/errors.ts';
import { toolPath } from '../tools.ts';

export interface CoverSource {
  /** Identifies the picture's bytes: path + mtime + size of the file holding it. */
  key: string;
  /** The picture's bytes; null when it is gone. */
  load(): Promise<Uint8Array | null>;
}

export interface CoverImage {
  data: Buffer;
  contentType: string;
  /** Strong validator of these bytes (quoted, as sent in ETag). */
  etag: string;
}

export interface CoverCacheOptions {
  dir: string;
  /** Disk budget for scaled pictures; default 256 MiB. */
  maxBytes?: number;
  /** Memory budget for the hottest pictures; default 32 MiB. */
  memoryBytes?: number;
}

/** Larger requests are served at this size (no client shows covers bigger). */
export const MAX_COVER_SIZE = 2048;
const DEFAULT_COVER_SIDE = 600;
const TOUCH_INTERVAL_MS = 60_000;

interface DiskEntry {
  bytes: number;
  used: number;
}

export class CoverCache {
  readonly dir: string;
  private readonly maxBytes: number;
  private readonly memoryBytes: number;
  private readonly disk = new Map<string, DiskEntry>();
  private diskTotal = 0;
  /** Insertion order = recency (re-inserted on hit). */
  private readonly memory = new Map<string, CoverImage>();
  private memoryTotal = 0;
  private readonly inflight = new Map<string, Promise<CoverImage | null>>();
  private ready: Promise<void> | null = null;
  private defaultPicture: Promise<Uint8Array> | null = null;
  /** Pictures scaled by ffmpeg (tests: a cache hit scales none). */
  scaled = 0;

  constructor(options: CoverCacheOptions) {
    this.dir = options.dir;
    this.maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
    this.memoryBytes = options.memoryBytes ?? 32 * 1024 * 1024;
  }

  /** Bytes of scaled pictures on disk. */
  get diskBytes(): number {
    return this.diskTotal;
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      for (const name of await readdir(this.dir)) {
        if (!name.endsWith('.jpg')) {
          await rm(path.join(this.dir, name), { force: true });
          continue;
        }
        const s = await stat(path.join(this.dir, name)).catch(() => null);
        if (!s) continue;
        this.disk.set(name, { bytes: s.size, used: s.mtimeMs });
        this.diskTotal += s.size;
      }
      await this.pruneDisk();
    })();
    return this.ready;
  }

  /** The picture, scaled when `size` is given (never enlarged); null when the source has none. */
  async get(source: CoverSource, size: number | null): Promise<CoverImage | null> {
    const side = size === null ? null : Math.max(1, Math.min(MAX_COVER_SIZE, Math.trunc(size)));
    const id = createHash('sha1').update(`${source.key}\u0000${side ?? 'original'}`).digest('hex');
    const hot = this.memory.get(id);
    if (hot) {
      this.memory.delete(id);
      this.memory.set(id, hot);
      if (side !== null) this.touch(`${id}.jpg`);
      return hot;
    }
    let pending = this.inflight.get(id);
    if (!pending) {
      pending = this.produce(id, source, side).finally(() => this.inflight.delete(id));
      this.inflight.set(id, pending);
    }
    return pending;
  }

  /** The default cover (a soft gradient), scaled like any other. */
  async defaultCover(size: number | null): Promise<CoverImage> {
    this.defaultPicture ??= drawDefault().catch((e) => {
      this.defaultPicture = null;
      throw e;
    });
    const picture = await this.defaultPicture;
    const image = await this.get({ key: 'tagsonic:default-cover:v1', load: async () => picture }, size);
    return image!;
  }

  private async produce(id: string, source: CoverSource, side: number | null): Promise<CoverImage | null> {
    await this.init();
    const etag = `"${id.slice(0, 24)}"`;
    if (side !== null) {
      const name = `${id}.jpg`;
      if (this.disk.has(name)) {
        const data = await readFile(path.join(this.dir, name)).catch(() => null);
        if (data) {
          this.touch(name);
          return this.remember(id, { data, contentType: 'image/jpeg', etag });
        }
        this.forget(name);
      }
    }
    const original = await source.load();
    if (!original || original.byteLength === 0) return null;
    if (side === null) {
      const mime = sniffImage(original)?.mime ?? 'application/octet-stream';
      return this.remember(id, { data: Buffer.from(original), contentType: mime, etag });
    }
    this.scaled++;
    const data = Buffer.from(await toJpeg(original, { maxSide: side }));
    const name = `${id}.jpg`;
    // A cache entry needs no fsync: a torn file after a crash is removed at start (wrong suffix) or rescaled.
    const tmp = path.join(this.dir, `.${name}.${process.pid}.tmp`);
    await writeFile(tmp, data, { mode: 0o600 });
    await rename(tmp, path.join(this.dir, name));
    this.disk.set(name, { bytes: data.length, used: Date.now() });
    this.diskTotal += data.length;
    await this.pruneDisk();
    return this.remember(id, { data, contentType: 'image/jpeg', etag });
  }

  private remember(id: string, image: CoverImage): CoverImage {
    if (image.data.length > this.memoryBytes / 4) return image;
    this.memory.set(id, image);
    this.memoryTotal += image.data.length;
    for (const [k, v] of this.memory) {
      if (this.memoryTotal <= this.memoryBytes) break;
      this.memory.delete(k);
      this.memoryTotal -= v.data.length;
    }
    return image;
  }

  private touch(name: string): void {
    const e = this.disk.get(name);
    if (!e) return;
    const now = Date.now();
    if (now - e.used < TOUCH_INTERVAL_MS) return;
    e.used = now;
    // The file's mtime carries recency across restarts.
    const t = new Date(now);
    void utimes(path.join(this.dir, name), t, t).catch(() => undefined);
  }

  private forget(name: string): void {
    const e = this.disk.get(name);
    if (!e) return;
    this.disk.delete(name);
    this.diskTotal -= e.bytes;
  }

  private async pruneDisk(): Promise<void> {
    if (this.diskTotal <= this.maxBytes) return;
    const oldest = [...this.disk].sort((a, b) => a[1].used - b[1].used);
    for (const [name] of oldest) {
      if (this.diskTotal <= this.maxBytes) break;
      this.forget(name);
      await rm(path.join(this.dir, name), { force: true });
    }
  }
}

/** A 600×600 gradient JPEG drawn by ffmpeg's lavfi source (no input file, no network). */
function drawDefault(): Promise<Uint8Array> {
  const s = DEFAULT_COVER_SIDE;
  const args = [
    '-hide_banner', '-loglevel', 'error', '-nostdin', '-protocol_whitelist', 'pipe',
    '-f', 'lavfi', '-i', `gradients=s=${s}x${s}:c0=0x2c3e50:c1=0x4ca1af:x0=0:y0=0:x1=${s}:y1=${s}:nb_colors=2`,
    '-frames:v', '1', '-pix_fmt', 'yuvj420p', '-q:v', '3', '-f', 'mjpeg', 'pipe:1',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath('ffmpeg'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.resume();
    child.once('error', (e) => reject(unavailable('TAGSONIC_ERR_COVER_FFMPEG', 'ffmpeg is not available to draw the default cover.', e)));
    child.once('close', (code) => {
      const data = Buffer.concat(chunks);
      if (code === 0 && sniffImage(data)?.mime === 'image/jpeg') resolve(new Uint8Array(data));
      else reject(unavailable('TAGSONIC_ERR_COVER_FFMPEG', `ffmpeg could not draw the default cover (exit ${code}).`));
    });
  });
}
