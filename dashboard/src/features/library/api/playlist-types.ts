/**
 * Playlists and favourites as /rest sends them (gateway/src/subsonic/playlists.ts, album-lists.ts getStarred2),
 * written out here because the dashboard may not import server packages: Subsonic's fields plus the spec's
 * (isDynamic badge, privacyLevel 'exclude' = filter list, the smart rule). Only the fields the screens read.
 */
import type { SubsonicSong } from './types.ts';

export interface PlaylistSummary {
  id: string;
  name: string;
  comment?: string;
  owner?: string;
  public?: boolean;
  songCount: number;
  duration: number;
  created: string;
  changed: string;
  coverArt?: string;
  readonly?: boolean;
  isSmart?: boolean;
  isDynamic?: boolean;
  /** 'exclude' marks a filter list (its songs stay out of random play and the owner's smart playlists). */
  privacyLevel?: string;
  /** The smart rule's JSON text, limit and order, when the playlist is smart. */
  conditions?: string;
  limit?: number;
  orderBy?: string;
}

export interface PlaylistDetail extends PlaylistSummary {
  entry: SubsonicSong[];
}

export const isFilterList = (p: Pick<PlaylistSummary, 'privacyLevel'>): boolean => p.privacyLevel === 'exclude';
