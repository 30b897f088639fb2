/**
 * The iTunes Search API (https://performance-partners.apple.com/search-api) as a tag source: `search` asks
 * `GET /search?term=<title artist>&media=music&entity=song&limit=N&country=<setting>` and maps each song to a
 * candidate. iTunes has track and disc numbers, release dates and covers, but no lyrics, so there is no
 * `lyrics` export. The host adds the scores.
 *
 * Covers: iTunes only lists thumbnails (`artworkUrl100`, `…/100x100bb.jpg`); its image server renders any size
 * asked for in that last path segment, up to the original, so `album_img` asks for 3000x3000 — the full
 * resolution the spec wants — instead of the thumbnail.
 *
 * Everything iTunes answers is checked before use: a field that is missing or of another type means the API
 * changed, and is reported as `response shape changed: <field>` so the /mod screen says what broke.
 */
import { defineTagSource, PluginError, type HttpCapability, type Manifest, type SearchResultSong } from '@tagsonic/sdk';
import manifest from '../manifest.json' with { type: 'json' };

/** The public service; the administrator's base URL (`TAGSONIC_SOURCE_URL_ITUNES` or settings) wins over it. */
const DEFAULT_BASE_URL = 'https://itunes.apple.com';

/** The Search API returns at most 200 results per request. */
const MAX_LIMIT = 200;

/** The size the cover is asked for; the image server answers the original when that is smaller. */
const COVER_SIZE = '3000x3000bb';

/** This plugin's grants, for typed `caps` (the manifest itself is the JSON file beside `src/`). */
type ItunesManifest = Manifest & { permissions: { http: NonNullable<Manifest['permissions']['http']> } };

/** The fields of one `/search` result this source uses, as Apple documents them (`wrapperType: 'track'`). */
interface ItunesSong {
  trackId: number;
  trackName: string;
  artistName: string;
  collectionName: string | null;
  artworkUrl100: string | null;
  trackNumber: number | null;
  trackCount: number | null;
  discNumber: number | null;
  discCount: number | null;
  releaseDate: string | null;
  trackTimeMillis: number | null;
}

const upstream = (message: string, details?: Record<string, unknown>) => new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', message, details);
const shapeChanged = (field: string) => upstream(`response shape changed: ${field}`, { field });

/**
 * GETs `/search` and returns its JSON. The body is read as text and parsed here, so an HTML error page (a 502
 * from the CDN, or Apple's 403 when the client is throttled) is reported by its HTTP status rather than as "not JSON".
 */
async function getJson(caps: { http: HttpCapability }, query: Record<string, string | number>): Promise<unknown> {
  const base = caps.http.baseUrl ?? DEFAULT_BASE_URL;
  const { status, body } = await caps.http.fetch({ url: `${base}/search`, query, responseType: 'text' });
  if (status !== 200) throw upstream(`iTunes answered HTTP ${status} to /search.`, { status });
  try {
    return JSON.parse(String(body));
  } catch {
    throw shapeChanged('(not JSON)');
  }
}

/** Checks one result's fields; `at` prefixes the field name in the error (`results[3].trackName`). */
function song(value: unknown, at: string): ItunesSong {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw shapeChanged(at);
  const v = value as Record<string, unknown>;
  const field = (name: string) => `${at}.${name}`;
  const optional = <T extends 'string' | 'number'>(name: string, type: T) => {
    if (v[name] !== null && v[name] !== undefined && typeof v[name] !== type) throw shapeChanged(field(name));
    return (v[name] as (T extends 'string' ? string : number) | null | undefined) ?? null;
  };
  if (typeof v.trackId !== 'number' || !Number.isSafeInteger(v.trackId)) throw shapeChanged(field('trackId'));
  if (typeof v.trackName !== 'string') throw shapeChanged(field('trackName'));
  if (typeof v.artistName !== 'string') throw shapeChanged(field('artistName'));
  return {
    trackId: v.trackId,
    trackName: v.trackName,
    artistName: v.artistName,
    collectionName: optional('collectionName', 'string'),
    artworkUrl100: optional('artworkUrl100', 'string'),
    trackNumber: optional('trackNumber', 'number'),
    trackCount: optional('trackCount', 'number'),
    discNumber: optional('discNumber', 'number'),
    discCount: optional('discCount', 'number'),
    releaseDate: optional('releaseDate', 'string'),
    trackTimeMillis: optional('trackTimeMillis', 'number'),
  };
}

/** The thumbnail URL with its size segment (`100x100bb.jpg`) asking for the full-size cover instead. */
const fullCover = (thumbnail: string | null): string | null =>
  thumbnail ? thumbnail.replace(/\/\d+x\d+bb(\.[a-z]+)$/i, `/${COVER_SIZE}$1`) : null;

/** `YYYY-MM-DD` of an ISO release date (`2014-10-27T07:00:00Z`), `YYYY` alone when that is all there is. */
const yearOf = (date: string | null): string | null => /^\d{4}(-\d{2}-\d{2})?/.exec(date ?? '')?.[0] ?? null;

/** A count or position iTunes reports as 0 for "unknown" is `null`, as the spec asks. */
const positive = (n: number | null): number | null => (n !== null && Number.isInteger(n) && n > 0 ? n : null);

const toSong = (s: ItunesSong): SearchResultSong => ({
  id: String(s.trackId),
  name: s.trackName,
  artist: s.artistName || null,
  album: s.collectionName || null,
  album_img: fullCover(s.artworkUrl100),
  year: yearOf(s.releaseDate),
  tracknumber: positive(s.trackNumber),
  totaltracks: positive(s.trackCount),
  discnumber: positive(s.discNumber),
  totaldiscs: positive(s.discCount),
  duration: s.trackTimeMillis !== null && s.trackTimeMillis > 0 ? Math.round(s.trackTimeMillis / 1000) : null,
  resource: manifest.id,
});

export default defineTagSource<ItunesManifest>({
  async search({ title, artist, duration, limit }, caps) {
    // iTunes matches every word of `term` against any field; the album name is left out because a store's
    // album title ("… - Single", "(Deluxe Edition)") rarely matches a file's and would hide the right song.
    if (!title?.trim() || limit <= 0) return [];
    const country = String((await caps.config.get()).country ?? 'us').trim().toLowerCase();
    if (!/^[a-z]{2}$/.test(country)) {
      throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `"${country.slice(0, 20)}" is not a two-letter store country code (us, cn, jp, …); fix it on the plugin's settings.`);
    }
    const term = [title.trim(), artist?.trim()].filter(Boolean).join(' ');
    const body = await getJson(caps, { term, media: 'music', entity: 'song', limit: Math.min(Math.ceil(limit), MAX_LIMIT), country });
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw shapeChanged('(root object)');
    const results = (body as Record<string, unknown>).results;
    if (!Array.isArray(results)) throw shapeChanged('results');
    // entity=song answers songs only; music videos or collections that slip in are not candidates.
    const songs = results
      .map((item, i) => [item, i] as const)
      .filter(([item]) => !(typeof item === 'object' && item !== null && 'kind' in item && (item as { kind: unknown }).kind !== 'song'))
      .map(([item, i]) => song(item, `results[${i}]`));
    // The file's duration, when known, puts the right edit of a song first (radio edit vs album version).
    if (typeof duration === 'number' && duration > 0) {
      const distance = (s: ItunesSong) => (s.trackTimeMillis === null ? Number.POSITIVE_INFINITY : Math.abs(s.trackTimeMillis / 1000 - duration));
      songs.sort((a, b) => distance(a) - distance(b));
    }
    return songs.slice(0, limit).map(toSong);
  },
});
