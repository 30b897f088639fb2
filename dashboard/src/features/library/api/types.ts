/**
 * Albums and songs as our /rest sends them in JSON (gateway/src/subsonic/mappers.ts), written out here
 * because the dashboard may not import server packages. Only the fields the library screens read.
 */

/** A song (Subsonic `Child`). `fromFolder` is the spec's source marker: 'webdav' shows the cloud badge. */
export interface SubsonicSong {
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
  suffix?: string;
  playCount?: number;
  track?: number;
  discNumber?: number;
  year?: number;
  genre?: string;
  starred?: string;
  created?: string;
  path?: string;
  fromFolder?: string;
  [key: string]: unknown;
}

/** An album (Subsonic `AlbumID3`; getAlbum adds `song`). */
export interface SubsonicAlbum {
  id: string;
  name: string;
  artist?: string;
  artistId?: string;
  coverArt?: string;
  songCount?: number;
  duration?: number;
  playCount?: number;
  played?: string;
  created?: string;
  year?: number;
  genre?: string;
  genres?: { name: string }[];
  artists?: { id: string; name: string }[];
  starred?: string;
  comment?: string;
  [key: string]: unknown;
}

export interface SubsonicAlbumDetail extends SubsonicAlbum {
  song?: SubsonicSong[];
}
