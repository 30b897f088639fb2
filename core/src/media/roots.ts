import { realpath, lstat } from 'node:fs/promises';
import path from 'node:path';
import { forbidden, invalid, notFound } from '../errors/errors.ts';

/** A configured folder the product may read and write in (media, download, webdav). */
export interface MediaRoot {
  name: string;
  /** Absolute, symlink-free path (realpath of the configured folder). */
  dir: string;
}

export interface ResolvedPath {
  /** Absolute real path inside `root.dir`. */
  path: string;
  root: MediaRoot;
  /** Whether the path exists (only false when `mustExist` was off). */
  exists: boolean;
}

const MAX_PATH_BYTES = 4096;
// Encoded forms of '.', '/' and '\' — a client that sends them is trying something; refuse instead of guessing.
const ENCODED_SEPARATOR_OR_DOT = /%(2e|2f|5c|c0%ae|c0%af|e0%80%ae|25)/i;

/**
 * Confines client- and plugin-supplied paths to the media roots. Every check is done twice: once
 * lexically (so `..`, sibling prefixes such as `/app/media2` and look-alikes are refused before touching
 * the disk) and once on the real path (so a symlink pointing out of a root is refused).
 */
export class MediaRoots {
  readonly roots: readonly MediaRoot[];

  private constructor(roots: MediaRoot[]) {
    this.roots = roots;
  }

  /** Builds the roots from configured folders, which must exist. */
  static async open(folders: Record<string, string>): Promise<MediaRoots> {
    const roots: MediaRoot[] = [];
    for (const [name, dir] of Object.entries(folders)) {
      roots.push({ name, dir: await realpath(path.resolve(dir)) });
    }
    // Longest first, so a root nested in another (media/download) wins.
    roots.sort((a, b) => b.dir.length - a.dir.length);
    return new MediaRoots(roots);
  }

  root(name: string): MediaRoot {
    const r = this.roots.find((x) => x.name === name);
    if (!r) throw notFound('TAGSONIC_ERR_MEDIA_NO_ROOT', `No media root named "${name}".`);
    return r;
  }

  /** The root that lexically contains an absolute, normalised path, if any. */
  rootOf(absolute: string): MediaRoot | undefined {
    return this.roots.find((r) => isInside(r.dir, absolute));
  }

  /**
   * Resolves a path from a client or plugin. Absolute paths are taken as they are; relative ones are
   * resolved against `base` (default: the first root named "media", else the first root).
   */
  async resolve(input: unknown, options: { mustExist?: boolean; base?: string } = {}): Promise<ResolvedPath> {
    const mustExist = options.mustExist ?? true;
    const lexical = this.checkLexically(input, options.base);
    const root = this.rootOf(lexical);
    if (!root) throw outside(input);

    let real: string;
    let exists = true;
    try {
      real = await realpath(lexical);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      if (mustExist) throw notFound('TAGSONIC_ERR_MEDIA_NOT_FOUND', `No such file or folder: ${String(input)}`);
      exists = false;
      real = await realpathOfMissing(lexical);
    }
    if (!isInside(root.dir, real)) {
      // Nested roots: a symlink from one root into another root is still inside the product's folders.
      const other = this.rootOf(real);
      if (!other) throw outside(input);
      return { path: real, root: other, exists };
    }
    return { path: real, root, exists };
  }

  /** Throws unless `input` is an acceptable path string; returns it absolute and normalised. */
  private checkLexically(input: unknown, base?: string): string {
    if (typeof input !== 'string' || input.length === 0) {
      throw invalid('TAGSONIC_ERR_MEDIA_BAD_PATH', 'A path is required.');
    }
    if (Buffer.byteLength(input) > MAX_PATH_BYTES) throw invalid('TAGSONIC_ERR_MEDIA_BAD_PATH', 'The path is too long.');
    if (input.includes('\0')) throw invalid('TAGSONIC_ERR_MEDIA_BAD_PATH', 'The path contains a NUL character.');
    if (input.includes('\\')) throw invalid('TAGSONIC_ERR_MEDIA_BAD_PATH', 'Use "/" to separate folders; "\\" is not allowed in paths.');
    if (ENCODED_SEPARATOR_OR_DOT.test(input)) {
      throw invalid('TAGSONIC_ERR_MEDIA_BAD_PATH', 'The path contains URL-encoded characters; send it decoded.');
    }
    for (const segment of input.split('/')) {
      if (segment === '..') throw outside(input);
      const folded = segment.normalize('NFKC');
      if (folded !== segment && (folded === '.' || folded === '..' || /[/\\]/.test(folded))) {
        throw invalid('TAGSONIC_ERR_MEDIA_BAD_PATH', 'The path contains characters that imitate "." or "/".');
      }
    }
    const baseDir = base ?? (this.roots.find((r) => r.name === 'media') ?? this.roots[0]).dir;
    return path.resolve(baseDir, input);
  }
}

/** True when `candidate` is `dir` itself or below it (never a sibling sharing a prefix). */
export function isInside(dir: string, candidate: string): boolean {
  if (candidate === dir) return true;
  const withSep = dir.endsWith(path.sep) ? dir : dir + path.sep;
  return candidate.startsWith(withSep);
}

/** realpath of the nearest existing ancestor, with the missing tail appended. */
async function realpathOfMissing(p: string): Promise<string> {
  const tail: string[] = [];
  let cur = p;
  for (;;) {
    try {
      await lstat(cur);
      return path.join(await realpath(cur), ...tail.reverse());
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      const parent = path.dirname(cur);
      if (parent === cur) return p;
      tail.push(path.basename(cur));
      cur = parent;
    }
  }
}

function outside(input: unknown) {
  return forbidden('TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS', `Access outside the media folders is not allowed: ${String(input)}`);
}
