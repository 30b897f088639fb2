/**
 * Turns what the tag engine read from one file into a track document (before album assignment,
 * which depends on the file's siblings: see `assignAlbums`).
 */
import { hash } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isTagsonicError } from '@tagsonic/core/errors';
import { audioPayload, TAG_ERRORS, type ReadResult } from '@tagsonic/core/tags';
import {
  UNKNOWN_ALBUM,
  UNKNOWN_ARTIST,
  artistIdFor,
  folderIdFor,
  splitArtists,
  splitGenres,
  type MissingField,
  type ReplayGain,
  type TrackDoc,
} from '@tagsonic/core/library';
import type { FoundFile } from './walk.ts';

const CONTENT_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  m4b: 'audio/mp4',
  alac: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  wav: 'audio/wav',
  aiff: 'audio/aiff',
  aif: 'audio/aiff',
  wma: 'audio/x-ms-wma',
  ape: 'audio/x-ape',
  wv: 'audio/x-wavpack',
  mpc: 'audio/x-musepack',
  dsf: 'audio/x-dsf',
};

export const contentTypeOf = (suffix: string): string => CONTENT_TYPES[suffix] ?? 'application/octet-stream';

const intOf = (v: string | null): number | null => {
  if (!v) return null;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) && n > 0 ? n : null;
};

const yearOf = (v: string | null): number | null => {
  const m = v ? /(\d{4})/.exec(v) : null;
  if (!m) return null;
  const y = Number(m[1]);
  return y > 0 ? y : null;
};

/** "-6.50 dB" → -6.5 */
const gainOf = (v: string | null): number | null => {
  if (!v) return null;
  const n = Number.parseFloat(v.replace(',', '.'));
  return Number.isFinite(n) ? n : null;
};

/** Individual names: the tag's own multiple values when it has them, else the display string split. */
function individuals(values: readonly string[], display: string): string[] {
  const cleaned = values.map((v) => v.trim()).filter((v) => v.length > 0);
  if (cleaned.length > 1) return [...new Set(cleaned)];
  return splitArtists(display);
}

/** A file the tag engine could parse whose audio stream is missing or not audio (see `notAudio`). */
export const NOT_AUDIO = 'TAGSONIC_ERR_LIBRARY_NOT_AUDIO';

/**
 * Read failures that mean "this file is not a song" (as opposed to a read that timed out or a file
 * that could not be opened): a track that was listed for the file leaves the library.
 */
export const NOT_A_SONG_CODES: ReadonlySet<string> = new Set([
  NOT_AUDIO,
  TAG_ERRORS.EMPTY_FILE,
  TAG_ERRORS.UNSUPPORTED_FORMAT,
  TAG_ERRORS.UNREADABLE,
  TAG_ERRORS.TRUNCATED,
  TAG_ERRORS.NOT_A_FILE,
]);

/** Suspicious files larger than this are not loaded to be checked (they stay listed, as before). */
const CHECK_MAX_BYTES = 256 * 1024 * 1024;

/** Formats found by scanning for a frame sync word rather than by a signature at the start. */
const SYNC_SCANNED = new Set(['mp3', 'mp2', 'aac']);

/** True when the file starts with an ID3v2 tag or an MPEG/ADTS frame header, as every real raw stream does. */
async function startsLikeRawAudio(filePath: string): Promise<boolean> {
  const handle = await open(filePath, 'r').catch(() => null);
  if (!handle) return true;
  try {
    const head = Buffer.alloc(3);
    const { bytesRead } = await handle.read(head, 0, 3, 0);
    if (bytesRead < 3) return false;
    return head.toString('latin1') === 'ID3' || (head[0] === 0xff && (head[1]! & 0xe0) === 0xe0);
  } finally {
    await handle.close();
  }
}

const hasNoTags = (read: ReadResult): boolean => read.tags.artwork === null && Object.values(read.tags.fields).every((v) => v === null);

/**
 * Why a file the tag engine parsed is still not a song, or null when it is one. The tag scan reads
 * headers only, so junk can pass it: random bytes named `.mp3` in which a stray 0xFF looks like an
 * MPEG or ADTS frame header (the parser scans for one), or a FLAC cut off after its STREAMINFO (a
 * length but not a byte of audio after the metadata, so a bit rate of 0). Such suspicious reads —
 * no length; a FLAC without audio bytes; an untagged MP3/AAC that does not start with a frame — are
 * checked further with the tag engine's structural audio check (the MPEG frame chain, the FLAC
 * frames, ffmpeg for the rest). A real VBR MP3 without a Xing header has no length either, but its
 * frames chain up, so it stays a song; a file merely cut short (frames up to the cut) is not
 * suspicious and stays listed: playback finds the short stream. A tagged file costs nothing extra, an
 * untagged MP3/AAC one read of 3 bytes.
 */
export async function notAudio(filePath: string, read: ReadResult): Promise<{ code: string; message: string } | null> {
  const { audio } = read;
  const noLength = !(audio.duration > 0);
  const noFrames = audio.format === 'flac' && !(audio.bitRate > 0);
  const strayFrame = !noLength && SYNC_SCANNED.has(audio.format) && hasNoTags(read) && !(await startsLikeRawAudio(filePath));
  if (!noLength && !noFrames && !strayFrame) return null;
  if (audio.size > CHECK_MAX_BYTES) return null;
  // Unreadable now (gone, no permission): judged on the next scan, like any file that changes.
  const data = await readFile(filePath).catch(() => null);
  if (!data) return null;
  try {
    await audioPayload(data, audio.format, filePath);
    return null;
  } catch (e) {
    if (!isTagsonicError(e)) throw e;
    // The check itself could not run (e.g. no ffmpeg for an unusual format): the file stays a song.
    if (e.kind === 'unavailable') return null;
    const reason = noFrames ? 'its headers are followed by no audio frames' : 'no run of audio frames was found in it';
    const detail = /\(([^)]*)\)/.exec(e.message)?.[1];
    return {
      code: NOT_AUDIO,
      message: `${filePath} is not a song: ${reason}${detail ? ` (${detail})` : ''}. It may be corrupt, truncated or not audio at all; it stays out of the library until it changes.`,
    };
  }
}

