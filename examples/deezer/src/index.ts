/**
 * Deezer's public API (https://developers.deezer.com/api) as a third-party tag source — an example of a plugin
 * written outside Tagsonic's built-ins, uploaded through /mod like any other.
 *
 * `search` asks `GET /search?q=track:"…" artist:"…"&limit=N` (Deezer's advanced search syntax), whose songs carry
 * title, artist, album, duration and the album's covers; `cover_xl` is the largest Deezer lists (1000×1000).
 * Track and disc numbers and the release date are only in a song's own page, so `GET /track/<id>` is read for
 * the first {@link DETAILED} candidates, best effort: a page Deezer will not give leaves those fields null and a
 * warning in the plugin's log. `artist` asks `GET /search/artist?q=…` for the picture (Deezer has no biography).
 *
 * Deezer answers its own errors (quota, bad query) with HTTP 200 and `{ error: { type, message, code } }`; they
 * are reported with Deezer's code and message. Anything else unexpected is `response shape changed: <field>`.
 */
import { defineTagSource, PluginError, type ArtistInfo, type HttpCapability, type Manifest, type SearchResultSong } from '@tagsonic/sdk';
import manifest from '../manifest.json' with { type: 'json' };

/** The public API; the administrator's base URL (TAGSONIC_SOURCE_URL_DEEZER or /mod) wins over it. */
const DEFAULT_BASE_URL = 'https://api.deezer.com';

/** Songs whose page is read for track/disc numbers and the release date (one request each). */
const DETAILED = 5;

/** Deezer returns at most 100 results a page. */
const MAX_LIMIT = 100;

/** manifest.json's grants, so `caps` is typed by them: caps.http is there because http is granted. */
type Grants = Manifest & { permissions: { http: NonNullable<Manifest['permissions']['http']> } };

type Json = Record<string, unknown>;

const upstream = (message: string, details?: Record<string, unknown>) => new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', message, details);
const shapeChanged = (field: string) => upstream(`response shape changed: ${field}`, { field });
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * GETs a Deezer path and returns its JSON object. The body is read as text so an HTML error page is reported by
 * its status; Deezer's own `{ error }` answers are reported with its code and message.
 */
async function getJson(http: HttpCapability, path: string, query: Record<string, string | number>): Promise<Json> {
  const base = http.baseUrl ?? DEFAULT_BASE_URL;
  const { status, body } = await http.fetch({ url: `${base}${path}`, query });
  if (status !== 200) throw upstream(`Deezer answered HTTP ${status} to ${path}.`, { status });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw shapeChanged('(not JSON)');
  }
  if (!isObject(parsed)) throw shapeChanged('(root object)');
  if (isObject(parsed.error)) {
    const { code, message, type } = parsed.error;
    throw upstream(`Deezer refused ${path}: ${String(message ?? type ?? 'unknown error')} (code ${String(code ?? '?')}).`, { code: code ?? null });
  }
  return parsed;
}

/** The `data` array of a search answer. */
function dataOf(answer: Json): unknown[] {
  if (!Array.isArray(answer.data)) throw shapeChanged('data');
  return answer.data;
}

/** A phrase for Deezer's advanced search: its quotes delimit the phrase, so they cannot appear inside it. */
const phrase = (field: string, value: string) => `${field}:"${value.replace(/"/g, ' ').trim()}"`;

const text = (v: unknown, field: string): string => {
  if (typeof v !== 'string') throw shapeChanged(field);
  return v;
};
const optionalText = (v: unknown, field: string): string | null => {
  if (v === undefined || v === null || v === '') return null;
  return text(v, field);
};
const positive = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);

/** One search result → a candidate; `at` names it in errors (`data[2].album.title`). */
function toSong(value: unknown, at: string): SearchResultSong {
  if (!isObject(value)) throw shapeChanged(at);
  if (typeof value.id !== 'number' && typeof value.id !== 'string') throw shapeChanged(`${at}.id`);
  if (!isObject(value.artist)) throw shapeChanged(`${at}.artist`);
  if (!isObject(value.album)) throw shapeChanged(`${at}.album`);
  return {
    id: String(value.id),
    name: text(value.title, `${at}.title`),
    artist: optionalText(value.artist.name, `${at}.artist.name`),
    album: optionalText(value.album.title, `${at}.album.title`),
    album_img: optionalText(value.album.cover_xl, `${at}.album.cover_xl`),
    year: null,
    tracknumber: null,
    totaltracks: null,
    discnumber: null,
    totaldiscs: null,
    duration: positive(value.duration),
    resource: manifest.id,
  };
}

/** Track and disc numbers and the release date from the song's page; unchanged when Deezer will not say. */
async function withDetails(http: HttpCapability, song: SearchResultSong, log: { warn(message: string, fields?: Record<string, string>): void }): Promise<SearchResultSong> {
  try {
    const track = await getJson(http, `/track/${encodeURIComponent(song.id)}`, {});
    const date = /^\d{4}(-\d{2}-\d{2})?/.exec(typeof track.release_date === 'string' && track.release_date !== '0000-00-00' ? track.release_date : '')?.[0] ?? null;
    return { ...song, tracknumber: positive(track.track_position), discnumber: positive(track.disk_number), year: date };
  } catch (error) {
    log.warn('track details unavailable', { id: song.id, error: (error as Error).message });
    return song;
  }
}

export default defineTagSource<Grants>({
  async search({ title, artist, limit }, caps) {
    if (!title?.trim() || limit <= 0) return [];
    const q = [phrase('track', title), artist?.trim() ? phrase('artist', artist) : ''].filter(Boolean).join(' ');
    const answer = await getJson(caps.http, '/search', { q, limit: Math.min(Math.ceil(limit), MAX_LIMIT) });
    const songs = dataOf(answer).slice(0, limit).map((item, i) => toSong(item, `data[${i}]`));
    const detailed = await Promise.all(songs.slice(0, DETAILED).map((song) => withDetails(caps.http, song, caps.log)));
    return [...detailed, ...songs.slice(DETAILED)];
  },

  async artist({ keyword }, caps): Promise<ArtistInfo | null> {
    if (!keyword?.trim()) return null;
    const found = dataOf(await getJson(caps.http, '/search/artist', { q: keyword.trim(), limit: 10 }));
    const artists = found.map((a, i) => {
      if (!isObject(a)) throw shapeChanged(`data[${i}]`);
      return { name: text(a.name, `data[${i}].name`), image: optionalText(a.picture_xl, `data[${i}].picture_xl`) };
    });
    // The exact name first (Deezer ranks by popularity, so a tribute act can come before the artist).
    const wanted = keyword.trim().toLowerCase();
    const best = artists.find((a) => a.name.toLowerCase() === wanted) ?? artists[0];
    return best ? { name: best.name, image: best.image, description: null } : null;
  },
});
