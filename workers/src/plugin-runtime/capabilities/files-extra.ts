/**
 * `caps.files.hash` and `caps.files.removeDir`: what the file batch actions need beyond list/stat/move/copy/
 * delete. `hash` (read half) streams a file through SHA-256, so a duplicate check never holds a file in memory
 * nor ships its bytes into the sandbox. `removeDir` (write half) removes one EMPTY folder, never a media folder
 * itself: deleting what is inside stays `files.delete`'s job, file by file, so a folder's files are never removed
 * behind the host's back. Paths go through MediaRoots.resolve on every call like the rest of `caps.files`.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, rmdir } from 'node:fs/promises';
import { TagsonicError } from '@tagsonic/core/errors';
import type { MediaRoots } from '@tagsonic/core/media';
import type { HostFunction } from '../../plugin-host/index.ts';
import { asPluginError, CONFLICT, denied, invalidArgument, optionsOf, stringField } from './args.ts';

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
      const hash = createHash('sha256');
      // 1 MiB reads: a 10k-file library is hashed at disk speed, with at most one buffer per call in memory.
      for await (const chunk of createReadStream(target.path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
      return { path: target.path, sha256: hash.digest('hex'), size: info.size };
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
