/**
 * A file tokenizer for music-metadata that reads in 64 KiB blocks and keeps them while one file is
 * parsed. music-metadata asks for many small pieces (frame headers, atom headers, tag fields); strtok3's
 * own file tokenizer turns each into a separate `read()` system call and promise, which cost more CPU
 * than the parsing itself. Big reads (covers, long tags) go straight to the file.
 */
import type { FileHandle } from 'node:fs/promises';
import { EndOfStreamError, FileTokenizer, type IReadChunkOptions } from 'strtok3';

const BLOCK = 64 * 1024;
const DIRECT = 4 * BLOCK;
/** Upper bound on what one parse keeps in memory. */
const MAX_BLOCKS = 64;

export class BlockFileTokenizer extends FileTokenizer {
  readonly #file: FileHandle;
  readonly #blocks = new Map<number, Uint8Array>();

  constructor(file: FileHandle, size: number, path: string) {
    super(file, { fileInfo: { size, path } });
    this.#file = file;
  }

  override async readBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const o = this.normalizeOptions(target, options);
    this.position = o.position;
    const n = await this.#copy(target, o.position, o.length);
    this.position += n;
    if (!o.mayBeLess && n < o.length) throw new EndOfStreamError();
    return n;
  }

  override async peekBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const o = this.normalizeOptions(target, options);
    const n = await this.#copy(target, o.position, o.length);
    if (!o.mayBeLess && n < o.length) throw new EndOfStreamError();
    return n;
  }

  async #copy(target: Uint8Array, position: number, length: number): Promise<number> {
    const end = Math.min(position + length, this.fileInfo.size);
    if (end <= position) return 0;
    if (end - position >= DIRECT) return this.#readAt(target, 0, end - position, position);
    let n = 0;
    while (position + n < end) {
      const at = position + n;
      const index = Math.floor(at / BLOCK);
      const block = await this.#block(index);
      const offset = at - index * BLOCK;
      const take = Math.min(block.length - offset, end - at);
      if (take <= 0) break;
      target.set(block.subarray(offset, offset + take), n);
      n += take;
    }
    return n;
  }

  async #block(index: number): Promise<Uint8Array> {
    const cached = this.#blocks.get(index);
    if (cached) return cached;
    if (this.#blocks.size >= MAX_BLOCKS) this.#blocks.clear();
    const buffer = new Uint8Array(Math.min(BLOCK, this.fileInfo.size - index * BLOCK));
    const got = await this.#readAt(buffer, 0, buffer.length, index * BLOCK);
    const block = buffer.subarray(0, got);
    this.#blocks.set(index, block);
    return block;
  }

  async #readAt(target: Uint8Array, offset: number, length: number, position: number): Promise<number> {
    let n = 0;
    while (n < length) {
      const { bytesRead } = await this.#file.read(target, offset + n, length - n, position + n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    return n;
  }
}
