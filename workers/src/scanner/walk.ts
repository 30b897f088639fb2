/**
 * Walks the media roots: every audio file with what change detection needs (size, mtime, inode), and
 * per folder its cover image and `.lrc` sidecars. Hidden entries (names starting with ".", which
 * includes the tag engine's temp files) and symbolic links are skipped.
 */
import { statSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { MediaRoot } from '@tagsonic/core/media';

export const AUDIO_EXTENSIONS: ReadonlySet<string> = new Set([
  'mp3', 'flac', 'm4a', 'm4b', 'aac', 'alac', 'ogg', 'oga', 'opus', 'wav', 'aiff', 'aif', 'wma', 'ape', 'wv', 'mpc', 'dsf',
]);

/** Folder images by priority: the name (cover before folder before front), then the format. */
const COVER_NAMES = ['cover', 'folder', 'front'];
const COVER_EXTS = ['jpg', 'jpeg', 'png', 'webp'];
const DISC_FOLDER = /^(?:cd|disc|disk|dvd)\s*[-_.]?\s*\d+\b/i;

export interface FoundFile {
  path: string;
  root: string;
  relPath: string;
  dir: string;
  size: number;
  mtimeMs: number;
  ino: number;
  /** Lower-case extension without the dot. */
  suffix: string;
}

export interface DirInfo {
  /** Best folder image of this folder. */
  cover: string | null;
  /** `.lrc` files by base name (exact) and lower-cased base name. */
  lrc: Map<string, string>;
}

export interface WalkResult {
  files: FoundFile[];
  dirs: Map<string, DirInfo>;
  /** Folders or files that could not be read (permissions, races with deletions). */
  errors: Array<{ path: string; message: string }>;
}

const coverRank = (name: string): number => {
  const lower = name.toLowerCase();
  const dot = lower.lastIndexOf('.');
  if (dot <= 0) return -1;
  const n = COVER_NAMES.indexOf(lower.slice(0, dot));
  const e = COVER_EXTS.indexOf(lower.slice(dot + 1));
  return n < 0 || e < 0 ? -1 : n * COVER_EXTS.length + e;
};

/** A folder's entries sorted out: its audio files' names, sub-folders, `.lrc` files and best cover image. */
function classify(dir: string, entries: readonly Dirent[]): { info: DirInfo; audio: string[]; subdirs: string[] } {
  const info: DirInfo = { cover: null, lrc: new Map() };
  let bestCover = Infinity;
  const audio: string[] = [];
  const subdirs: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    if (e.isDirectory()) {
      subdirs.push(`${dir}/${e.name}`);
      continue;
    }
    if (!e.isFile()) continue;
    const dot = e.name.lastIndexOf('.');
    if (dot <= 0) continue;
    const ext = e.name.slice(dot + 1).toLowerCase();
    if (AUDIO_EXTENSIONS.has(ext)) audio.push(e.name);
    else if (ext === 'lrc') {
      const base = e.name.slice(0, dot);
      info.lrc.set(base, path.join(dir, e.name));
      if (!info.lrc.has(base.toLowerCase())) info.lrc.set(base.toLowerCase(), path.join(dir, e.name));
    } else {
      const rank = coverRank(e.name);
      if (rank >= 0 && rank < bestCover) {
        bestCover = rank;
        info.cover = path.join(dir, e.name);
      }
    }
  }
  return { info, audio, subdirs };
}

/**
 * The side files of one folder as a walk sees them (`.lrc` files, best cover image), for indexing single files
 * (import collection) with the same rules as a scan; a folder that cannot be listed has none.
 */
export async function readDirInfo(dir: string): Promise<DirInfo> {
  try {
    return classify(dir, await readdir(dir, { withFileTypes: true })).info;
  } catch {
    return { cover: null, lrc: new Map() };
  }
}

/** Folders read at once: enough to keep the disk busy without flooding libuv's thread pool. */
const DIR_CONCURRENCY = 8;

/** `onFile` hears of each audio file as soon as it is found (a first scan starts reading during the walk). */
export async function walkRoots(roots: readonly MediaRoot[], onFile?: (file: FoundFile) => void): Promise<WalkResult> {
  const result: WalkResult = { files: [], dirs: new Map(), errors: [] };
  const pending: Array<{ dir: string; root: MediaRoot }> = roots.map((root) => ({ dir: root.dir, root }));
  const visit = async (dir: string, root: MediaRoot): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') result.errors.push({ path: dir, message: (e as Error).message });
      return;
    }
    const { info, audio, subdirs } = classify(dir, entries);
    for (const sub of subdirs) pending.push({ dir: sub, root });
    result.dirs.set(dir, info);
    // Synchronous stats: a stat of a cached inode takes microseconds, far less than a promise round
    // trip through the thread pool; the event loop is held for one folder at a time.
    const prefix = dir.length > root.dir.length ? `${dir.slice(root.dir.length + 1)}/` : '';
    for (const name of audio) {
      const full = `${dir}/${name}`;
      let st;
      try {
        st = statSync(full);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') result.errors.push({ path: full, message: (e as Error).message });
        continue;
      }
      const file: FoundFile = {
        path: full,
        root: root.name,
        relPath: prefix + name,
        dir,
        size: st.size,
        mtimeMs: st.mtimeMs,
        ino: st.ino,
        suffix: name.slice(name.lastIndexOf('.') + 1).toLowerCase(),
      };
      result.files.push(file);
      onFile?.(file);
    }
  };
  let active = 0;
  const workers = Array.from({ length: DIR_CONCURRENCY }, async () => {
    for (;;) {
      const next = pending.pop();
      if (!next) {
        // Another worker may still be listing a folder that adds more; wait for it.
        if (active === 0) return;
        await new Promise((r) => setImmediate(r));
        continue;
      }
      active++;
      try {
        await visit(next.dir, next.root);
      } finally {
        active--;
      }
    }
  });
  await Promise.all(workers);
  // Nested roots (download inside media) would list files twice: keep the deepest root's entry.
  const seen = new Map<string, FoundFile>();
  for (const f of result.files) {
    const prev = seen.get(f.path);
    if (!prev || f.relPath.length < prev.relPath.length) seen.set(f.path, f);
  }
  if (seen.size !== result.files.length) result.files = [...seen.values()];
  result.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return result;
}

/** The folder image for a file in `dir`: its own, or the album folder's when `dir` is a disc folder ("CD1", "Disc 2"). */
export function folderCoverFor(dirs: ReadonlyMap<string, DirInfo>, dir: string): string | null {
  const own = dirs.get(dir)?.cover;
  if (own) return own;
  if (DISC_FOLDER.test(path.basename(dir))) return dirs.get(path.dirname(dir))?.cover ?? null;
  return null;
}

/** The `.lrc` sidecar with the file's base name (exact case first). */
export function lrcFor(dirs: ReadonlyMap<string, DirInfo>, file: string): string | null {
  const info = dirs.get(path.dirname(file));
  if (!info || info.lrc.size === 0) return null;
  const name = path.basename(file);
  const base = name.slice(0, name.lastIndexOf('.'));
  return info.lrc.get(base) ?? info.lrc.get(base.toLowerCase()) ?? null;
}
