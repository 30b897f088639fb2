/**
 * `caps.files.hash` and `caps.files.removeDir`: what the file batch actions need beyond list/stat/move/copy/
 * delete. `hash` (read half) streams a file through SHA-256, so a duplicate check never holds a file in memory
 * nor ships its bytes into the sandbox. `removeDir` (write half) removes one EMPTY folder, never a media folder
 * itself: deleting what is inside stays `files.delete`'s job, file by file, so a folder's files are never removed
 * behind the host's back. Paths go through MediaRoots.resolve on every call like the rest of `caps.files`.
 *
 * `hash({ path, range: 'edges' })` hashes only the first and last EDGE_BYTES of a file (and its size): a cheap
 * first pass of a duplicate check — files of one size whose edges differ cannot be equal, so only those whose edge
 * digests collide need the full hash (as jdupes does with its partial hashes). A file no bigger than both edges is
 * hashed whole and answered `complete: true`, its digest then the full one.
 */
import { createHash } from 'node:crypto';
import { lstat, open, rmdir } from 'node:fs/promises';
import { TagsonicError } from '@tagsonic/core/errors';
import type { MediaRoots } from '@tagsonic/core/media';
import type { HostFunction } from '../../plugin-host/index.ts';
import { asPluginError, CONFLICT, denied, invalidArgument, optionsOf, stringField } from './args.ts';

/** Bytes hashed at each end by `range: 'edges'`: past most tag headers and trailers, one read each. */
export const EDGE_BYTES = 64 * 1024;

export function filesExtraCapability(roots: MediaRoots, access: 'read' | 'write'): Record<string, HostFunction> {
  const guarded = (fn: (options: Record<string, unknown>) => Promise<unknown>, what: string, needsWrite = false): HostFunction =>
    async (args) => {
      if (needsWrite && access !== 'write') throw denied(`${what} needs the files write grant`);
      try {
        return await fn(optionsOf(args, what));
      } catch (error) {
        throw asPluginError(error);
      }
    };

  const read: Record<string, HostFunction> = {
    hash: guarded(async (options) => {
      const target = await roots.resolve(stringField(options, 'path', 'files.hash'));
      const info = await lstat(target.path);
      if (!info.isFile()) throw invalidArgument(`files.hash: only files can be hashed, ${String(options.path)} is not a file`);
      const range = options.range ?? 'full';
      if (range !== 'full' && range !== 'edges') throw invalidArgument(`files.hash: range must be 'full' or 'edges', not ${JSON.stringify(range)}`);
      if (range === 'edges' && info.size > 2 * EDGE_BYTES) {
        return { path: target.path, sha256: await edgesDigest(target.path, info.size), size: info.size, complete: false };
      }
      return { path: target.path, sha256: await fullDigest(target.path), size: info.size, complete: true };
    }, 'files.hash'),
  };
  if (access !== 'write') return read;

  return {
    ...read,
    removeDir: guarded(async (options) => {
      const target = await roots.resolve(stringField(options, 'path', 'files.removeDir'));
      if (target.path === target.root.dir) throw denied('files.removeDir: a media folder itself cannot be removed');
      if (!(await lstat(target.path)).isDirectory()) throw invalidArgument(`files.removeDir: ${String(options.path)} is not a folder`);
      try {
        await rmdir(target.path);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTEMPTY' || code === 'EEXIST') {
          throw new TagsonicError('conflict', CONFLICT, `files.removeDir: ${String(options.path)} is not empty`);
        }
        throw error;
      }
      return { path: target.path };
    }, 'files.removeDir', true),
  };
}

/** Read buffers: 256 KiB each (≥ both edges), kept for reuse — a duplicate check hashes thousands of files, and a
 * fresh 1 MiB stream buffer per file was most of its garbage (GC ~15 % of the worker's thread). */
const READ_BYTES = 256 * 1024;
const SPARE_BUFFERS = 16;
const spare: Buffer[] = [];

async function withBuffer<T>(fn: (buffer: Buffer) => Promise<T>): Promise<T> {
  const buffer = spare.pop() ?? Buffer.allocUnsafeSlow(READ_BYTES);
  try {
    return await fn(buffer);
  } finally {
    if (spare.length < SPARE_BUFFERS) spare.push(buffer);
  }
}

/** SHA-256 of a whole file: sequential 256 KiB reads into a reused buffer, at disk speed. */
export async function fullDigest(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    return await withBuffer(async (buffer) => {
      const hash = createHash('sha256');
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        hash.update(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
      }
      return hash.digest('hex');
    });
  } finally {
    await handle.close();
  }
}

/** SHA-256 over the size (8 bytes) and the first and last EDGE_BYTES of a file larger than both edges. */
export async function edgesDigest(file: string, size: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    return await withBuffer(async (scratch) => {
      const hash = createHash('sha256');
      const head = Buffer.allocUnsafe(8);
      head.writeBigUInt64BE(BigInt(size));
      hash.update(head);
      const buffer = scratch.subarray(0, EDGE_BYTES);
      for (const position of [0, size - EDGE_BYTES]) {
        let filled = 0;
        while (filled < EDGE_BYTES) {
          const { bytesRead } = await handle.read(buffer, filled, EDGE_BYTES - filled, position + filled);
          if (bytesRead === 0) break; // truncated since the lstat: the digest simply differs
          filled += bytesRead;
        }
        hash.update(buffer.subarray(0, filled));
      }
      return hash.digest('hex');
    });
  } finally {
    await handle.close();
  }
}
