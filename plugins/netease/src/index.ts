/**
 * NetEase Cloud Music (music.163.com) as a tag source, through the public web endpoints its own PC client and
 * web player use without login or encryption:
 * - `search`: `GET /api/cloudsearch/pc?s=<title artist>&type=1&limit=N&offset=0` — the "cloud search" answers
 *   songs in the new compact shape (`ar`, `al`, `dt`, `no`, `cd`, `publishTime`), with the album's cover URL.
 *   The search has no album sizes, so the first few distinct albums are read from `GET /api/v1/album/<id>` for
 *   `totaltracks` (`album.size`) and `totaldiscs` (the highest `cd` of its songs).
 * - `lyrics`: `GET /api/song/lyric?id=<song id>&lv=-1&kv=-1&tv=-1` — the LRC (`lrc.lyric`), normalised here.
 * - `artist`: `GET /api/cloudsearch/pc?type=100` for the artist and picture, then
 *   `GET /api/artist/head/info/get?id=<artist id>` for the biography (`briefDesc`).
 * NetEase refuses some requests without a browser's Referer, so every call sends `Referer: https://music.163.com/`.
 *
 * Covers: NetEase's image CDN (`p1.music.126.net`) serves a thumbnail when the URL carries `?param=<w>y<h>` and
 * the original upload without it, so `album_img` and the artist picture are the URL without a query, over https.
 *
 * Everything NetEase answers is checked before use: a field that is missing or of another type means the API
 * changed, and is reported as `response shape changed: <field>` so the /mod screen says what broke. An answer
 * whose own `code` is not 200 (NetEase answers HTTP 200 with `{"code":-460,"message":"Cheating"}` when it blocks
 * a client) is reported with that code.
 */
import { defineTagSource, PluginError, type ArtistInfo, type HttpCapability, type LogCapability, type Manifest, type SearchResultSong } from '@tagsonic/sdk';
import manifest from '../manifest.json' with { type: 'json' };
import { normaliseLrc } from './lrc.ts';

/** The public service; the administrator's base URL (`TAGSONIC_SOURCE_URL_NETEASE` or settings) wins over it. */
const DEFAULT_BASE_URL = 'https://music.163.com';

