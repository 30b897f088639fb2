/**
 * What a tag source plugin exports: search by title/artist/album, and where the source has them, lyrics
 * by song id and artist pictures. The field names are the spec's "Search result song", so the host passes
 * results to the editor's results table and the matcher unchanged (it adds the scores itself).
 */
import type { Capabilities, CapabilitiesFor } from './capabilities.ts';
import type { Manifest } from './manifest.ts';
import type { SearchOptions, SearchResultSong } from './songs.ts';

export type { SearchOptions, SearchResultSong } from './songs.ts';

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
