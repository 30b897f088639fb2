/**
 * Playlists and favourites as /rest sends them (gateway/src/subsonic/playlists.ts, album-lists.ts getStarred2),
 * written out here because the dashboard may not import server packages: Subsonic's fields plus the spec's
 * (isDynamic badge, privacyLevel 'exclude' = filter list, the smart rule). Only the fields the screens read.
 */

/** A song in Subsonic JSON (`Child`). */
export interface PlaylistSong {
  id: string;
  title: string;
  album?: string;
  albumId?: string;
  artist?: string;
  artistId?: string;
  coverArt?: string;
  duration?: number;
  size?: number;
  bitRate?: number;
  playCount?: number;
  year?: number;
  genre?: string;
  starred?: string;
  path?: string;
  [key: string]: unknown;
}

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
  entry: PlaylistSong[];
}

export const isFilterList = (p: Pick<PlaylistSummary, 'privacyLevel'>): boolean => p.privacyLevel === 'exclude';

/** An album in Subsonic JSON (`AlbumID3`), as getStarred2 lists it. */
export interface StarredAlbum {
  id: string;
  name: string;
  artist?: string;
  artistId?: string;
  coverArt?: string;
  songCount?: number;
  year?: number;
  starred?: string;
}

/** An artist in Subsonic JSON (`ArtistID3`), as getStarred2 lists it. */
export interface StarredArtist {
  id: string;
  name: string;
  coverArt?: string;
  artistImageUrl?: string;
  albumCount?: number;
  starred?: string;
}
