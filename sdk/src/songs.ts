/**
 * The song shapes a search speaks: what the host asks a tag source for, and what a candidate looks like
 * (the spec's "Search result song"). Their own module because both the tag-source contract and the
 * capabilities that search other sources (`sources`, `match`) use them.
 */

/**
 * What the host knows about the track being tagged. `duration` (seconds) is there when the file is known,
 * and helps a source rank candidates; `limit` is how many candidates the host wants at most. `path` is the
 * file's full path when the search is for a file: a source that listens to the audio (AcoustID) hands it to
 * `caps.fingerprint.compute`, which confines it to the media roots.
 *
 * @example
 * const options: SearchOptions = { title: 'Yesterday', artist: 'The Beatles', album: 'Help!', duration: 125, limit: 15, path: '/music/Beatles/13 Yesterday.flac' };
 */
export interface SearchOptions {
  title: string;
  artist: string;
  album: string;
  duration?: number;
  limit: number;
  /** The file's full path (inside the media roots), when the search is for a file. */
  path?: string;
}

/**
 * One candidate, with the spec's "Search result song" fields. `id` is the source's own song id, passed back
 * to {@link TagSource.lyrics}; `resource` is the plugin id (the host fills it in when empty). `album_img` is
 * the full-resolution cover URL, not a thumbnail. Unknown values are `null`, never `''` or `0`.
 *
 * @example
 * const song: SearchResultSong = {
 *   id: '5ed1fe1b', name: 'Yesterday', artist: 'The Beatles', album: 'Help!',
 *   album_img: 'https://coverartarchive.org/release/5ed1fe1b/front', year: '1965',
 *   tracknumber: 13, totaltracks: 14, discnumber: 1, totaldiscs: 1, duration: 125, resource: 'musicbrainz',
 * };
 */
export interface SearchResultSong {
  id: string;
  name: string;
  artist: string | null;
  album: string | null;
  album_img: string | null;
  /** `YYYY` or `YYYY-MM-DD`, as the source gives it. */
  year: string | null;
  tracknumber: number | null;
  totaltracks: number | null;
  discnumber: number | null;
  totaldiscs: number | null;
  /** Seconds; used to break ties between candidates. */
  duration?: number | null;
  resource: string;
}
