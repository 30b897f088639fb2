/**
 * The library model as stored: tracks (one per audio file), the albums, artists and genres derived
 * from them, per-user annotations, the play log, play queues, bookmarks and now-playing entries.
 * Field names are binding for the gateway (Subsonic, dashboard) and later statistics code.
 */

export const LIBRARY_COLLECTIONS = {
  tracks: 'tracks',
  albums: 'albums',
  artists: 'artists',
  genres: 'genres',
  /** Library revision, last scan, scan lock. */
  state: 'library_state',
  /** Ids removed from the catalogue, per revision, so other processes can follow deletions. */
  tombstones: 'library_tombstones',
  annotations: 'annotations',
  playStats: 'play_stats',
  playLog: 'play_log',
  playQueues: 'play_queues',
  bookmarks: 'bookmarks',
  nowPlaying: 'now_playing',
  /** Files the scanner could not read, so unchanged ones are not re-read on every scan. */
  failures: 'library_failures',
  /** Files taken out of the library by hand (deleteTrack's delete_track): the scanner leaves them out. */
  excluded: 'library_excluded',
} as const;

/** Album artist of compilations, and of albums whose tracks name different artists and no album artist. */
export const VARIOUS_ARTISTS = 'Various Artists';
/** Display names for missing tags (the dashboard translates them; Subsonic clients show them as is). */
export const UNKNOWN_ARTIST = '[Unknown Artist]';
export const UNKNOWN_ALBUM = '[Unknown Album]';

export interface ReplayGain {
  trackGain: number | null;
  trackPeak: number | null;
  albumGain: number | null;
  albumPeak: number | null;
}

/** Tags a track lacks (for the "missing" statistics and the scrape screens). */
export type MissingField = 'title' | 'artist' | 'album' | 'albumartist' | 'year' | 'genre' | 'lyrics' | 'cover';

export interface TrackDoc {
  /** Random id (see `newId`), kept when the file moves: annotations and playlist entries survive. */
  _id: string;
  /** Absolute real path. */
  path: string;
  /** Media root name (media, download, webdav). */
  root: string;
  /** Path relative to the root, `/`-separated. */
  relPath: string;
  /** Folder id of the containing directory (see `folderIdFor`). */
  folderId: string;
  // --- change detection (scanner only)
  size: number;
  mtimeMs: number;
  ino: number;
  /** Hash of what was read (tags, audio properties, cover digest): recognises a moved file whose inode changed. */
  fp: string;
  // --- tags (display values never empty; `missing` says which were absent)
  title: string;
  /** Artist display string as tagged. */
  artist: string;
  /** Individual artists (split on the separators, or the tag's own multiple values). */
  artists: string[];
  artistIds: string[];
  /** The album artist tag as read (null when absent); `albumArtist` is derived from it. */
  albumArtistTag: string | null;
  /** Individual album artists of the tag (its own multiple values, or the tag split). */
  albumArtistsTag: string[];
  /** The file's compilation flag (or a release type of "compilation"). */
  compilationTag: boolean;
  /** Album artist display string (tagged, or derived: the track artist or Various Artists). */
  albumArtist: string;
  albumArtists: string[];
  albumArtistIds: string[];
  album: string;
  albumId: string;
  /** Genre display string as tagged (null when untagged). */
  genre: string | null;
  genres: string[];
  year: number | null;
  disc: number | null;
  discTotal: number | null;
  track: number | null;
  trackTotal: number | null;
  composer: string | null;
  lyricist: string | null;
  comment: string | null;
  language: string | null;
  /** Part of a compilation (flag, Various Artists album artist, or a folder of different artists). */
  compilation: boolean;
  replayGain: ReplayGain | null;
  // --- audio
  /** Seconds. */
  duration: number;
  /** kbps. */
  bitRate: number;
  sampleRate: number;
  bitDepth: number | null;
  channels: number;
  suffix: string;
  contentType: string;
  codec: string;
  lossless: boolean;
  // --- artwork and lyrics
  /** The file embeds a picture. */
  hasArt: boolean;
  /** Folder image (cover/folder/front.*) of its directory (or of the album folder above a disc folder). */
  folderCover: string | null;
  /** Embedded lyrics present. */
  hasLyrics: boolean;
  /** `.lrc` sidecar with the same base name. */
  lrcPath: string | null;
  missing: MissingField[];
  /** First seen. */
  createdAt: Date;
  updatedAt: Date;
  /** Library revision of the last change (see LibraryStore). */
  rev: number;
  [key: string]: unknown;
}

