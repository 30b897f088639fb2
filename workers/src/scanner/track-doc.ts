/**
 * Turns what the tag engine read from one file into a track document (before album assignment,
 * which depends on the file's siblings: see `assignAlbums`).
 */
import { hash } from 'node:crypto';
import path from 'node:path';
import type { ReadResult } from '@tagsonic/core/tags';
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
