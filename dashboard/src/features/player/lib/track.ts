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
  [key: string]: unknown;
}

const optional = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function toPlayerTrack(song: SubsonicChild): PlayerTrack {
  const duration = Number(song.duration);
  return {
    id: String(song.id),
    title: titleOf(song),
    artist: artistOf(song),
    artistId: optional(song.artistId),
    album: albumOf(song),
    albumId: optional(song.albumId),
    coverArt: optional(song.coverArt),
    duration: Number.isFinite(duration) && duration > 0 ? duration : 0,
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
