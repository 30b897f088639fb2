/**
 * Writes a realistic music library for tests and benches and returns a manifest of every file and the
 * exact tags it was given. Tags are written by ffmpeg (small) or taglib-wasm (size N), never by
 * Tagsonic's own tag engine, so the engine's tests have an independent source of truth.
 *
 * @example
 * const library = await generateLibrary({ root: await mkdtemp(join(tmpdir(), 'lib-')) });
 * const flac = library.files.filter((f) => f.format === 'flac');
 */
import { mkdir, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { join, resolve } from 'node:path';
import { conflict, invalid, unavailable } from '@tagsonic/core/errors';
import type { BuildContext } from './library-context.ts';
import { buildLargeLibrary } from './library-large.ts';
import { createRandom } from './library-random.ts';
import { buildSmallLibrary } from './library-small.ts';
import {
  AUDIO_FORMATS,
  type AudioFormat,
  type FileKind,
  type LibraryCounts,
  type LibraryFile,
  type LibraryManifest,
  type LibraryOptions,
  type NormalizedLibraryOptions,
} from './library-types.ts';

export * from './library-types.ts';

/** Bump when the output for given options changes, so cached libraries are rebuilt. */
export const GENERATOR_VERSION = 1;
export const MANIFEST_FILE = '.tagsonic-library.json';
const PARTIAL_MARKER = '.tagsonic-library.partial';
const SCRATCH_DIR = '.tagsonic-library-scratch';
const LOCK_FILE = '.tagsonic-library.lock';
const LOCK_WAIT_MS = 15 * 60_000;

export const normalizeLibraryOptions = (options: LibraryOptions): NormalizedLibraryOptions => {
  const size = options.size ?? 'small';
  if (size !== 'small' && !(Number.isInteger(size) && size >= 1 && size <= 1_000_000))
    throw invalid('TAGSONIC_ERR_TESTLIB_SIZE', `size must be 'small' or a whole number from 1 to 1000000, not ${String(size)}.`);
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed)) throw invalid('TAGSONIC_ERR_TESTLIB_SEED', `seed must be a whole number, not ${String(seed)}.`);
  const wanted = options.formats ?? [...AUDIO_FORMATS];
  const unknown = wanted.filter((f) => !AUDIO_FORMATS.includes(f));
  if (wanted.length === 0 || unknown.length > 0)
    throw invalid('TAGSONIC_ERR_TESTLIB_FORMATS', `formats must be a non-empty list of ${AUDIO_FORMATS.join(', ')}${unknown.length > 0 ? `; unknown: ${unknown.join(', ')}` : ''}.`);
  const formats: AudioFormat[] = AUDIO_FORMATS.filter((f) => wanted.includes(f));
  const durationSec = options.durationSec ?? 5;
  if (!(durationSec >= 1 && durationSec <= 120))
    throw invalid('TAGSONIC_ERR_TESTLIB_DURATION', `durationSec must be between 1 and 120 seconds, not ${String(durationSec)}.`);
  return { size, seed, formats, durationSec };
};

const sameOptions = (a: NormalizedLibraryOptions, b: NormalizedLibraryOptions): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The cached manifest, if the root holds a complete library made with these options. */
const cachedManifest = async (root: string, options: NormalizedLibraryOptions): Promise<LibraryManifest | undefined> => {
  let manifest: LibraryManifest;
  try {
    manifest = JSON.parse(await readFile(join(root, MANIFEST_FILE), 'utf8')) as LibraryManifest;
  } catch {
    return undefined;
  }
  if (manifest.generatorVersion !== GENERATOR_VERSION || !sameOptions(manifest.options, options)) return undefined;
  try {
    await stat(join(root, PARTIAL_MARKER));
    return undefined;
  } catch {
    // no marker: the last run finished
  }
  const present = await Promise.all(manifest.files.map((f) => stat(join(root, ...f.path.split('/'))).then(() => true, () => false)));
  if (present.includes(false)) return undefined;
  return { ...manifest, root };
};

