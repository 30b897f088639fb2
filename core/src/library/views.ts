/**
 * What the query service returns: songs, albums and artists with the asking user's marks, shaped
 * after Subsonic/OpenSubsonic so the gateway maps them field by field. Dates stay Date objects;
 * durations are seconds (fractional: the gateway rounds for Subsonic's integer `duration`).
 */
import { hiddenSlot } from '../hidden-slot.ts';
import type { AlbumDoc, AnnotationDoc, ArtistDoc, ReplayGain, TrackDoc } from './model.ts';

export interface IdName {
  id: string;
  name: string;
}

/** A user's marks on an item; absent fields mean "none". */
export interface UserMarks {
  starred?: Date;
  userRating?: number;
  /** This user's plays. */
  playCount: number;
  played?: Date;
}

export interface SongView extends UserMarks {
  id: string;
  /** Folder id of the containing directory. */
  parent: string;
  title: string;
  album: string;
  albumId: string;
  /** Artist display string. */
  artist: string;
  /** First individual artist's id. */
  artistId: string;
  artists: IdName[];
  albumArtist: string;
  albumArtists: IdName[];
  track: number | null;
  discNumber: number | null;
  year: number | null;
  genre: string | null;
  genres: string[];
  coverArt: string;
  size: number;
  contentType: string;
  suffix: string;
  duration: number;
  bitRate: number;
  bitDepth: number | null;
  samplingRate: number;
  channelCount: number;
  /** Path relative to its music folder (root). */
  path: string;
  /** The root it lives in (media, download, webdav) — the dashboard's `fromFolder`. */
  root: string;
  created: Date;
  comment: string | null;
  composer: string | null;
  lyricist: string | null;
  language: string | null;
  isCompilation: boolean;
  replayGain: ReplayGain | null;
  /** Lyrics available (embedded or an .lrc sidecar). */
  hasLyrics: boolean;
}

export interface AlbumView extends UserMarks {
  id: string;
  name: string;
  artist: string;
  artistId: string;
  artists: IdName[];
  otherArtists: IdName[];
  coverArt: string;
  /** A cover exists (folder image or embedded). */
  hasCover: boolean;
  songCount: number;
  discCount: number;
  duration: number;
  size: number;
  year: number | null;
  genre: string | null;
  genres: string[];
  comment: string | null;
  isCompilation: boolean;
  created: Date;
}

export interface ArtistView extends UserMarks {
  id: string;
  name: string;
  albumCount: number;
  songCount: number;
  coverArt: string;
  hasCover: boolean;
  genres: string[];
  /** Index group (A–Z, pinyin initial, '#'). */
  index: string;
}

export const marksOf = (a: AnnotationDoc | undefined): UserMarks => {
  const m: UserMarks = { playCount: a?.playCount ?? 0 };
  if (a?.starred) m.starred = a.starred;
  if (a?.rating) m.userRating = a.rating;
  if (a?.lastPlayed) m.played = a.lastPlayed;
  return m;
};

const idNames = (ids: readonly string[], names: readonly string[]): IdName[] => ids.map((id, i) => ({ id, name: names[i] ?? '' }));

/**
 * A song, album or artist view built here remembers the document it was built from in a hidden slot
 * (spreads and JSON leave it out). Everything in the view but the user's marks derives from that
 * document, so a serializer may cache what it makes of the rest per document and revision.
 */
const viewSources = hiddenSlot<TrackDoc | AlbumDoc | ArtistDoc>();

/** The document a view came from, if this module built it (a copy of the view has none). */
export function viewSource(view: SongView): TrackDoc | undefined;
export function viewSource(view: AlbumView): AlbumDoc | undefined;
export function viewSource(view: ArtistView): ArtistDoc | undefined;
export function viewSource(view: SongView | AlbumView | ArtistView): TrackDoc | AlbumDoc | ArtistDoc | undefined {
  return viewSources.get(view);
}

const sourced = <V extends object>(view: V, doc: TrackDoc | AlbumDoc | ArtistDoc): V => viewSources.set(view, doc);

export function songView(t: TrackDoc, marks: UserMarks): SongView {
  return sourced(songFields(t, marks), t);
}

function songFields(t: TrackDoc, marks: UserMarks): SongView {
  return {
    id: t._id,
    parent: t.folderId,
    title: t.title,
    album: t.album,
    albumId: t.albumId,
    artist: t.artist,
    artistId: t.artistIds[0] ?? t.albumArtistIds[0] ?? '',
    artists: idNames(t.artistIds, t.artists),
    albumArtist: t.albumArtist,
    albumArtists: idNames(t.albumArtistIds, t.albumArtists),
    track: t.track,
    discNumber: t.disc,
    year: t.year,
    genre: t.genres[0] ?? t.genre,
    genres: t.genres,
    coverArt: t.hasArt ? t._id : t.albumId,
    size: t.size,
    contentType: t.contentType,
    suffix: t.suffix,
    duration: t.duration,
    bitRate: t.bitRate,
    bitDepth: t.bitDepth,
    samplingRate: t.sampleRate,
    channelCount: t.channels,
    path: t.relPath,
    root: t.root,
    created: t.createdAt,
    comment: t.comment,
    composer: t.composer,
    lyricist: t.lyricist,
    language: t.language,
    isCompilation: t.compilation,
    replayGain: t.replayGain,
    hasLyrics: t.hasLyrics || t.lrcPath !== null,
    ...marks,
  };
}

export function albumView(a: AlbumDoc, marks: UserMarks): AlbumView {
  return sourced<AlbumView>({
    id: a._id,
    name: a.name,
    artist: a.artist,
    artistId: a.artistIds[0] ?? '',
    artists: idNames(a.artistIds, a.artists),
    otherArtists: a.otherArtists,
    coverArt: a._id,
    hasCover: a.coverPath !== null || a.coverTrackId !== null,
    songCount: a.songCount,
    discCount: a.discCount,
    duration: a.duration,
    size: a.size,
    year: a.year,
    genre: a.genre,
    genres: a.genres,
    comment: a.comment,
    isCompilation: a.compilation,
    created: a.createdAt,
    ...marks,
  }, a);
}

export function artistView(a: ArtistDoc, index: string, marks: UserMarks): ArtistView {
  return sourced<ArtistView>({
    id: a._id,
    name: a.name,
    albumCount: a.albumCount,
    songCount: a.songCount,
    coverArt: a._id,
    hasCover: a.coverAlbumId !== null,
    genres: a.genres,
    index,
    ...marks,
  }, a);
}
