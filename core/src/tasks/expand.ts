/**
 * The host's default expansion of a batch selection into task items, for batch actions without a `plan`: each
 * selected audio file is one item, each selected folder contributes the audio files under it at every depth
 * (the file tree's "checking a node also checks its children"; depth 1 takes only the files directly inside, as
 * the file list's depth rule), in path order, each file once. Everything is
 * confined to the media roots: a selected path outside them is refused, and a symlink met while walking is
 * followed only when its real path stays inside the roots (never into a folder already being walked).
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { MediaRoots } from '../media/index.ts';
import { isAudioName } from '../files/icons.ts';
import { invalid } from '../errors/index.ts';

/** A selection expanding to more files than this is refused with TAGSONIC_ERR_TASK_TOO_MANY_ITEMS. */
export const MAX_TASK_ITEMS = 100_000;

export interface ExpandedItem {
  key: string;
  paths: string[];
}

/** The selected paths (files or folders, as clients and plugins give them) → one item per audio file. */
export async function expandSelection(roots: MediaRoots, selected: readonly string[], options: { limit?: number; depth?: 1 | -1 } = {}): Promise<ExpandedItem[]> {
  const limit = options.limit ?? MAX_TASK_ITEMS;
  /** The file list's depth rule: 1 = the files directly in a selected folder, -1 (default) = all the way down. */
  const deep = options.depth !== 1;
  const files = new Set<string>();
  const add = (file: string) => {
    files.add(file);
    if (files.size > limit) throw invalid('TAGSONIC_ERR_TASK_TOO_MANY_ITEMS', `The selection holds more than ${limit} audio files; select fewer folders.`, { limit });
  };
  const walk = async (dir: string, ancestors: Set<string>): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isFile()) {
        if (isAudioName(entry.name)) add(full);
      } else if (entry.isDirectory()) {
        if (deep) await walk(full, new Set(ancestors).add(full));
      } else if (entry.isSymbolicLink()) {
        const inside = await roots.resolve(full).catch(() => null);
        if (!inside || ancestors.has(inside.path)) continue;
        const info = await stat(inside.path).catch(() => null);
        if (info?.isFile() && isAudioName(entry.name)) add(inside.path);
        else if (info?.isDirectory() && deep) await walk(inside.path, new Set(ancestors).add(inside.path));
      }
    }
  };
  for (const input of selected) {
    const target = await roots.resolve(input);
    const info = await stat(target.path);
    if (info.isDirectory()) await walk(target.path, new Set([target.path]));
    else if (info.isFile() && isAudioName(target.path)) add(target.path);
  }
  return [...files].map((file) => ({ key: file, paths: [file] }));
}
