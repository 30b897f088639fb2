/** The shape of a generated test library: options in, manifest out. */

export type AudioFormat = 'mp3' | 'flac' | 'm4a-aac' | 'm4a-alac' | 'ogg' | 'opus' | 'wav';

export const AUDIO_FORMATS: readonly AudioFormat[] = ['mp3', 'flac', 'm4a-aac', 'm4a-alac', 'ogg', 'opus', 'wav'];

export const FORMAT_EXTENSION: Record<AudioFormat, string> = {
  mp3: 'mp3',
  flac: 'flac',
  'm4a-aac': 'm4a',
  'm4a-alac': 'm4a',
  ogg: 'ogg',
  opus: 'opus',
  wav: 'wav',
};

export const FORMAT_CODEC: Record<AudioFormat, string> = {
  mp3: 'mp3',
  flac: 'flac',
  'm4a-aac': 'aac',
  'm4a-alac': 'alac',
  ogg: 'vorbis',
  opus: 'opus',
  wav: 'pcm_s16le',
};

export interface LibraryOptions {
  /** Folder to fill. Created if missing; must be empty or hold a library made by this generator. */
  root: string;
  /** 'small' (default): ~55 files covering every case. A number: that many audio files, tagged fast. */
  size?: 'small' | number;
  seed?: number;
  /** Formats used for tracks. CUE images are always one FLAC and one WAV. Default: all. */
  formats?: AudioFormat[];
  /** Length of each track. Default 5 s. */
  durationSec?: number;
}

export interface NormalizedLibraryOptions {
  size: 'small' | number;
  seed: number;
  formats: AudioFormat[];
  durationSec: number;
}

/** Logical tag values, exactly as written into the file. An absent field was not written. */
export interface TrackTags {
  title?: string;
  artist?: string;
  album?: string;
  albumartist?: string;
  /** A string when written as one value (which may itself hold `;` or `,` separators), an array when written as separate values. */
  genre?: string | string[];
  year?: number;
  track?: number;
  trackTotal?: number;
  disc?: number;
  discTotal?: number;
  composer?: string;
  lyricist?: string;
  comment?: string;
  lyrics?: string;
  language?: string;
  compilation?: boolean;
}

export type TagField = keyof TrackTags;

export type FileKind = 'audio' | 'cue' | 'image' | 'lyrics' | 'strm' | 'corrupt' | 'other';

export interface ImageInfo {
  mime: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  bytes: number;
}

export interface EmbeddedCover extends ImageInfo {
  /** How the picture got in: an ffmpeg attached_pic stream, a METADATA_BLOCK_PICTURE comment, or taglib-wasm. */
  via: 'attached_pic' | 'metadata_block_picture' | 'taglib-wasm';
}

export interface LrcLine {
  timeSec: number;
  text: string;
}

export interface LibraryFile {
  /** Relative to the root, `/`-separated. */
  path: string;
  kind: FileKind;
  /** Audio files, and the corrupt files that pretend to be one. */
  format?: AudioFormat;
  id3v2Version?: 3 | 4;
  /** Who wrote the tags. */
  writer?: 'ffmpeg' | 'taglib-wasm';
  /** Absent on an audio file = the file carries no tags at all. */
  tags?: TrackTags;
  /**
   * Fields stored under a key other than the one MusicBrainz Picard writes (ffmpeg's muxers cannot do
   * better), mapped to where they are: e.g. mp3 `{ comment: 'TXXX:comment', lyrics: 'TXXX:USLT' }`.
   * Readers that follow Picard's mapping strictly may not see these.
   */
  nonStandard?: Partial<Record<TagField, string>>;
  /** The individual artists an `artist` string joins (`/`, ` & `, `、`, `,`, `，`, ` feat. `). */
  artists?: string[];
  separator?: string;
  /** The individual genres a multi-value `genre` holds. */
  genres?: string[];
  cover?: EmbeddedCover;
  durationSec?: number;
  sampleRate?: number;
  channels?: number;
  /** Files with the same audioId have identical audio (fingerprint duplicates). */
  audioId?: string;
  /** CUE image: the sheet that describes it. */
  cue?: string;
  /** Image files (folder covers, scans). */
  image?: ImageInfo;
  role?: 'folder-cover' | 'scan';
  /** `.lrc` sidecar: the audio file it belongs to, and its timed lines. */
  sidecarOf?: string;
  lrc?: LrcLine[];
  /** `.strm`: the URL it holds. */
  url?: string;
  /** Corrupt files: what is wrong. */
  problem?: 'random-bytes' | 'truncated' | 'empty';
}

export interface CueTrack {
  number: number;
  title: string;
  performer: string;
  startSec: number;
  /** `MM:SS:FF` as written (75 frames per second). */
  index01: string;
  durationSec: number;
}

export interface CueSheet {
  path: string;
  /** The single audio file the sheet points at. */
  image: string;
  encoding: 'utf-8' | 'gbk';
  performer: string;
  title: string;
  genre: string;
  year: number;
  tracks: CueTrack[];
}

export interface LibraryCounts {
  files: number;
  byKind: Record<FileKind, number>;
  byFormat: Partial<Record<AudioFormat, number>>;
  artists: number;
  albums: number;
  embeddedCovers: number;
  folderCovers: number;
  lrc: number;
  cues: number;
}

export interface LibraryManifest {
  generatorVersion: number;
  root: string;
  options: NormalizedLibraryOptions;
  files: LibraryFile[];
  cues: CueSheet[];
  counts: LibraryCounts;
  /** Known limits of what could be written, in plain words. */
  notes: string[];
}
