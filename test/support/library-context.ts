/** State shared by the small and large builders while one library is being written. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Random } from './library-random.ts';
import type { CueSheet, LibraryFile, NormalizedLibraryOptions } from './library-types.ts';

export interface BuildContext {
  root: string;
  options: NormalizedLibraryOptions;
  random: Random;
  /** Scratch folder inside the root, removed before the manifest is written. */
  scratch: string;
  files: LibraryFile[];
  cues: CueSheet[];
  notes: string[];
}

export const absolute = (ctx: BuildContext, relative: string): string => join(ctx.root, ...relative.split('/'));

const madeDirs = new WeakMap<BuildContext, Set<string>>();

export const ensureDir = async (ctx: BuildContext, path: string): Promise<void> => {
  let made = madeDirs.get(ctx);
  if (made === undefined) {
    made = new Set();
    madeDirs.set(ctx, made);
  }
  if (made.has(path)) return;
  await mkdir(path, { recursive: true });
  made.add(path);
};

/** Writes a file at a root-relative path, creating its folder. */
export const writeRelative = async (ctx: BuildContext, relative: string, content: string | Uint8Array): Promise<string> => {
  const path = absolute(ctx, relative);
  await ensureDir(ctx, dirname(path));
  await writeFile(path, content);
  return path;
};

export const pad2 = (n: number): string => String(n).padStart(2, '0');
