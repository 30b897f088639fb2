/**
 * A file's size and SHA-256, streamed (a converted track can be hundreds of MB): what the journal records of a
 * file a task created, and what undo and recovery compare it with before they move it.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat } from 'node:fs/promises';

export interface FileDigest {
  size: number;
  sha256: string;
}

/** The digest of the regular file at `file`, or null when there is none (gone, a folder, a link). */
export async function fileDigest(file: string): Promise<FileDigest | null> {
  const info = await lstat(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
    throw err;
  });
  if (!info?.isFile()) return null;
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).byteLength;
  }
  return { size, sha256: hash.digest('hex') };
}

/** The digest of bytes about to be written. */
export function bytesDigest(data: Uint8Array): FileDigest {
  return { size: data.byteLength, sha256: createHash('sha256').update(data).digest('hex') };
}

/** True when `file` holds exactly the bytes `digest` describes. */
export async function holds(file: string, digest: FileDigest): Promise<boolean> {
  const info = await lstat(file).catch(() => null);
  if (!info?.isFile() || info.size !== digest.size) return false;
  return (await fileDigest(file))?.sha256 === digest.sha256;
}
