/**
 * LRCLIB (https://lrclib.net) as a tag source: `search` finds tracks by title/artist/album through
 * `GET /api/search`, `lyrics` fetches one by id through `GET /api/get/{id}` and prefers the synced LRC over the
 * plain text. LRCLIB has no covers, years or track numbers, so those fields are `null`; candidates are mostly
 * useful for their lyrics and durations. The host normalises the LRC (core/src/lyrics) and adds the scores.
 *
 * Everything LRCLIB answers is checked before use: a field that is missing or of another type means the API
 * changed, and is reported as `response shape changed: <field>` so the /mod screen says what broke.
 */
import { defineTagSource, PluginError, type HttpCapability, type Manifest, type SearchResultSong } from '@tagsonic/sdk';
import manifest from '../manifest.json' with { type: 'json' };

/** The public service; the administrator's base URL (`TAGSONIC_SOURCE_URL_LRCLIB` or settings) wins over it. */
const DEFAULT_BASE_URL = 'https://lrclib.net';

/** LRCLIB asks clients to name themselves (app, version, homepage) in the User-Agent. */
const USER_AGENT = `Tagsonic-lrclib/${manifest.version} (+https://lrclib.net/docs; a Tagsonic tag source)`;

/** This plugin's grants, for typed `caps` (the manifest itself is the JSON file beside `src/`). */
type LrclibManifest = Manifest & { permissions: { http: NonNullable<Manifest['permissions']['http']> } };

/** One record of `/api/search` and `/api/get/{id}`, as LRCLIB documents it. */
interface LrclibTrack {
  id: number;
  trackName: string;
  artistName: string;
  albumName: string | null;
  duration: number | null;
  instrumental: boolean;
  plainLyrics: string | null;
  syncedLyrics: string | null;
}

const upstream = (message: string, details?: Record<string, unknown>) => new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', message, details);
const shapeChanged = (field: string) => upstream(`response shape changed: ${field}`, { field });

/**
 * GETs one LRCLIB endpoint and returns its JSON, or `null` on 404. The body is read as text and parsed here, so
 * an HTML error page (a 502 from the CDN) is reported by its HTTP status rather than as "not JSON".
 */
async function getJson(caps: { http: HttpCapability }, path: string, query?: Record<string, string | undefined>): Promise<unknown> {
  const base = caps.http.baseUrl ?? DEFAULT_BASE_URL;
  const { status, body } = await caps.http.fetch({ url: `${base}${path}`, query, headers: { 'user-agent': USER_AGENT }, responseType: 'text' });
  if (status === 404) return null;
  if (status !== 200) throw upstream(`LRCLIB answered HTTP ${status} to ${path}.`, { status });
  try {
    return JSON.parse(String(body));
  } catch {
    throw shapeChanged('(not JSON)');
  }
}

/** Checks one record's fields; `at` prefixes the field name in the error (`[3].trackName`). */
function track(value: unknown, at: string): LrclibTrack {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw shapeChanged(at || '(root object)');
  const v = value as Record<string, unknown>;
  const field = (name: string) => (at ? `${at}.${name}` : name);
  const nullableString = (name: string) => {
    if (v[name] !== null && v[name] !== undefined && typeof v[name] !== 'string') throw shapeChanged(field(name));
    return (v[name] as string | null | undefined) ?? null;
  };
  if (typeof v.id !== 'number' || !Number.isSafeInteger(v.id)) throw shapeChanged(field('id'));
  if (typeof v.trackName !== 'string') throw shapeChanged(field('trackName'));
  if (typeof v.artistName !== 'string') throw shapeChanged(field('artistName'));
  if (v.duration !== null && v.duration !== undefined && typeof v.duration !== 'number') throw shapeChanged(field('duration'));
  if (v.instrumental !== undefined && typeof v.instrumental !== 'boolean') throw shapeChanged(field('instrumental'));
  return {
    id: v.id,
    trackName: v.trackName,
    artistName: v.artistName,
    albumName: nullableString('albumName'),
    duration: (v.duration as number | null | undefined) ?? null,
    instrumental: v.instrumental === true,
    plainLyrics: nullableString('plainLyrics'),
    syncedLyrics: nullableString('syncedLyrics'),
  };
}

const toSong = (t: LrclibTrack): SearchResultSong => ({
  id: String(t.id),
  name: t.trackName,
  artist: t.artistName || null,
  album: t.albumName || null,
  album_img: null, // LRCLIB has no artwork
  year: null,
  tracknumber: null,
  totaltracks: null,
  discnumber: null,
  totaldiscs: null,
  duration: t.duration,
  resource: manifest.id,
});

/** Synced LRC first, else the plain text; `null` for an instrumental or a track without lyrics. */
const lyricOf = (t: LrclibTrack): string | null => (t.instrumental ? null : t.syncedLyrics?.trim() ? t.syncedLyrics : t.plainLyrics?.trim() ? t.plainLyrics : null);

export default defineTagSource<LrclibManifest>({
  async search({ title, artist, album, duration, limit }, caps) {
    // LRCLIB refuses a search without a track name (HTTP 400); no title means nothing to look for.
    if (!title?.trim()) return [];
    // Blank values are left out: LRCLIB filters on every parameter it is given.
    const body = await getJson(caps, '/api/search', { track_name: title.trim(), artist_name: artist?.trim() || undefined, album_name: album?.trim() || undefined });
    if (body === null) throw upstream('LRCLIB answered HTTP 404 to /api/search.', { status: 404 });
    if (!Array.isArray(body)) throw shapeChanged('(root array)');
    const tracks = body.map((item, i) => track(item, `[${i}]`));
    // The file's duration, when known, puts the right edit of a song first (radio edit vs album version).
    if (typeof duration === 'number' && duration > 0) {
      const distance = (t: LrclibTrack) => (t.duration === null ? Number.POSITIVE_INFINITY : Math.abs(t.duration - duration));
      tracks.sort((a, b) => distance(a) - distance(b));
    }
    return tracks.slice(0, Math.max(0, limit)).map(toSong);
  },

  async lyrics({ id }, caps) {
    if (typeof id !== 'string' || !/^[1-9][0-9]{0,15}$/.test(id)) {
      throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `"${String(id).slice(0, 40)}" is not an LRCLIB track id.`);
    }
    const body = await getJson(caps, `/api/get/${id}`);
    // 404 ({ code: 404, name: 'TrackNotFound' }): the track is gone, and so are its lyrics.
    return body === null ? null : lyricOf(track(body, ''));
  },
});