export interface AlbumDoc {
  /** `al-` + hash of (album artist, album name): stable across rescans. */
  _id: string;
  name: string;
  /** Album artist display string. */
  artist: string;
  artists: string[];
  artistIds: string[];
  /** Track artists not among the album artists. */
  otherArtists: Array<{ id: string; name: string }>;
  year: number | null;
  minYear: number | null;
  maxYear: number | null;
  /** Most common genre. */
  genre: string | null;
  genres: string[];
  songCount: number;
  discCount: number;
  /** Seconds. */
  duration: number;
  size: number;
  compilation: boolean;
  /** Folder image of the album, if any. */
  coverPath: string | null;
  /** First track (disc/track order) that embeds a picture. */
  coverTrackId: string | null;
  /** Comment shared by its tracks (first non-empty). */
  comment: string | null;
  root: string;
  /** Folder of the first track. */
  folderId: string;
  createdAt: Date;
  updatedAt: Date;
  rev: number;
  [key: string]: unknown;
}

export interface ArtistDoc {
  /** `ar-` + hash of the folded name. */
  _id: string;
  name: string;
  /** Albums where this artist is an album artist. */
  albumCount: number;
  /** Tracks where this artist is a track or album artist. */
  songCount: number;
  /** Most frequent genres of its tracks, most frequent first. */
  genres: string[];
  /** Latest album with a cover (for the artist's picture until one is set). */
  coverAlbumId: string | null;
  createdAt: Date;
  rev: number;
  [key: string]: unknown;
}

export interface GenreDoc {
  /** The genre name. */
  _id: string;
  name: string;
  albumCount: number;
  songCount: number;
  rev: number;
  [key: string]: unknown;
}

export interface TombstoneDoc {
  _id: string;
  kind: 'track' | 'album' | 'artist' | 'genre';
  itemId: string;
  rev: number;
  at: Date;
  [key: string]: unknown;
}

/** A file the scanner could not read. `_id` = its absolute path. */
export interface ScanFailureDoc {
  _id: string;
  root: string;
  size: number;
  mtimeMs: number;
  ino: number;
  code: string;
  message: string;
  at: Date;
  [key: string]: unknown;
}

/** A file kept on disk but out of the library (deleteTrack mode delete_track). `_id` = its absolute path. */
export interface ExcludedFileDoc {
  _id: string;
  trackId: string;
  by: string;
  at: Date;
  [key: string]: unknown;
}

export interface LastScan {
  at: Date;
  full: boolean;
  durationMs: number;
  found: number;
  read: number;
  failed: number;
}

export interface LibraryStateDoc {
  /** 'library' */
  _id: string;
  /** Latest committed revision: every document with `rev` ≤ this is written. */
  rev: number;
  /** Tombstones up to this revision were pruned: a reader behind it reloads everything. */
  prunedRev: number;
  lastScan: LastScan | null;
  [key: string]: unknown;
}

export type ItemType = 'track' | 'album' | 'artist';

/** One user's marks on one track, album or artist. `_id` = `${userId}:${itemType}:${itemId}`. */
export interface AnnotationDoc {
  _id: string;
  userId: string;
  itemType: ItemType;
  itemId: string;
  /** When it was starred, or null. */
  starred: Date | null;
  /** 0 (none) or 1–5. */
  rating: number;
  playCount: number;
  lastPlayed: Date | null;
  updatedAt: Date;
  [key: string]: unknown;
}

/** Play counts over all users. `_id` = `${itemType}:${itemId}`. */
export interface PlayStatDoc {
  _id: string;
  itemType: ItemType;
  itemId: string;
  playCount: number;
  lastPlayed: Date;
  [key: string]: unknown;
}

export interface PlayLogDoc {
  _id: string;
  userId: string;
  trackId: string;
  albumId: string;
  artistIds: string[];
  genres: string[];
  /** Seconds, for listening-time statistics. */
  duration: number;
  playedAt: Date;
  client: string;
  [key: string]: unknown;
}

export interface PlayQueueDoc {
  /** The user id. */
  _id: string;
  trackIds: string[];
  currentId: string | null;
  /** Milliseconds into the current track. */
  position: number;
  changedAt: Date;
  changedBy: string;
  [key: string]: unknown;
}

export interface BookmarkDoc {
  /** `${userId}:${trackId}` */
  _id: string;
  userId: string;
  trackId: string;
  position: number;
  comment: string;
  createdAt: Date;
  updatedAt: Date;
  [key: string]: unknown;
}

export interface NowPlayingDoc {
  /** `${userId}:${client}` */
  _id: string;
  userId: string;
  trackId: string;
  client: string;
  since: Date;
  expiresAt: Date;
  [key: string]: unknown;
}
