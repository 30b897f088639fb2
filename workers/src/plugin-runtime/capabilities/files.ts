/**
 * `caps.files`: list, stat, move, copy and delete inside the media roots. Every path goes through
 * MediaRoots.resolve on every call (lexical check for `..` and look-alikes, then the real path, so a symlink
 * out of the roots is refused), and a listing leaves out entries whose real path is outside. The write half
 * exists only with `files: write`, and re-checks the grant on each call.
 */
import { copyFile, lstat, mkdir, readdir, rename, stat, unlink, constants } from 'node:fs/promises';
import path from 'node:path';
import type { MediaRoots } from '@tagsonic/core/media';
import { TagsonicError } from '@tagsonic/core/errors';
import type { HostFunction } from '../../plugin-host/index.ts';
import { asPluginError, CONFLICT, denied, invalidArgument, limit, optionsOf, stringField } from './args.ts';

/** A listing longer than this is refused rather than cut silently (a plugin should walk subfolders). */
export const MAX_LIST_ENTRIES = 10_000;

export interface FileEntryJson {
  name: string;
  path: string;
  type: 'file' | 'directory';
  size: number;
  modifiedAt: string;
}

export function filesCapability(roots: MediaRoots, access: 'read' | 'write'): Record<string, HostFunction> {
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
    list: guarded(async (options) => {
      const dir = await roots.resolve(stringField(options, 'path', 'files.list'));
      const names = await readdir(dir.path, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOTDIR') throw invalidArgument(`files.list: not a folder: ${String(options.path)}`);
        throw error;
      });
      if (names.length > MAX_LIST_ENTRIES) throw limit(`files.list: the folder has more than ${MAX_LIST_ENTRIES} entries`);
      // Each entry resolved on its own so a symlink pointing out of the roots is left out, not followed; all at
      // once, so a folder's thousands of realpath/stat calls overlap instead of waiting on each other.
      const entries = (await Promise.all(names.map(async (dirent) => {
        const full = path.join(dir.path, dirent.name);
        const inside = await roots.resolve(full).catch(() => null);
        return inside ? entryOf(inside.path, full) : null;
      }))).filter((entry): entry is FileEntryJson => entry !== null);
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return { entries };
    }, 'files.list'),
    stat: guarded(async (options) => {
      const target = await roots.resolve(stringField(options, 'path', 'files.stat'), { mustExist: false });
      return target.exists ? entryOf(target.path, target.path) : null;
    }, 'files.stat'),
  };
  if (access !== 'write') return read;

  const transfer = (what: 'files.move' | 'files.copy') => guarded(async (options) => {
    const from = await roots.resolve(stringField(options, 'from', what));
    const to = await roots.resolve(stringField(options, 'to', what), { mustExist: false });
    const overwrite = options.overwrite === true;
    if ((await lstat(from.path)).isDirectory()) throw invalidArgument(`${what}: only files can be moved or copied, ${String(options.from)} is a folder`);
    if (from.path === to.path) return { path: to.path };
    if (to.exists) {
      if (!overwrite) throw new TagsonicError('conflict', CONFLICT, `${what}: ${String(options.to)} already exists`);
      if ((await lstat(to.path)).isDirectory()) throw invalidArgument(`${what}: ${String(options.to)} is a folder`);
    }
    await mkdir(path.dirname(to.path), { recursive: true });
    if (what === 'files.copy') {
      await copyFile(from.path, to.path, overwrite ? 0 : constants.COPYFILE_EXCL);
    } else if (!overwrite && (await exists(to.path))) {
      throw new TagsonicError('conflict', CONFLICT, `${what}: ${String(options.to)} already exists`);
    } else {
      try {
        await rename(from.path, to.path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        // Another file system (e.g. media → download on separate volumes): copy, then remove the original.
        await copyFile(from.path, to.path, overwrite ? 0 : constants.COPYFILE_EXCL);
        await unlink(from.path);
      }
    }
    return { path: to.path };
  }, what, true);

  return {
    ...read,
    move: transfer('files.move'),
    copy: transfer('files.copy'),
    delete: guarded(async (options) => {
      const target = await roots.resolve(stringField(options, 'path', 'files.delete'));
      if (target.path === target.root.dir) throw denied('files.delete: a media folder itself cannot be deleted');
      if ((await lstat(target.path)).isDirectory()) throw invalidArgument(`files.delete: only files can be deleted, ${String(options.path)} is a folder`);
      await unlink(target.path);
      return { path: target.path };
    }, 'files.delete', true),
  };
}

async function entryOf(real: string, shown: string): Promise<FileEntryJson | null> {
  const info = await stat(real).catch(() => null);
  if (!info || !(info.isFile() || info.isDirectory())) return null;
  return {
    name: path.basename(shown),
    path: shown,
    type: info.isDirectory() ? 'directory' : 'file',
    size: info.isDirectory() ? 0 : info.size,
    modifiedAt: info.mtime.toISOString(),
  };
}

async function exists(p: string): Promise<boolean> {
  return lstat(p).then(() => true, () => false);
}
