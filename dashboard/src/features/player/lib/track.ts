/**
 * The player's own track shape and its making from a Subsonic song (`Child` in /rest's JSON), so the queue
 * can be stored (localStorage `queue`) and played without the page that queued it.
 */
import { albumOf, artistOf, titleOf, UNKNOWN_ALBUM, UNKNOWN_ARTIST, UNKNOWN_TITLE } from '../../library/lib/format.ts';

/** One queue entry. `isStream` marks an internet radio station (`url` is its stream), not a library song. */
export interface PlayerTrack {
  id: string;
  title: string;
  artist: string;
  artistId?: string;
  album: string;
  albumId?: string;
  coverArt?: string;
  duration: number;
  isStream?: boolean;
  url?: string;
  /**
   * The file's audio type with its codec where the container says too little (`audio/mp4; codecs="alac"`), for
   * `canPlayType`: a type the browser cannot play is streamed transcoded (audio-engine.ts).
   */
  mime?: string;
}

/** The fields of a Subsonic `Child` the player reads (our /rest sends more; they are ignored). */
export interface SubsonicChild {
  id: string;
  title?: string;
  artist?: string;
  artistId?: string;
  album?: string;
  albumId?: string;
  coverArt?: string;
  duration?: number;
  contentType?: string;
  suffix?: string;
  bitDepth?: number;
  [key: string]: unknown;
}

const optional = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The audio type to ask the browser about: MP4 names its codec (ALAC, lossless with a bit depth, or AAC). */
function mimeOf(song: SubsonicChild): string | undefined {
  if (typeof song.mime === 'string' && song.mime !== '') return song.mime; // a stored queue entry
  const type = optional(song.contentType)?.toLowerCase();
  const suffix = optional(song.suffix)?.toLowerCase();
  if (suffix === 'm4a' || suffix === 'mp4' || type === 'audio/mp4') return Number(song.bitDepth) > 0 ? 'audio/mp4; codecs="alac"' : 'audio/mp4; codecs="mp4a.40.2"';
  return type;
}

export function toPlayerTrack(song: SubsonicChild): PlayerTrack {
  const duration = Number(song.duration);
  const mime = mimeOf(song);
  return {
    id: String(song.id),
    title: titleOf(song),
    artist: artistOf(song),
    artistId: optional(song.artistId),
    album: albumOf(song),
    albumId: optional(song.albumId),
    coverArt: optional(song.coverArt),
    duration: Number.isFinite(duration) && duration > 0 ? duration : 0,
    ...(mime !== undefined && { mime }),
  };
}

/**
 * A stored queue entry read back (localStorage may hold an older build's shape or a hand edit): the track,
 * or null when it has no id to play.
 */
export function restoreTrack(value: unknown): PlayerTrack | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || v.id === '') return null;
  const track = toPlayerTrack(v as SubsonicChild);
  if (v.isStream === true) track.isStream = true;
  if (typeof v.url === 'string' && v.url !== '') track.url = v.url;
  return track;
}

/** A name in the interface language when it is one of the §4 fallbacks (Chinese i18n keys), else as it is. */
export function shownName(name: string, t: (zh: string) => string): string {
  return name === UNKNOWN_TITLE || name === UNKNOWN_ARTIST || name === UNKNOWN_ALBUM ? t(name) : name;
}
