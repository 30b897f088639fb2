import { link, open, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { conflict, invalid } from '../errors/errors.ts';
import { sanitizeFileName } from '../media/sanitize.ts';
import { sniffImage } from '../tags/image-info.ts';

/**
 * The files that live beside a track: its same-name `.lrc` and the folder's cover picture. Writes
 * are atomic (temp sibling, fsync, rename), like tag writes.
 */
export const FOLDER_COVER_NAMES = ['cover.jpg', 'cover.jpeg', 'cover.png', 'cover.webp', 'folder.jpg', 'folder.jpeg', 'folder.png', 'front.jpg', 'front.png'];
/** LRC files are small; anything bigger is not lyrics. */
const MAX_LRC_BYTES = 2 * 1024 * 1024;
const MAX_COVER_BYTES = 32 * 1024 * 1024;

export const lyricsPathFor = (audioPath: string): string => {
  const ext = path.extname(audioPath);
  return path.join(path.dirname(audioPath), `${path.basename(audioPath, ext)}.lrc`);
};

export async function exists(p: string): Promise<boolean> {
  return stat(p).then((s) => s.isFile(), () => false);
}

export async function hasLyricsFile(audioPath: string): Promise<boolean> {
  return exists(lyricsPathFor(audioPath));
}

/** The same-name .lrc as text (UTF-8, a BOM dropped), or null when there is none. */
export async function readLyricsFile(audioPath: string): Promise<string | null> {
  const file = lyricsPathFor(audioPath);
  let s;
  try {
    s = await stat(file);
  } catch {
    return null;
  }
  if (!s.isFile()) return null;
  if (s.size > MAX_LRC_BYTES) throw invalid('TAGSONIC_ERR_FILES_LRC_TOO_LARGE', `${path.basename(file)} is larger than 2 MB; it is not a lyrics file.`);
  return (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
}

export async function writeLyricsFile(audioPath: string, lyrics: string): Promise<string> {
  const file = lyricsPathFor(audioPath);
  await writeAtomically(file, Buffer.from(lyrics, 'utf8'));
  return file;
}

/** The folder's cover picture (cover.jpg, folder.jpg, …), or null. */
export async function findFolderCover(dir: string): Promise<string | null> {
  for (const name of FOLDER_COVER_NAMES) {
    const p = path.join(dir, name);
    if (await exists(p)) return p;
  }
  return null;
}

export async function readFolderCover(dir: string): Promise<{ path: string; mime: string; data: Uint8Array } | null> {
  const p = await findFolderCover(dir);
  if (!p) return null;
  const s = await stat(p);
  if (s.size > MAX_COVER_BYTES) throw invalid('TAGSONIC_ERR_FILES_COVER_TOO_LARGE', `${p} is larger than 32 MB.`);
  const data = new Uint8Array(await readFile(p));
  const header = sniffImage(data);
  if (!header) throw invalid('TAGSONIC_ERR_FILES_COVER_NOT_IMAGE', `${path.basename(p)} is not a picture Tagsonic can read.`);
  return { path: p, mime: header.mime, data };
}

/** Writes `cover.jpg` in the folder (JPEG bytes expected). */
export async function writeFolderCover(dir: string, jpeg: Uint8Array): Promise<string> {
  if (sniffImage(jpeg)?.mime !== 'image/jpeg') throw invalid('TAGSONIC_ERR_FILES_COVER_NOT_JPEG', 'cover.jpg must be written as JPEG.');
  const file = path.join(dir, 'cover.jpg');
  await writeAtomically(file, jpeg);
  return file;
}

/**
 * The new path for renaming a file inside its folder: the name is sanitised, keeps the original
 * extension when the new name has none of its own, and must not be taken already.
 */
export async function renameTarget(filePath: string, newName: string): Promise<string | null> {
  const ext = path.extname(filePath);
  let name = sanitizeFileName(newName.trim());
  if (name === '_' && newName.trim() === '') throw invalid('TAGSONIC_ERR_FILES_BAD_NAME', 'The new file name is empty.');
  if (ext && path.extname(name).toLowerCase() !== ext.toLowerCase()) name = sanitizeFileName(name + ext);
  const target = path.join(path.dirname(filePath), name);
  if (target === filePath) return null;
  // A case-only rename on a case-insensitive filesystem finds the file itself: that is not a collision.
  const [a, b] = await Promise.all([stat(filePath), stat(target).catch(() => null)]);
  if (b && !(a.ino === b.ino && a.dev === b.dev)) {
    throw conflict('TAGSONIC_ERR_FILES_NAME_TAKEN', `"${name}" already exists in this folder; choose another name.`, { name });
  }
  return target;
}

/** Renames a track and its same-name .lrc together; refuses to overwrite anything. */
export async function renameTrack(filePath: string, target: string): Promise<void> {
  await renameNoClobber(filePath, target);
  const lrc = lyricsPathFor(filePath);
  const lrcTarget = lyricsPathFor(target);
  if (await exists(lrc)) await renameNoClobber(lrc, lrcTarget).catch(() => undefined);
}

/**
 * rename(2) replaces an existing target, so "check, then rename" could clobber a file created in between.
 * link(2) refuses an existing target atomically; the old name is removed only once the new one exists.
 * Filesystems without hard links (some network mounts) fall back to check-then-rename.
 */
export async function renameNoClobber(from: string, to: string): Promise<void> {
  const taken = () => conflict('TAGSONIC_ERR_FILES_NAME_TAKEN', `${path.basename(to)} already exists in this folder.`);
  try {
    await link(from, to);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw taken();
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw e;
    if (await exists(to)) throw taken();
    await rename(from, to);
    return;
  }
  await unlink(from);
}

export async function writeAtomically(file: string, data: Uint8Array): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx', 0o644);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } catch (e) {
    await fh.close();
    await rm(tmp, { force: true });
    throw e;
  }
  await fh.close();
  try {
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
