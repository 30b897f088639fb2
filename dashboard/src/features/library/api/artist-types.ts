/**
 * Artists and genres as our /rest sends them in JSON (gateway/src/subsonic/browsing.ts, mappers.ts), and the
 * answers of the dashboard's artist/genre entity routes (gateway/src/routes/library-entities.ts), written out
 * here because the dashboard may not import server packages. Only the fields the artist and genre screens read.
 */
import type { SubsonicAlbum } from './types.ts';

/** An artist (Subsonic `ArtistID3`). */
export interface SubsonicArtist {
  id: string;
  name: string;
  coverArt?: string;
  albumCount?: number;
  starred?: string;
  artistImageUrl?: string;
  [key: string]: unknown;
}

/** getArtist: the artist and the albums it is the album artist of. */
export interface SubsonicArtistDetail extends SubsonicArtist {
  album?: SubsonicAlbum[];
}

/** getArtistInfo2: the biography (the artist's description) and similar artists. */
export interface SubsonicArtistInfo {
  biography?: string;
  smallImageUrl?: string;
  mediumImageUrl?: string;
  largeImageUrl?: string;
  similarArtist?: SubsonicArtist[];
}

/** getGenres: a genre is named by its value (its id in the routes). */
export interface SubsonicGenre {
  value: string;
  albumCount: number;
  songCount: number;
  coverArt?: string;
}

/** An artist candidate of POST /apimt/fetch_artists/ (a tag source's artist search). */
export interface ArtistCandidate {
  artist: string;
  artist_img: string;
  desc: string;
  resource: string;
}

/** A cover suggestion of GET /apimt/genre_playlist_cover/ (one of the genre's albums). */
export interface GenreCoverSuggestion {
  coverArt: string;
  artist: string;
  album: string;
}

/** What delete_artist / delete_genre answer: the files.delete (or tag edit) task and how many tracks it covers. */
export interface EntityDeleteTask {
  task_id: string | null;
  total: number;
  /** Only with dry_run: the files a delete would move to the trash. */
  paths?: string[];
}