/** Side files found by the walk: an `.lrc` with the same base name, the folder image. */
export interface Sidecars {
  lrcPath: string | null;
  folderCover: string | null;
}

/** Fingerprint of what was read: a file that moved to another file system keeps it (and its size and mtime). */
export function fingerprint(read: ReadResult): string {
  const { tags, audio } = read;
  const payload = JSON.stringify([
    tags.fields,
    tags.artists,
    tags.albumartists,
    tags.genres,
    tags.artwork?.sha256 ?? null,
    audio.format,
    Math.round(audio.duration * 1000),
    audio.bitRate,
    audio.sampleRate,
    audio.channels,
  ]);
  return hash('sha1', payload).slice(0, 20);
}

/**
 * A track document for a file just read. Album fields are provisional (album artist = the tag, or
 * the track artist) until `assignAlbums` runs over the whole library.
 */
export function trackDocFrom(
  file: FoundFile,
  read: ReadResult,
  sidecars: Sidecars,
  identity: { id: string; createdAt: Date },
  now: Date,
): TrackDoc {
  const f = read.tags.fields;
  const missing: MissingField[] = [];
  const title = f.title?.trim() || path.basename(file.path, path.extname(file.path));
  if (!f.title?.trim()) missing.push('title');
  const artist = f.artist?.trim() || UNKNOWN_ARTIST;
  if (!f.artist?.trim()) missing.push('artist');
  const artists = f.artist?.trim() ? individuals(read.tags.artists, artist) : [UNKNOWN_ARTIST];
  const albumArtistTag = f.albumartist?.trim() || null;
  if (!albumArtistTag) missing.push('albumartist');
  const albumArtistsTag = albumArtistTag ? individuals(read.tags.albumartists, albumArtistTag) : [];
  const album = f.album?.trim() || UNKNOWN_ALBUM;
  if (!f.album?.trim()) missing.push('album');
  const genres = splitGenres(read.tags.genres.length > 0 ? read.tags.genres : f.genre ? [f.genre] : []);
  if (genres.length === 0) missing.push('genre');
  const year = yearOf(f.year);
  if (year === null) missing.push('year');
  const hasLyrics = Boolean(f.lyrics?.trim());
  if (!hasLyrics && !sidecars.lrcPath) missing.push('lyrics');
  const hasArt = read.tags.artwork !== null;
  if (!hasArt && !sidecars.folderCover) missing.push('cover');
  const replay: ReplayGain = {
    trackGain: gainOf(f.replaygain_track_gain),
    trackPeak: gainOf(f.replaygain_track_peak),
    albumGain: gainOf(f.replaygain_album_gain),
    albumPeak: gainOf(f.replaygain_album_peak),
  };
  const hasReplay = Object.values(replay).some((v) => v !== null);
  const audio = read.audio;
  const albumArtist = albumArtistTag ?? artist;
  const albumArtists = albumArtistTag ? albumArtistsTag : artists;
  return {
    _id: identity.id,
    path: file.path,
    root: file.root,
    relPath: file.relPath,
    folderId: folderIdFor(file.dir),
    size: file.size,
    mtimeMs: file.mtimeMs,
    ino: file.ino,
    fp: fingerprint(read),
    title,
    artist,
    artists,
    artistIds: artists.map(artistIdFor),
    albumArtistTag,
    albumArtistsTag,
    // A "compilation" release type is the only compilation mark the tag engine exposes.
    compilationTag: /compilation/i.test(f.album_type ?? ''),
    albumArtist,
    albumArtists,
    albumArtistIds: albumArtists.map(artistIdFor),
    album,
    albumId: '',
    genre: f.genre?.trim() || null,
    genres,
    year,
    disc: intOf(f.discnumber),
    discTotal: intOf(f.totaldiscs),
    track: intOf(f.tracknumber),
    trackTotal: intOf(f.totaltracks),
    composer: f.composer?.trim() || null,
    lyricist: f.lyricist?.trim() || null,
    comment: f.comment?.trim() || null,
    language: f.language?.trim() || null,
    compilation: false,
    replayGain: hasReplay ? replay : null,
    duration: audio.duration,
    bitRate: audio.bitRate,
    sampleRate: audio.sampleRate,
    bitDepth: audio.bitDepth,
    channels: audio.channels,
    suffix: file.suffix,
    contentType: contentTypeOf(file.suffix),
    codec: audio.codec,
    lossless: audio.lossless,
    hasArt,
    folderCover: sidecars.folderCover,
    hasLyrics,
    lrcPath: sidecars.lrcPath,
    missing,
    createdAt: identity.createdAt,
    updatedAt: now,
    rev: 0,
  };
}

/** Missing-field list after the side files changed (lyrics and cover may come from them). */
export function withSidecars(doc: TrackDoc, sidecars: Sidecars): TrackDoc {
  const missing: MissingField[] = doc.missing.filter((m) => m !== 'lyrics' && m !== 'cover');
  if (!doc.hasLyrics && !sidecars.lrcPath) missing.push('lyrics');
  if (!doc.hasArt && !sidecars.folderCover) missing.push('cover');
  return { ...doc, lrcPath: sidecars.lrcPath, folderCover: sidecars.folderCover, missing };
}
