/**
 * music-metadata's tokenizers: one for files, which reads in 64 KiB blocks and keeps them while one file
 * is parsed, and one for bytes in memory. music-metadata asks for many small pieces (frame headers, atom
 * headers, tag fields); strtok3's own file tokenizer turns each into a separate `read()` system call and
 * promise, which cost more CPU than the parsing itself. Big reads (covers, long tags) go straight to the
 * file. Both hand out small tokens as views of a shared slab (see `tokenBytes`).
 *
 * How the file is reached is a `FileAccess`: promises on a thread that must never block (`openAsync`),
 * or, on a reader thread, blocking open/stat/close — the inode is cached by then (the scan's walk has
 * just stat'ed it), so they take microseconds, while a promise and a thread-pool hop each cost tens — and
 * reads that block or overlap depending on how fast the disk answers (`openForReader`).
 */
import { closeSync, constants, fstatSync, openSync, read as readCallback, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { AbstractTokenizer, EndOfStreamError, type IGetToken, type IReadChunkOptions } from 'strtok3';
import { StringType, Uint8ArrayType } from 'token-types';
import { MAX_READ_BYTES, MAX_TAG_BYTES, MAX_TAG_ITEMS, readTooLarge, tooManyItems } from './bounds.ts';
import type { Segment } from './tag-cuts.ts';

const BLOCK = 64 * 1024;
const DIRECT = 4 * BLOCK;
/** Upper bound on what one parse keeps in memory. */
const MAX_BLOCKS = 64;
/**
 * Blocks of finished parses, for the next ones: a new 64 KiB buffer is allocated and zero-filled, and a
 * scan parses thousands of files, most of them needing one or two blocks.
 */
const freeBlocks: ArrayBuffer[] = [];
const MAX_FREE_BLOCKS = 64;

/** An open regular file. */
export interface FileAccess {
  readonly size: number;
  /** Like `read(2)` at a position: fewer bytes than asked only at the end of the file. */
  readAt(target: Uint8Array, offset: number, length: number, position: number): Promise<number>;
  close(): Promise<void>;
}

/** Tokens up to this length are read into slab bytes (`tokenBytes`); longer ones the way strtok3 reads them. */
const SMALL_TOKEN = 1024;
const SLAB = 64 * 1024;
let slab = new ArrayBuffer(SLAB);
let slabUsed = 0;

/**
 * Fresh bytes for one token, cut from a shared slab (no byte is handed out twice, so a token that keeps
 * a view of its bytes keeps them to itself). strtok3 reads each token into a new Uint8Array, and
 * token-types reads it through `new DataView(array.buffer)`: a new ArrayBuffer for every token (for a
 * small array V8 makes it on that first `.buffer`), about 1 µs each — a sixth of an M4A parse. A view of
 * a slab has its ArrayBuffer already.
 */
function tokenBytes(length: number): Uint8Array {
  if (slabUsed + length > SLAB) {
    slab = new ArrayBuffer(SLAB);
    slabUsed = 0;
  }
  const bytes = new Uint8Array(slab, slabUsed, length);
  slabUsed += length;
  return bytes;
}

/** A token `tokenBytes` serves: small, and wholly inside the file (anything else takes strtok3's checks). */
const isSmallToken = (length: number, position: number, size: number): boolean =>
  Number.isInteger(length) && length >= 0 && length <= SMALL_TOKEN && Number.isInteger(position) && position >= 0 && position + length <= size;

/**
 * `file` as a parser should see it when parts of its tag are left out (tag-cuts.ts): the segments
 * one after another, bytes in memory or ranges of the file. Closing it closes the file.
 */
export function splicedAccess(file: FileAccess, segments: readonly Segment[]): FileAccess {
  const starts: number[] = [];
  let size = 0;
  for (const s of segments) {
    starts.push(size);
    size += 'bytes' in s ? s.bytes.length : s.length;
  }
  return {
    size,
    close: () => file.close(),
    readAt: async (target, offset, length, position) => {
      let n = 0;
      for (let i = 0; i < segments.length && n < length; i++) {
        const s = segments[i]!;
        const start = starts[i]!;
        const segmentLength = 'bytes' in s ? s.bytes.length : s.length;
        const at = position + n;
        if (at >= start + segmentLength || at < start) continue;
        const take = Math.min(length - n, start + segmentLength - at);
        if ('bytes' in s) {
          target.set(s.bytes.subarray(at - start, at - start + take), offset + n);
          n += take;
          continue;
        }
        const got = await file.readAt(target, offset + n, take, s.position + (at - start));
        n += got;
        if (got < take) break; // the file is shorter than it was
      }
      return n;
    },
  };
}

/** The file is not a regular file (a folder, a FIFO…); it has been closed again. */
export class NotRegularFile extends Error {}

// O_NONBLOCK: opening a FIFO named like a song must not wait for a writer.
const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

export async function openAsync(path: string): Promise<FileAccess> {
  const file = await open(path, FLAGS);
  try {
    const st = await file.stat();
    if (!st.isFile()) throw new NotRegularFile(path);
    return {
      size: st.size,
      readAt: async (target, offset, length, position) => (await file.read(target, offset, length, position)).bytesRead,
      close: () => file.close(),
    };
  } catch (err) {
    await file.close();
    throw err;
  }
}

/**
 * How a reader thread reads: blocking reads while the page cache answers them (a read then costs a few
 * microseconds, a promise and a thread-pool hop cost tens), overlapping asynchronous reads once blocking
 * reads take long, which means the disk is doing the work and the thread should parse other files in the
 * meantime. While overlapping, one read in `PROBE_EVERY` still blocks, to notice when the cache is back.
 */
const SLOW_READ_MS = 2;
const PROBE_EVERY = 16;
let blockingReadMs = 0;
let reads = 0;

function readWithLatency(fd: number, target: Uint8Array, offset: number, length: number, position: number): Promise<number> | number {
  reads++;
  if (blockingReadMs < SLOW_READ_MS || reads % PROBE_EVERY === 0) {
    const started = performance.now();
    const n = readSync(fd, target, offset, length, position);
    blockingReadMs = blockingReadMs * 0.9 + (performance.now() - started) * 0.1;
    return n;
  }
  return new Promise((resolve, reject) => readCallback(fd, target, offset, length, position, (err, n) => (err ? reject(err) : resolve(n))));
}

export async function openForReader(path: string): Promise<FileAccess> {
  const fd = openSync(path, FLAGS);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new NotRegularFile(path);
    let closed = false;
    return {
      size: st.size,
      readAt: async (target, offset, length, position) => readWithLatency(fd, target, offset, length, position),
      close: async () => {
        if (closed) return;
        closed = true;
        closeSync(fd);
      },
    };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/**
 * What our tokenizers share: random access; small tokens in slab bytes (`tokenBytes`); and reads of bytes
 * already in memory copied without a promise, which would cost more than the copy. Anything unusual
 * (a long or invalid token) takes strtok3's way, with its checks and errors. After a short read the
 * position moves past what was read, as with strtok3's file tokenizer (its buffer tokenizer leaves it),
 * so a file parses the same from memory as from disk.
 */
export abstract class SlabTokenizer extends AbstractTokenizer {
  readonly fileInfo: { size: number; path: string };

  protected constructor(size: number, path: string) {
    super({});
    this.fileInfo = { size, path };
  }

  /** Copies the bytes at `position` when all of them are in memory: how many (fewer only at the end), or null. */
  protected abstract inMemory(target: Uint8Array, position: number, length: number): number | null;

  /** Copies the bytes at `position` when `inMemory` could not: how many (fewer only at the end). */
  protected abstract fetch(target: Uint8Array, position: number, length: number): Promise<number>;

  override supportsRandomAccess(): boolean {
    return true;
  }

  setPosition(position: number): void {
    this.position = position;
  }

  /** Bytes and pieces of tags read so far (see `#bounded`). */
  #tagBytes = 0;
  #tagItems = 0;

  /**
   * What a read may take (bounds.ts). Parsers read a tag or tag item whole — as raw bytes, a string or
   * an MP4 data atom (an ID3v2 tag, a WAV/AIFF `id3 ` chunk, a FLAC metadata block, an MP4 item) — and
   * a hostile file can claim hundreds of megabytes for one, or hold any number of them: one may take
   * `MAX_TAG_BYTES`, all of a parse's together `MAX_READ_BYTES`, and there may be `MAX_TAG_ITEMS` of
   * them. Anything else (MP4 sample tables, buffers) may take `MAX_READ_BYTES` at once.
   */
  #bounded(length: number, token?: IGetToken<unknown>, consumed = false): void {
    const path = this.fileInfo.path;
    const tag = token instanceof Uint8ArrayType || token instanceof StringType || token?.constructor.name === 'DataAtom';
    if (!tag) {
      if (length > MAX_READ_BYTES) throw readTooLarge(path, length, 'block');
      return;
    }
    if (length > MAX_TAG_BYTES) throw readTooLarge(path, length, 'tag');
    if (!consumed) return;
    this.#tagBytes += length;
    if (this.#tagBytes > MAX_READ_BYTES) throw readTooLarge(path, this.#tagBytes, 'tags');
    if (++this.#tagItems > MAX_TAG_ITEMS) throw tooManyItems(path, this.#tagItems, MAX_TAG_ITEMS);
  }

  override async readBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const o = this.normalizeOptions(target, options);
    this.#bounded(o.length);
    const n = this.inMemory(target, o.position, o.length) ?? (await this.fetch(target, o.position, o.length));
    this.position = o.position + n;
    if (!o.mayBeLess && n < o.length) throw new EndOfStreamError();
    return n;
  }

  override async peekBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const o = this.normalizeOptions(target, options);
    this.#bounded(o.length);
    const n = this.inMemory(target, o.position, o.length) ?? (await this.fetch(target, o.position, o.length));
    if (!o.mayBeLess && n < o.length) throw new EndOfStreamError();
    return n;
  }

  override async readToken<V>(token: IGetToken<V>, position = this.position): Promise<V> {
    this.#bounded(token.len, token, true);
    if (!isSmallToken(token.len, position, this.fileInfo.size)) return super.readToken(token, position);
    const bytes = tokenBytes(token.len);
    if (this.inMemory(bytes, position, token.len) !== null) this.position = position + token.len;
    else await this.readBuffer(bytes, { position });
    return token.get(bytes, 0);
  }

  override async peekToken<V>(token: IGetToken<V>, position = this.position): Promise<V> {
    this.#bounded(token.len, token);
    if (!isSmallToken(token.len, position, this.fileInfo.size)) return super.peekToken(token, position);
    const bytes = tokenBytes(token.len);
    if (this.inMemory(bytes, position, token.len) === null) await this.peekBuffer(bytes, { position });
    return token.get(bytes, 0);
  }
}

/**
 * music-metadata's tokenizer over bytes in memory (strtok3's `fromBuffer`, with our reads): the safe
 * write parses each file it replaces, and what it wrote, from memory.
 */
export class MemoryTokenizer extends SlabTokenizer {
  readonly #data: Uint8Array;

  constructor(data: Uint8Array, path: string) {
    super(data.length, path);
    this.#data = data;
  }

  protected override inMemory(target: Uint8Array, position: number, length: number): number {
    const end = Math.min(position + length, this.#data.length);
    if (end <= position) return 0;
    target.set(this.#data.subarray(position, end));
    return end - position;
  }

  protected override fetch(target: Uint8Array, position: number, length: number): Promise<number> {
    return Promise.resolve(this.inMemory(target, position, length));
  }
}

export class BlockFileTokenizer extends SlabTokenizer {
  readonly #file: FileAccess;
  readonly #blocks = new Map<number, Uint8Array>();

  constructor(file: FileAccess, path: string) {
    super(file.size, path);
    this.#file = file;
  }

  override async closeOnce(): Promise<void> {
    this.releaseBlocks();
    await this.#file.close();
    await super.closeOnce();
  }

  /** Reads within the 64 KiB blocks read so far (most are); null when a block is missing (`fetch` then does it all). */
  protected override inMemory(target: Uint8Array, position: number, length: number): number | null {
    const end = Math.min(position + length, this.fileInfo.size);
    if (end - position >= DIRECT) return null;
    const n = this.#copyFromBlocks(target, 0, position, end);
    return position + n >= end ? n : null;
  }

  /** Copies what the blocks in memory hold of [position, end) to `target` at `offset`; the bytes copied. */
  #copyFromBlocks(target: Uint8Array, offset: number, position: number, end: number): number {
    let n = 0;
    while (position + n < end) {
      const at = position + n;
      const index = Math.floor(at / BLOCK);
      const block = this.#blocks.get(index);
      const from = at - index * BLOCK;
      const take = block ? Math.min(block.length - from, end - at) : 0;
      if (take <= 0) break;
      target.set(block!.subarray(from, from + take), offset + n);
      n += take;
    }
    return n;
  }

  protected override async fetch(target: Uint8Array, position: number, length: number): Promise<number> {
    const end = Math.min(position + length, this.fileInfo.size);
    if (end <= position) return 0;
    if (end - position >= DIRECT) return this.#readAt(target, 0, end - position, position);
    let n = 0;
    for (;;) {
      n += this.#copyFromBlocks(target, n, position + n, end);
      const index = Math.floor((position + n) / BLOCK);
      // Done, or a block shorter than the file said (it shrank while being read).
      if (position + n >= end || this.#blocks.has(index)) return n;
      await this.#block(index);
    }
  }

  async #block(index: number): Promise<Uint8Array> {
    if (this.#blocks.size >= MAX_BLOCKS) this.releaseBlocks();
    const buffer = new Uint8Array(freeBlocks.pop() ?? new ArrayBuffer(BLOCK), 0, Math.min(BLOCK, this.fileInfo.size - index * BLOCK));
    const got = await this.#readAt(buffer, 0, buffer.length, index * BLOCK);
    const block = buffer.subarray(0, got);
    this.#blocks.set(index, block);
    return block;
  }

  /**
   * Blocks never leave the tokenizer (reads copy out of them), so another parse may have them. Also
   * for a tokenizer that is dropped without closing its file (the reader then reads it spliced).
   */
  releaseBlocks(): void {
    for (const block of this.#blocks.values()) if (freeBlocks.length < MAX_FREE_BLOCKS) freeBlocks.push(block.buffer as ArrayBuffer);
    this.#blocks.clear();
  }

  async #readAt(target: Uint8Array, offset: number, length: number, position: number): Promise<number> {
    let n = 0;
    while (n < length) {
      const got = await this.#file.readAt(target, offset + n, length - n, position + n);
      if (got === 0) break;
      n += got;
    }
    return n;
  }
}