/** NetEase answers some anonymous clients only when they look like its web player. */
const HEADERS = {
  referer: 'https://music.163.com/',
  'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  accept: 'application/json, text/plain, */*',
};

/** The cloud search answers at most 100 results per page. */
const MAX_LIMIT = 100;

/**
 * How many distinct albums of a search are read for their track and disc counts: the candidates a user looks at
 * first, at one request each (the runtime paces requests, so reading every album of 20 candidates would take
 * seconds); later candidates keep `null` counts.
 */
const ALBUM_DETAILS = 5;

/** Search `type` values: 1 songs, 100 artists. */
const SONGS = 1;
const ARTISTS = 100;

/** Release dates are midnight in Beijing (UTC+8), sent as epoch milliseconds. */
const BEIJING_OFFSET_MS = 8 * 3600 * 1000;

/** This plugin's grants, for typed `caps` (the manifest itself is the JSON file beside `src/`). */
type NeteaseManifest = Manifest & { permissions: { http: NonNullable<Manifest['permissions']['http']> } };
type Caps = { http: HttpCapability };

/** The fields of one cloud-search song this source uses, checked. */
interface NeteaseSong {
  id: number;
  name: string;
  artists: string[];
  /** The album's id, 0 when the song has none. */
  albumId: number;
  album: string | null;
  picUrl: string | null;
  /** Milliseconds. */
  dt: number | null;
  no: number | null;
  /** Disc, sent as a string (`"01"`, `"1"`, `""`). */
  cd: string | number | null;
  /** Epoch milliseconds; 0 or absent when unknown. */
  publishTime: number | null;
}

const upstream = (message: string, details?: Record<string, unknown>) => new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', message, details);
const shapeChanged = (field: string) => upstream(`response shape changed: ${field}`, { field });

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * GETs one endpoint and returns its JSON object. The body is read as text and parsed here, so an HTML error page
 * (a 502 from the CDN) is reported by its HTTP status rather than as "not JSON"; NetEase's own refusal codes in a
 * 200 answer are reported with the code and message it gives.
 */
async function getJson(caps: Caps, path: string, query: Record<string, string | number>): Promise<Json> {
  const base = caps.http.baseUrl ?? DEFAULT_BASE_URL;
  const { status, body } = await caps.http.fetch({ url: `${base}${path}`, query, headers: HEADERS, responseType: 'text' });
  if (status !== 200) throw upstream(`NetEase answered HTTP ${status} to ${path}.`, { status });
  let json: unknown;
  try {
    json = JSON.parse(String(body));
  } catch {
    throw shapeChanged('(not JSON)');
  }
  if (!isObject(json)) throw shapeChanged('(root object)');
  if (typeof json.code === 'number' && json.code !== 200) {
    const said = typeof json.message === 'string' ? json.message : typeof json.msg === 'string' ? json.msg : '';
    throw upstream(`NetEase answered code ${json.code} to ${path}${said ? ` (${said.slice(0, 200)})` : ''}.`, { status, apiCode: json.code });
  }
  return json;
}

/** Checks one song; `at` prefixes the field name in the error (`result.songs[3].name`). */
function song(value: unknown, at: string): NeteaseSong {
  if (!isObject(value)) throw shapeChanged(at);
  const field = (name: string) => `${at}.${name}`;
  const optional = <T extends 'string' | 'number'>(object: Json, name: string, type: T, where: string) => {
    if (object[name] !== null && object[name] !== undefined && typeof object[name] !== type) throw shapeChanged(where);
    return (object[name] as (T extends 'string' ? string : number) | null | undefined) ?? null;
  };
  if (typeof value.id !== 'number' || !Number.isSafeInteger(value.id)) throw shapeChanged(field('id'));
  if (typeof value.name !== 'string') throw shapeChanged(field('name'));
  if (!Array.isArray(value.ar)) throw shapeChanged(field('ar'));
  const artists = value.ar.map((artist, i) => {
    if (!isObject(artist)) throw shapeChanged(field(`ar[${i}]`));
    return optional(artist, 'name', 'string', field(`ar[${i}].name`));
  });
  const al = value.al ?? null;
  if (al !== null && !isObject(al)) throw shapeChanged(field('al'));
  if (value.cd !== null && value.cd !== undefined && typeof value.cd !== 'string' && typeof value.cd !== 'number') throw shapeChanged(field('cd'));
  return {
    id: value.id,
    name: value.name,
    artists: artists.filter((name): name is string => !!name?.trim()),
    albumId: al ? (optional(al, 'id', 'number', field('al.id')) ?? 0) : 0,
    album: al ? optional(al, 'name', 'string', field('al.name')) : null,
    picUrl: al ? optional(al, 'picUrl', 'string', field('al.picUrl')) : null,
    dt: optional(value, 'dt', 'number', field('dt')),
    no: optional(value, 'no', 'number', field('no')),
    cd: (value.cd as string | number | null | undefined) ?? null,
    publishTime: optional(value, 'publishTime', 'number', field('publishTime')),
  };
}

/** The original image: the CDN's `?param=WxH` thumbnail query removed, over https. */
function fullImage(url: string | null): string | null {
  if (!url?.trim()) return null;
  return url.trim().replace(/^http:\/\//i, 'https://').replace(/[?#].*$/, '');
}

/** `YYYY-MM-DD` of a release date in epoch milliseconds (Beijing time), null when unknown (0 or absent). */
function dateOf(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || ms <= 0) return null;
  return new Date(ms + BEIJING_OFFSET_MS).toISOString().slice(0, 10);
}

/** A position or count; NetEase sends 0 (or "" / "00" for discs) when it does not know. */
const positive = (n: string | number | null): number | null => {
  const value = typeof n === 'string' ? Number.parseInt(n, 10) : n;
  return value !== null && Number.isInteger(value) && value > 0 ? value : null;
};

/** An album's track and disc counts; `null` where NetEase does not say. */
interface AlbumCounts {
  tracks: number | null;
  discs: number | null;
}

/**
 * The counts of album `id` from `/api/v1/album/<id>`: `album.size`, else the number of songs listed, and the
 * highest disc (`cd`) among them. Throws like every call here; the caller decides what a failure means.
 */
async function albumCounts(caps: Caps, id: number): Promise<AlbumCounts> {
  const json = await getJson(caps, `/api/v1/album/${id}`, {});
  if (!isObject(json.album)) throw shapeChanged('album');
  const size = json.album.size ?? null;
  if (size !== null && typeof size !== 'number') throw shapeChanged('album.size');
  const songs = json.songs ?? [];
  if (!Array.isArray(songs)) throw shapeChanged('songs');
  const discs = songs.map((s) => (isObject(s) && (typeof s.cd === 'string' || typeof s.cd === 'number') ? positive(s.cd) ?? 0 : 0));
  const highest = Math.max(0, ...discs);
  return { tracks: positive(size) ?? (songs.length > 0 ? songs.length : null), discs: highest > 0 ? highest : null };
}

/**
 * Counts for the first {@link ALBUM_DETAILS} distinct albums among `songs`, by album id. Best effort: an album
 * NetEase will not describe (an error, a changed shape) only leaves its counts `null` and is logged, because the
 * candidates themselves are fine.
 */
async function albumsOf(caps: Caps & { log: LogCapability }, songs: NeteaseSong[]): Promise<Map<number, AlbumCounts>> {
  const ids = [...new Set(songs.map((s) => s.albumId).filter((id) => Number.isSafeInteger(id) && id > 0))].slice(0, ALBUM_DETAILS);
  const counts = new Map<number, AlbumCounts>();
  await Promise.all(ids.map(async (id) => {
    try {
      counts.set(id, await albumCounts(caps, id));
    } catch (error) {
      caps.log.warn('album counts unavailable', { albumId: id, error: error instanceof Error ? error.message : String(error) });
    }
  }));
  return counts;
}

const toSong = (s: NeteaseSong, album: AlbumCounts | undefined): SearchResultSong => ({
  id: String(s.id),
  name: s.name,
  artist: s.artists.length > 0 ? s.artists.join('/') : null,
  album: s.album?.trim() || null,
  album_img: fullImage(s.picUrl),
  year: dateOf(s.publishTime),
  tracknumber: positive(s.no),
  totaltracks: album?.tracks ?? null,
  discnumber: positive(s.cd),
  totaldiscs: album?.discs ?? null,
  duration: s.dt !== null && s.dt > 0 ? Math.round(s.dt / 1000) : null,
  resource: manifest.id,
});

/** `result.<list>` of a cloud search: [] when NetEase found nothing (it then leaves the list out). */
function resultList(json: Json, list: string): unknown[] {
  if (!isObject(json.result)) throw shapeChanged('result');
  const items = json.result[list];
  if (items === undefined || items === null) return [];
  if (!Array.isArray(items)) throw shapeChanged(`result.${list}`);
  return items;
}

/** The search term: title and artist (the album is left out: NetEase's album names rarely match a file's). */
const term = (...parts: (string | undefined)[]) => parts.map((p) => p?.trim() ?? '').filter(Boolean).join(' ');

export default defineTagSource<NeteaseManifest>({
  async search({ title, artist, limit }, caps) {
    if (!title?.trim() || limit <= 0) return [];
    const json = await getJson(caps, '/api/cloudsearch/pc', { s: term(title, artist), type: SONGS, limit: Math.min(Math.ceil(limit), MAX_LIMIT), offset: 0 });
    const songs = resultList(json, 'songs')
      .map((item, i) => song(item, `result.songs[${i}]`))
      .slice(0, limit);
    const albums = await albumsOf(caps, songs);
    return songs.map((s) => toSong(s, albums.get(s.albumId)));
  },

  async lyrics({ id }, caps) {
    if (!/^\d{1,20}$/.test(String(id))) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `"${String(id).slice(0, 40)}" is not a NetEase song id (digits).`);
    const json = await getJson(caps, '/api/song/lyric', { id: String(id), lv: -1, kv: -1, tv: -1 });
    // `nolyric`: instrumental; `uncollected`: nobody has uploaded one yet. Both are "no lyrics", not errors.
    if (json.nolyric === true || json.uncollected === true || json.lrc === undefined || json.lrc === null) return null;
    if (!isObject(json.lrc)) throw shapeChanged('lrc');
    const lyric = json.lrc.lyric ?? null;
    if (lyric !== null && typeof lyric !== 'string') throw shapeChanged('lrc.lyric');
    const text = lyric ? normaliseLrc(lyric) : '';
    return text || null;
  },

  async artist({ keyword }, caps): Promise<ArtistInfo | null> {
    if (!keyword?.trim()) return null;
    const wanted = keyword.trim().toLowerCase();
    const json = await getJson(caps, '/api/cloudsearch/pc', { s: keyword.trim(), type: ARTISTS, limit: 10, offset: 0 });
    const artists = resultList(json, 'artists').map((item, i) => {
      const at = `result.artists[${i}]`;
      if (!isObject(item)) throw shapeChanged(at);
      if (typeof item.id !== 'number' || !Number.isSafeInteger(item.id)) throw shapeChanged(`${at}.id`);
      if (typeof item.name !== 'string') throw shapeChanged(`${at}.name`);
      for (const name of ['picUrl', 'img1v1Url']) {
        if (item[name] !== null && item[name] !== undefined && typeof item[name] !== 'string') throw shapeChanged(`${at}.${name}`);
      }
      const alias = Array.isArray(item.alias) ? item.alias.filter((a): a is string => typeof a === 'string') : [];
      return { id: item.id, name: item.name, alias, picture: (item.picUrl as string | null | undefined) || (item.img1v1Url as string | null | undefined) || null };
    });
    // The exact name (or an alias: 周杰伦 / Jay Chou) wins over NetEase's relevance order.
    const best = artists.find((a) => a.name.trim().toLowerCase() === wanted || a.alias.some((x) => x.trim().toLowerCase() === wanted)) ?? artists[0];
    if (!best) return null;
    const head = await getJson(caps, '/api/artist/head/info/get', { id: best.id });
    if (!isObject(head.data)) throw shapeChanged('data');
    const detail = head.data.artist ?? null;
    if (detail !== null && !isObject(detail)) throw shapeChanged('data.artist');
    const brief = detail?.briefDesc ?? null;
    if (brief !== null && typeof brief !== 'string') throw shapeChanged('data.artist.briefDesc');
    return { name: best.name, image: fullImage(best.picture), description: brief?.trim() || null };
  },
});
