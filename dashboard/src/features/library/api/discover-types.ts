/**
 * The getDiscover payload as /rest sends it (gateway/src/subsonic/discover.ts, spec doc 2 §3 "Discover payload"),
 * written out here because the dashboard may not import server packages. Snake case where the server uses it;
 * songs and albums keep their Subsonic JSON shapes (api/types.ts).
 */
import type { SubsonicAlbum, SubsonicSong } from './types.ts';

export interface DiscoverArtistRef {
  id: string;
  name: string;
}

export interface HotArtist {
  id: string;
  name: string;
  cover: string;
  play_count: number;
  genres: string[];
  latest_album: { id: string; name: string; year?: number } | null;
  favourite: boolean;
}

export interface HotTrack {
  id: string;
  name: string;
  cover: string;
  artist_name: string;
  artist_id: string;
  album: string;
  album_id: string;
  play_count: number;
  duration: number;
}

export interface NewAlbum extends SubsonicAlbum {
  type: string;
  created_at: string;
  comment: string;
  rating: number;
  rating_count: number;
  favourite: boolean;
}

export interface FeaturedAlbum {
  id: string;
  name: string;
  cover: string;
  comment: string;
  year?: number;
  play_count: number;
  artists: DiscoverArtistRef[];
}

export interface SimilarArtist {
  id: string;
  name: string;
  coverArt?: string;
  albumCount?: number;
  starred?: string;
}

export interface Discover {
  hot_artists: HotArtist[];
  hot_track: HotTrack | null;
  random_songs: SubsonicSong[];
  recommend_albums: SubsonicAlbum[];
  new_albums: NewAlbum[];
  album: FeaturedAlbum | null;
  similar_artists: SimilarArtist[];
  recent_plays: Array<SubsonicSong & { played_at: string }>;
}
