/**
 * Names and clean-up of the hidden temp siblings a safe write works in. A crash (or `kill -9`) between
 * creating one and renaming it over the original leaves it behind; the original is never affected.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

const TEMP_PATTERN = /^\..*\.tagsonic-[0-9a-f]{24}\.tmp$/s;
const TEMP_WRITE_ID = /\.tagsonic-([0-9a-f]{24})\.tmp$/s;
/** Keeps `.<name>.tagsonic-<id>.tmp` within the 255-byte file-name limit of common file systems. */
const MAX_NAME_BYTES = 180;

export function tempPathFor(target: string, writeId: string): string {
  let base = path.basename(target);
  while (Buffer.byteLength(base) > MAX_NAME_BYTES) base = [...base].slice(0, -1).join('');
  return path.join(path.dirname(target), `.${base}.tagsonic-${writeId}.tmp`);
}

export const isTempFileName = (name: string): boolean => TEMP_PATTERN.test(name);

/** The write id a temp file's name carries (`.<name>.tagsonic-<id>.tmp`). */
export const tempWriteId = (name: string): string => TEMP_WRITE_ID.exec(name)?.[1] ?? '';

/**
 * Removes leftover temp files in `dir` (not recursive) and returns their paths. A temp file younger
 * than `olderThanMs` may belong to a write still in flight in another process: pass a margin when
 * cleaning a folder other writers may be using; the default (0) is for start-up recovery. `minAgeFor`
 * decides per write id instead (the journal's recovery): the age a file must have, or null to keep it.
 */
export async function cleanupTempFiles(
  dir: string,
  options: { olderThanMs?: number; minAgeFor?: (writeId: string) => number | null } = {},
): Promise<string[]> {
  const olderThan = options.olderThanMs ?? 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const removed: string[] = [];
  const now = Date.now();
  for (const name of names) {
    if (!isTempFileName(name)) continue;
    const minAge = options.minAgeFor ? options.minAgeFor(tempWriteId(name)) : olderThan;
    if (minAge === null) continue;
    const full = path.join(dir, name);
    try {
      if (minAge > 0 && now - (await stat(full)).mtimeMs < minAge) continue;
      await rm(full, { force: true });
      removed.push(full);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return removed;
}

/**
 * `cleanupTempFiles` for every folder below `roots` (symlinked folders are not followed). For start-up
 * recovery of media roots, when no write can be in flight yet.
 */
export async function cleanupTempFilesUnder(roots: readonly string[], options: { olderThanMs?: number } = {}): Promise<string[]> {
  const removed: string[] = [];
  const pending = [...roots];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') continue;
      throw err;
    }
    if (entries.some((e) => e.isFile() && isTempFileName(e.name))) removed.push(...(await cleanupTempFiles(dir, options)));
    for (const e of entries) if (e.isDirectory()) pending.push(path.join(dir, e.name));
  }
  return removed;
}
