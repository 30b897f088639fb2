/**
 * Stored playlist shape. Entries are track ids (random, kept when files move), so a moved or retagged
 * file stays in its playlists. Smart playlists keep their rule; dynamic ones re-evaluate it on read.
 */
import type { ConditionGroups } from './conditions.ts';

export const PLAYLISTS_COLLECTION = 'playlists';

/** Most entries a playlist holds (Navidrome and Airsonic have no hard limit; this keeps documents small). */
export const MAX_PLAYLIST_ENTRIES = 10_000;

export interface SmartRule {
  /** OR of AND groups. */
  conditions: ConditionGroups;
  /** How many songs (the spec's default 25). */
  limit: number;
  /** One of ORDER_BY (see conditions.ts). */
  orderBy: string;
}

export interface PlaylistDoc {
  /** `pl-` + a time-ordered id, so it never reads as a track, album or artist id. */
  _id: string;
  name: string;
  comment: string;
  ownerId: string;
  ownerName: string;
  public: boolean;
  /** Track ids in play order; duplicates allowed (Subsonic playlists may repeat a song). */
  trackIds: string[];
  /** Set for smart playlists. */
  smart: SmartRule | null;
  /** Smart playlists only: re-evaluate the rule on every read instead of keeping the first result. */
  isDynamic: boolean;
  /** The spec's privacyLevel "exclude": a filter list whose songs stay out of random lists. */
  exclude: boolean;
  createdAt: Date;
  updatedAt: Date;
  [key: string]: unknown;
}