/** Empties a root we made before; refuses to touch a folder that holds anything else. */
const prepareRoot = async (root: string): Promise<void> => {
  await mkdir(root, { recursive: true });
  const entries = (await readdir(root)).filter((entry) => entry !== LOCK_FILE);
  if (entries.length === 0) return;
  if (!entries.includes(MANIFEST_FILE) && !entries.includes(PARTIAL_MARKER))
    throw conflict('TAGSONIC_ERR_TESTLIB_ROOT_NOT_EMPTY', `${root} is not empty and holds no generated library; refusing to delete its contents.`, { root });
  await Promise.all(entries.map((entry) => rm(join(root, entry), { recursive: true, force: true })));
};

const countFiles = (files: LibraryFile[], cues: number): LibraryCounts => {
  const byKind: Record<FileKind, number> = { audio: 0, cue: 0, image: 0, lyrics: 0, strm: 0, corrupt: 0, other: 0 };
  const byFormat: Partial<Record<AudioFormat, number>> = {};
  const artists = new Set<string>();
  const albums = new Set<string>();
  let embeddedCovers = 0;
  let folderCovers = 0;
  for (const file of files) {
    byKind[file.kind]++;
    if (file.kind !== 'audio') {
      if (file.role === 'folder-cover') folderCovers++;
      continue;
    }
    if (file.format !== undefined) byFormat[file.format] = (byFormat[file.format] ?? 0) + 1;
    if (file.cover !== undefined) embeddedCovers++;
    const artist = file.tags?.albumartist ?? file.tags?.artist;
    if (artist !== undefined) artists.add(artist);
    if (file.tags?.album !== undefined) albums.add(`${artist ?? ''}\u0000${file.tags.album}`);
  }
  return { files: files.length, byKind, byFormat, artists: artists.size, albums: albums.size, embeddedCovers, folderCovers, lrc: byKind.lyrics, cues };
};

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Serialises generators sharing a root (bench files running in parallel workers reuse one big library).
 * The lock holds the owner's pid, so a lock left by a killed process is taken over.
 */
const withRootLock = async <T>(root: string, work: () => Promise<T>): Promise<T> => {
  await mkdir(root, { recursive: true });
  const lockPath = join(root, LOCK_FILE);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(await readFile(lockPath, 'utf8').catch(() => ''));
      if (owner > 0 && !isAlive(owner)) {
        await rm(lockPath, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw unavailable('TAGSONIC_ERR_TESTLIB_LOCKED', `Another process (pid ${owner || 'unknown'}) has been generating a library in ${root} for too long.`);
      await sleep(250);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lockPath, { force: true });
  }
};

export const generateLibrary = async (options: LibraryOptions): Promise<LibraryManifest> => {
  if (typeof options.root !== 'string' || options.root === '') throw invalid('TAGSONIC_ERR_TESTLIB_ROOT', 'root must be a folder path.');
  const root = resolve(options.root);
  const normalized = normalizeLibraryOptions(options);
  return withRootLock(root, async () => (await cachedManifest(root, normalized)) ?? build(root, normalized));
};

const build = async (root: string, normalized: NormalizedLibraryOptions): Promise<LibraryManifest> => {
  await prepareRoot(root);
  await writeFile(join(root, PARTIAL_MARKER), `${new Date().toISOString()}\n`);
  const scratch = join(root, SCRATCH_DIR);
  await mkdir(scratch);
  const ctx: BuildContext = { root, options: normalized, random: createRandom(normalized.seed), scratch, files: [], cues: [], notes: [] };
  if (normalized.size === 'small') await buildSmallLibrary(ctx);
  else await buildLargeLibrary(ctx, normalized.size);
  await rm(scratch, { recursive: true, force: true });

  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  const files = ctx.files.sort(byPath);
  const cues = ctx.cues.sort(byPath);
  const manifest: LibraryManifest = {
    generatorVersion: GENERATOR_VERSION,
    root,
    options: normalized,
    files,
    cues,
    counts: countFiles(files, cues.length),
    notes: ctx.notes,
  };
  // The manifest is written last and the marker removed after it: its presence means "complete".
  await writeFile(join(root, MANIFEST_FILE), JSON.stringify(manifest));
  await rm(join(root, PARTIAL_MARKER));
  return manifest;
};
