/**
 * The tag engine's vocabulary. Every other package (scanner, gateway, plugins host, dashboard types)
 * codes against these names, so they are binding: rename nothing here without changing every caller.
 */

/** The fields a user can edit, in the spec's order ("Music info" entity). */
export const EDITABLE_FIELDS = [
  'title',
  'artist',
  'album',
  'albumartist',
  'genre',
  'language',
  'year',
  'lyrics',
  'comment',
  'description',
  'discnumber',
  'totaldiscs',
  'tracknumber',
  'totaltracks',
  'composer',
  'lyricist',
  'album_type',
  'replaygain_album_gain',
  'replaygain_album_peak',
  'replaygain_track_gain',
  'replaygain_track_peak',
] as const;

export type TagField = (typeof EDITABLE_FIELDS)[number];

const FIELD_SET: ReadonlySet<string> = new Set(EDITABLE_FIELDS);
export const isTagField = (name: string): name is TagField => FIELD_SET.has(name);

/** Values as the user edits them; `null` (or an empty string) clears the tag. */
export type TagValues = Partial<Record<TagField, string | null>>;

export interface ArtworkInfo {
  mime: string;
  width: number;
  height: number;
  /** Bytes of the embedded picture. */
  size: number;
  sha256: string;
}

export interface Artwork {
  mime: string;
  data: Uint8Array;
}

/** The tags of one file as stored, normalised to the editable fields. */
export interface TagSnapshot {
  /** Every editable field; `null` when the file does not hold it. */
  fields: Record<TagField, string | null>;
  /** Individual artists: Picard's ARTISTS where present, else the values of a multi-valued artist tag. */
  artists: string[];
  albumartists: string[];
  genres: string[];
  /** The front cover (or the first picture when none is marked front). */
  artwork: ArtworkInfo | null;
}

/** Any format taglib-wasm can tag; the common ones are listed for editor completion. */
export type AudioFormat =
  | 'mp3'
  | 'flac'
  | 'm4a'
  | 'ogg'
  | 'opus'
  | 'wav'
  | 'aiff'
  | 'wma'
  | 'ape'
  | 'wv'
  | 'mpc'
  | 'tta'
  | 'dsf'
  | 'spx'
  | 'oga'
  | 'aac'
  | (string & {});

export interface AudioInfo {
  format: AudioFormat;
  codec: string;
  /** Seconds. */
  duration: number;
  /** kbps. */
  bitRate: number;
  /** Hz. */
  sampleRate: number;
  bitDepth: number | null;
  channels: number;
  /** Bytes. */
  size: number;
  lossless: boolean;
}

/** One edit of one file. Fields left out are not touched. */
export interface TagEdit {
  fields?: TagValues;
  /** A new cover replacing every embedded picture; `null` removes them all. */
  artwork?: Artwork | null;
  /**
   * Optional explicit individual artists (e.g. from a MusicBrainz credit). Without it, editing `artist`
   * derives them by splitting the display string (see `splitMultiValue`).
   */
  artists?: string[];
  albumartists?: string[];
  /** Optional explicit genres, written as a multi-valued genre tag (the display stays `fields.genre`). */
  genres?: string[];
}

export interface ReadResult {
  tags: TagSnapshot;
  audio: AudioInfo;
  /** Present only when asked for (`{ artwork: true }`) and the file has a picture. */
  artwork?: Artwork;
  /**
   * Present when parts of the tag were left out because they are beyond the engine's bounds (bounds.ts):
   * the snapshot holds the rest, and the file's tags cannot be rewritten until those parts are removed.
   */
  overflow?: TagOverflow;
}

/** What a read left out of a file's tag because it was beyond the engine's bounds (bounds.ts). */
export interface TagOverflow {
  /** Frames (or other tag items) left out. */
  frames: number;
  /** Their bytes. */
  bytes: number;
  /** The largest of them: its id (e.g. "TXXX", "APIC", or "padding") and size. */
  largest: { id: string; bytes: number };
}

export interface ReadOptions {
  artwork?: boolean;
}

export const emptyFields = (): Record<TagField, string | null> =>
  Object.fromEntries(EDITABLE_FIELDS.map((f) => [f, null])) as Record<TagField, string | null>;
