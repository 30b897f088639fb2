/**
 * What a tag source plugin exports: search by title/artist/album, and where the source has them, lyrics
 * by song id and artist pictures. The field names are the spec's "Search result song", so the host passes
 * results to the editor's results table and the matcher unchanged (it adds the scores itself).
 */
import type { Capabilities, CapabilitiesFor } from './capabilities.ts';
import type { Manifest } from './manifest.ts';

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

/**
 * What {@link TagSource.artist} returns.
 *
 * @example
 * const artist: ArtistInfo = { name: '周杰伦', image: 'https://img.example.com/jay.jpg', description: '华语流行乐男歌手…' };
 */
export interface ArtistInfo {
  name: string;
  /** Full-resolution picture URL. */
  image: string | null;
  description: string | null;
}

/**
 * A tag source's exports. `search` is required; `lyrics` and `artist` only where the source has them (the
 * host hides the lyrics button / artist lookup otherwise). Throw a {@link PluginError} on failure, and
 * name what broke: `response shape changed: result.songs` tells the administrator the site changed.
 *
 * @example
 * module.exports = defineTagSource<typeof manifest>({
 *   async search({ title, artist, limit }, caps) {
 *     const base = caps.http.baseUrl ?? 'https://lrclib.net';
 *     const { body } = await caps.http.fetch({ url: `${base}/api/search`, query: { track_name: title, artist_name: artist }, responseType: 'json' });
 *     return (body as LrclibTrack[]).slice(0, limit).map(toSong);
 *   },
 *   async lyrics({ id }, caps) {
 *     const base = caps.http.baseUrl ?? 'https://lrclib.net';
 *     const { status, body } = await caps.http.fetch({ url: `${base}/api/get/${id}`, responseType: 'json' });
 *     return status === 404 ? null : (body as LrclibTrack).syncedLyrics ?? null;
 *   },
 * });
 */
export interface TagSource<Caps = Capabilities> {
  /** Candidates, best first; an empty array when nothing matches. */
  search(options: SearchOptions, caps: Caps): Promise<SearchResultSong[]>;
  /** The lyric as LRC with `[mm:ss.xx]` time tags (plain text if the source has no timing), or `null`. */
  lyrics?(options: { id: string }, caps: Caps): Promise<string | null>;
  /** The best-matching artist, or `null`. */
  artist?(options: { keyword: string }, caps: Caps): Promise<ArtistInfo | null>;
}

/**
 * Types a tag source's exports. Pass the manifest's type to have `caps` typed by its grants.
 *
 * @example
 * module.exports = defineTagSource<typeof manifest>({ async search(options, caps) { ... } }); // caps.http is present
 */
export const defineTagSource = <M extends Manifest = Manifest>(
  source: TagSource<Manifest extends M ? Capabilities : CapabilitiesFor<M>>,
): TagSource<Manifest extends M ? Capabilities : CapabilitiesFor<M>> => source;
