/**
 * Where deleted files go first. A delete from a task report is a journaled move (core/tags `moveTrack`) into
 * `<media root>/.tagsonic-trash/<task id>/<path inside the root>`: inside the same root, so it is one atomic
 * rename on the same file system (data/ is often another volume, where a rename cannot go and a copy could be
 * cut half-way), and undoing the task moves the files back. Hidden folders are left out of the file tree and the
 * library scan. `emptyTrash` removes a task's trash folder once it is older than the retention.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { MediaRoots } from '../media/index.ts';

export const TRASH_DIR = '.tagsonic-trash';
/** Deleted files are kept this long (undoable) before the trash is emptied. */
export const TRASH_RETENTION_MS = 30 * 24 * 3600_000;

/** The trash path of `file` (a real path inside the roots) for a delete made by task `taskId`. */
export function trashPathFor(roots: MediaRoots, file: string, taskId: string): string {
  const root = roots.rootOf(file);
  if (!root) throw new Error(`${file} is outside the media roots`);
  return path.join(root.dir, TRASH_DIR, taskId, path.relative(root.dir, file));
}

/** True for a path inside a trash folder (a file already deleted must not be deleted again). */
export const inTrash = (file: string): boolean => file.split(path.sep).includes(TRASH_DIR);

/** Removes the trash folders of tasks older than `maxAgeMs` (by the folder's time); returns what went. */
export async function emptyTrash(roots: MediaRoots, options: { maxAgeMs?: number; now?: number } = {}): Promise<string[]> {
  const maxAge = options.maxAgeMs ?? TRASH_RETENTION_MS;
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  for (const root of roots.roots) {
    const trash = path.join(root.dir, TRASH_DIR);
    const entries = await readdir(trash, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const dir = path.join(trash, entry.name);
      const info = await stat(dir).catch(() => null);
      if (!info || now - info.mtimeMs < maxAge) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    }
  }
  return removed;
}
