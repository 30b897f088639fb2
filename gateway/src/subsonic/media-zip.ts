/**
 * download.view of an album, artist or playlist: one zip of the original files, streamed as it is
 * built (yazl, entries stored without compression: audio does not shrink), one file open at a time,
 * never a temporary copy. Entry names are made safe for every file system and de-duplicated.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZipFile } from 'yazl';
import { notFound } from '@tagsonic/core/errors';
import type { SongView } from '@tagsonic/core/library';

/** One song of the zip and where it goes inside the archive (sanitised; made unique when the zip is written). */
export interface ZipEntry {
  song: SongView;
  folder: string;
  file: string;
}

/** What a download zip holds and what the browser names it. */
export interface ZipPlan {
  fileName: string;
  entries: ZipEntry[];
}

/**
 * Longest name part in UTF-8 bytes: Linux allows 255 bytes (60 CJK characters here), and a track
 * name adds "NN - ", " (2)" and the extension around it.
 */
const MAX_PART_BYTES = 180;

/** Names Windows reserves for devices, with or without an extension. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/**
 * A name usable as one path part on Windows, macOS and Linux: no path separators, control characters
 * or characters Windows refuses, no leading/trailing dots or spaces, not `.`/`..` or a device name,
 * at most MAX_PART_BYTES, not empty.
 */
export function safePart(text: string, fallback = 'Unknown'): string {
  const clean = text
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/[/\\:*?"<>|]/g, '_')
    .replace(/\s+/g, ' ')
    .trim();
  let s = '';
  let bytes = 0;
  for (const ch of clean) {
    bytes += Buffer.byteLength(ch);
    if (bytes > MAX_PART_BYTES) break;
    s += ch;
  }
  s = s.replace(/^[. ]+|[. ]+$/g, '');
  if (WINDOWS_DEVICE.test(s)) s = `${s}_`;
  return s || fallback;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** `NN - Title.ext` (`D-NN - Title.ext` on multi-disc albums); songs without a number take their place in the album. */
function trackFileName(song: SongView, position: number, multiDisc: boolean, width: number): string {
  const number = pad(song.track ?? position, width);
  const prefix = multiDisc ? `${song.discNumber ?? 1}-${number}` : number;
  return `${prefix} - ${safePart(song.title, 'Untitled')}.${safePart(song.suffix.toLowerCase(), 'bin')}`;
}

/** Makes every entry name unique (case-insensitively, as Windows and macOS compare): `Name (2).ext`. */
class UniqueNames {
  private readonly taken = new Set<string>();

  take(folder: string, file: string): string {
    const dot = file.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [file.slice(0, dot), file.slice(dot)] : [file, ''];
    for (let i = 1; ; i++) {
      const name = `${folder}/${i === 1 ? stem : `${stem} (${i})`}${ext}`;
      const key = name.toLowerCase();
      if (!this.taken.has(key)) {
        this.taken.add(key);
        return name;
      }
    }
  }
}

const albumFolder = (songs: readonly SongView[]): string => {
  const first = songs[0];
  return first ? safePart(`${first.albumArtist || first.artist} - ${first.album}`) : 'Unknown';
};

/** Albums (in the given order), each in its own `Artist - Album/` folder, tracks as `NN - Title.ext`. */
export function albumsPlan(fileName: string, albums: ReadonlyArray<readonly SongView[]>): ZipPlan {
  const entries: ZipEntry[] = [];
  for (const songs of albums) {
    const folder = albumFolder(songs);
    const multiDisc = new Set(songs.map((s) => s.discNumber ?? 1)).size > 1;
    const width = Math.max(2, String(songs.length).length);
    songs.forEach((song, i) => entries.push({ song, folder, file: trackFileName(song, i + 1, multiDisc, width) }));
  }
  return { fileName: `${safePart(fileName)}.zip`, entries };
}

/** A playlist keeps its order: one folder named after it, `NNN - Artist - Title.ext`. */
export function playlistPlan(name: string, songs: readonly SongView[]): ZipPlan {
  const folder = safePart(name, 'Playlist');
  const width = Math.max(2, String(songs.length).length);
  const entries = songs.map((song, i) => ({
    song,
    folder,
    file: `${pad(i + 1, width)} - ${safePart(`${song.artist} - ${song.title}`, 'Untitled')}.${safePart(song.suffix.toLowerCase(), 'bin')}`,
  }));
  return { fileName: `${folder}.zip`, entries };
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / RFC 5987). */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/**
 * Streams the zip. Every file is checked first, so a file gone since the last scan fails the request
 * with a clear error before any byte is sent; the Content-Length is exact (stored entries, known sizes).
 * A file is zipped once, however often the list names it (a playlist may repeat a song).
 */
export async function sendZip(request: FastifyRequest, reply: FastifyReply, plan: ZipPlan, pathOf: (song: SongView) => Promise<string>): Promise<FastifyReply> {
  if (plan.entries.length === 0) throw notFound('TAGSONIC_ERR_MEDIA_DOWNLOAD_EMPTY', `Nothing to download: "${plan.fileName}" would hold no songs.`);
  const found = await Promise.all(
    plan.entries.map(async (e) => {
      const path = await pathOf(e.song);
      const st = await stat(path).catch(() => null);
      if (!st?.isFile()) throw notFound('TAGSONIC_ERR_MEDIA_FILE_GONE', `The file of song "${e.song.id}" is gone; rescan the library.`, { id: e.song.id });
      return { ...e, path, size: st.size, mtime: st.mtime };
    }),
  );
  const names = new UniqueNames();
  const seen = new Set<string>();
  const files = [];
  for (const f of found) {
    if (seen.has(f.path)) continue;
    seen.add(f.path);
    files.push({ ...f, name: names.take(f.folder, f.file) });
  }
  const zip = new ZipFile();
  let current: ReadStream | null = null;
  for (const f of files) {
    // Exactly the size announced: a file that grew meanwhile is cut, one that shrank fails the zip (never a wrong entry).
    if (f.size === 0) zip.addBuffer(Buffer.alloc(0), f.name, { mtime: f.mtime, compress: false });
    else {
      zip.addReadStreamLazy(f.name, { size: f.size, mtime: f.mtime, compress: false }, (cb) => {
        current = createReadStream(f.path, { start: 0, end: f.size - 1 });
        cb(null, current);
      });
    }
  }
  const out = zip.outputStream as NodeJS.ReadableStream & { destroy(e?: Error): void };
  zip.on('error', (err: unknown) => {
    request.log.error({ err }, 'download zip failed while streaming');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  const total = await new Promise<number>((resolve) => zip.end(undefined, resolve as unknown as () => void));
  // A client that goes away must not leave a file open.
  reply.raw.on('close', () => (current as ReadStream | null)?.destroy());
  reply.header('content-type', 'application/zip').header('content-disposition', contentDisposition(plan.fileName));
  if (total >= 0) reply.header('content-length', total);
  return reply.send(out);
}
