/**
 * Kuwo Music (kuwo.cn) as a tag source, through the public endpoints Kuwo's own players call without login,
 * token or encryption:
 * - `search`: `GET search.kuwo.cn/r.s?all=<title artist>&ft=music&rn=N&rformat=json&encoding=utf8&vermerge=1&mobi=1…`
 *   — the songs (`abslist`) with name, artists, album, duration and the album cover's short path.
 * - `lyrics`: `GET m.kuwo.cn/newh5/singles/songinfoandlrc?musicId=<id>&httpsStatus=1` — the lyric as timed lines
 *   (`lrclist: [{ time: "12.34", lineLyric }]`), written here as LRC `[mm:ss.xx]`.
 * - `artist` (the spec's default source for fetch_artist_by_keyword): `r.s?all=<keyword>&ft=artist` for the
 *   artist id, then `r.s?stype=artistinfo&artistid=<id>` for the name, picture and biography.
 * The search answers carry no release date or track numbers; the first few distinct albums are read from
 *   `r.s?stype=albuminfo&albumid=<id>` for the track count (`songnum`), the song's position in the album's
 *   `musiclist` (its track number) and the release date (`pub`) when Kuwo gives one. Kuwo has no disc numbers.
 *
 * Covers: Kuwo's image server renders the size named in the path (`/star/albumcover/<size>/…`, `/star/starheads/
 * <size>/…`); the search gives the 120 px one (`web_albumpic_short: "120/s3s94/93/211513640.jpg"`), so
 * `album_img` asks for 1000 px, the largest album size it serves, and artist pictures for 500 px.
 *
 * Everything Kuwo answers is checked before use: a field that is missing or of another type means the API
 * changed, and is reported as `response shape changed: <field>` so the /mod screen says what broke.
 */
import { defineTagSource, PluginError, type ArtistInfo, type HttpCapability, type LogCapability, type Manifest, type SearchResultSong } from '@tagsonic/sdk';
import manifest from '../manifest.json' with { type: 'json' };
import { parseLoose, plainText } from './text.ts';

/**
 * Kuwo's two API hosts. The administrator's base URL (`TAGSONIC_SOURCE_URL_KUWO` or settings) replaces both:
 * their paths (`/r.s`, `/newh5/…`) do not overlap, so one proxy or mirror can answer all of them.
 */
const SEARCH_BASE_URL = 'https://search.kuwo.cn';
const LYRIC_BASE_URL = 'https://m.kuwo.cn';

/** Covers and artist pictures: the image server, and the sizes asked for. */
const IMAGE_BASE_URL = 'https://img1.kuwo.cn/star';
const ALBUM_COVER_SIZE = 1000;
const ARTIST_PICTURE_SIZE = 500;

const HEADERS = {
  'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  referer: 'https://www.kuwo.cn/',
};

/** The fixed part of a search: UTF-8 JSON, one entry per song (versions merged), copyright-less songs included. */
const SEARCH_QUERY = {
  client: 'kt', pn: 0, rformat: 'json', encoding: 'utf8', vipver: 1, newver: 1, show_copyright_off: 1, cluster: 0,
  strategy: 2012, vermerge: 1, mobi: 1,
};

/**
 * How many distinct albums of a search are read for their track list: the candidates a user looks at first, at
 * one request each; later candidates keep `null` numbers.
 */
const ALBUM_DETAILS = 5;

/** The longest track list asked for (box sets beyond it keep a `null` position for later songs). */
const ALBUM_TRACKS = 300;

/** Kuwo pages its search by up to 100 results. */
const MAX_LIMIT = 100;

/** This plugin's grants, for typed `caps` (the manifest itself is the JSON file beside `src/`). */
type KuwoManifest = Manifest & { permissions: { http: NonNullable<Manifest['permissions']['http']> } };
type Caps = { http: HttpCapability };
type Json = Record<string, unknown>;

const upstream = (message: string, details?: Record<string, unknown>) => new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', message, details);
const shapeChanged = (field: string) => upstream(`response shape changed: ${field}`, { field });
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * GETs `path` on the administrator's base URL or `defaultBase`, and returns the answer's object. The body is read
 * as text and parsed here (JSON or Kuwo's single-quoted literal), so an HTML error page is reported by its HTTP
 * status rather than as "not JSON".
 */
async function getObject(caps: Caps, defaultBase: string, path: string, query: Record<string, string | number>): Promise<Json> {
  const base = caps.http.baseUrl ?? defaultBase;
  const { status, body } = await caps.http.fetch({ url: `${base}${path}`, query, headers: HEADERS, responseType: 'text' });
  if (status !== 200) throw upstream(`Kuwo answered HTTP ${status} to ${path}.`, { status });
  let json: unknown;
  try {
    json = parseLoose(String(body).trim());
  } catch {
    throw shapeChanged('(not JSON)');
  }
  if (!isObject(json)) throw shapeChanged('(root object)');
  return json;
}

/** A string field; Kuwo sends numbers as strings but not always, so both are read. `at` prefixes the error's field. */
function text(object: Json, name: string, at: string, required: boolean): string | null {
  const value = object[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if ((value === undefined || value === null) && !required) return null;
  throw shapeChanged(at ? `${at}.${name}` : name);
}

/** `abslist`: [] when Kuwo found nothing (it then sends an empty list, or none with `TOTAL: "0"`). */
function absList(json: Json): unknown[] {
  if (json.abslist === undefined && (json.TOTAL === '0' || json.TOTAL === 0)) return [];
  if (!Array.isArray(json.abslist)) throw shapeChanged('abslist');
  return json.abslist;
}

/** How often an `r.s` search is asked when Kuwo answers an empty page for a non-zero total. */
const SEARCH_ATTEMPTS = 2;

/**
 * The `abslist` of an `r.s` search. Kuwo's search now and then answers `SHOW: "0"` with an empty list although
 * `TOTAL` counts matches (a busy index node); asking again gets the page, so that answer is retried once, and
 * reported rather than passed off as "no match" if it comes twice.
 */
async function searchList(caps: Caps, query: Record<string, string | number>): Promise<unknown[]> {
  for (let attempt = 1; ; attempt += 1) {
    const json = await getObject(caps, SEARCH_BASE_URL, '/r.s', query);
    const items = absList(json);
    const total = Number(json.TOTAL);
    const hollow = items.length === 0 && String(json.SHOW) === '0' && Number.isFinite(total) && total > 0;
    if (!hollow) return items;
    if (attempt >= SEARCH_ATTEMPTS) {
      throw upstream(`Kuwo answered an empty page for ${total} matches ${SEARCH_ATTEMPTS} times to /r.s; try again later.`, { status: 200, total });
    }
  }
}

/**
 * The image at `size`: a short path (`120/s3s94/93/211513640.jpg`, its first segment the size when it has four)
 * or a full URL on the image server (`…/star/albumcover/300/…`), under `kind` (`albumcover`, `starheads`).
 */
function sizedImage(value: string | null, kind: 'albumcover' | 'starheads', size: number): string | null {
  const raw = value?.trim() ?? '';
  if (!raw) return null;
  if (/^(https?:)?\/\//i.test(raw)) {
    // Kuwo's own image servers answer https, so their http links are upgraded; a picture on another host (a mirror
    // or a replay at the administrator's base URL) is kept as given.
    const ours = raw.startsWith('//') || /^https?:\/\/([a-z0-9-]+\.)*kuwo\.cn([/:]|$)/i.test(raw);
    const url = ours ? raw.replace(/^(https?:)?\/\//i, 'https://') : raw;
    return url.replace(new RegExp(`/${kind}/\\d+/`), `/${kind}/${size}/`);
  }
  const segments = raw.replace(/^\/+/, '').split('/');
  if (segments.length >= 4 && /^\d+$/.test(segments[0]!)) segments.shift();
  return `${IMAGE_BASE_URL}/${kind}/${size}/${segments.join('/')}`;
}

/** Kuwo joins several artists with `&` (`周杰伦&五月天`); a spaced ` & ` is part of a name (`Simon & Garfunkel`). */
const artists = (names: string) => names.split(/(?<! )&(?! )/).map((n) => plainText(n)).filter(Boolean).join('/');

/** One search hit and the id of its album (`''` when it has none). */
interface Hit {
  song: SearchResultSong;
  albumId: string;
}

function toHit(value: unknown, at: string): Hit {
  if (!isObject(value)) throw shapeChanged(at);
  const rid = text(value, 'MUSICRID', at, true)!;
  const id = /^MUSIC_(\d+)$/.exec(rid)?.[1];
  if (!id) throw shapeChanged(`${at}.MUSICRID`);
  const name = text(value, 'SONGNAME', at, false) ?? text(value, 'NAME', at, true)!;
  const duration = Number(text(value, 'DURATION', at, false));
  const albumId = text(value, 'ALBUMID', at, false) ?? '';
  const song: SearchResultSong = {
    id,
    name: plainText(name),
    artist: artists(text(value, 'ARTIST', at, false) ?? '') || null,
    album: plainText(text(value, 'ALBUM', at, false) ?? '') || null,
    album_img: sizedImage(text(value, 'web_albumpic_short', at, false), 'albumcover', ALBUM_COVER_SIZE),
    year: null,
    tracknumber: null,
    totaltracks: null,
    discnumber: null,
    totaldiscs: null,
    duration: Number.isFinite(duration) && duration > 0 ? Math.round(duration) : null,
    resource: manifest.id,
  };
  return { song, albumId: /^\d+$/.test(albumId) && albumId !== '0' ? albumId : '' };
}

/** What an album's `albuminfo` tells about its songs. */
interface AlbumInfo {
  /** Song ids in album order. */
  order: string[];
  tracks: number | null;
  /** `YYYY-MM-DD` or `YYYY`, when Kuwo gives a release date. */
  released: string | null;
}

/** Album `id`'s track list, count and release date from `r.s?stype=albuminfo`. Throws like every call here. */
async function albumInfo(caps: Caps, id: string): Promise<AlbumInfo> {
  const json = await getObject(caps, SEARCH_BASE_URL, '/r.s', {
    stype: 'albuminfo', albumid: id, pn: 0, rn: ALBUM_TRACKS, show_copyright_off: 1, rformat: 'json', encoding: 'utf8',
  });
  if (!Array.isArray(json.musiclist)) throw shapeChanged('musiclist');
  // Positions count every song, so the ids are read as they come (a song without one keeps its place).
  const order = json.musiclist.map((item) => (isObject(item) ? text(item, 'id', '', false) ?? '' : ''));
  const count = Number(text(json, 'songnum', '', false));
  const released = /^\d{4}(-\d{2}-\d{2})?/.exec(text(json, 'pub', '', false) ?? '')?.[0] ?? null;
  return { order, tracks: Number.isInteger(count) && count > 0 ? count : order.length > 0 ? order.length : null, released };
}

/**
 * The hits with track number, track count and year from their album, for the first {@link ALBUM_DETAILS}
 * distinct albums. Best effort: an album Kuwo will not describe only leaves those fields `null` and is logged.
 */
async function withAlbums(caps: Caps & { log: LogCapability }, hits: Hit[]): Promise<SearchResultSong[]> {
  const ids = [...new Set(hits.map((h) => h.albumId).filter(Boolean))].slice(0, ALBUM_DETAILS);
  const albums = new Map<string, AlbumInfo>();
  await Promise.all(ids.map(async (id) => {
    try {
      albums.set(id, await albumInfo(caps, id));
    } catch (error) {
      caps.log.warn('album details unavailable', { albumId: id, error: error instanceof Error ? error.message : String(error) });
    }
  }));
  return hits.map(({ song, albumId }) => {
    const album = albums.get(albumId);
    if (!album) return song;
    const position = album.order.indexOf(song.id);
    return { ...song, year: album.released, tracknumber: position >= 0 ? position + 1 : null, totaltracks: album.tracks };
  });
}

/** `[mm:ss.xx]` for a time in seconds (Kuwo sends `"83.12"`). */
function stamp(seconds: number): string {
  const cs = Math.round(Math.max(0, seconds) * 100);
  const two = (n: number) => String(n).padStart(2, '0');
  return `[${two(Math.floor(cs / 6000))}:${two(Math.floor((cs % 6000) / 100))}.${two(cs % 100)}]`;
}

export default defineTagSource<KuwoManifest>({
  async search({ title, artist, limit }, caps) {
    if (!title?.trim() || limit <= 0) return [];
    const all = [title.trim(), artist?.trim()].filter(Boolean).join(' ');
    const songs = await searchList(caps, { all, ft: 'music', rn: Math.min(Math.ceil(limit), MAX_LIMIT), ...SEARCH_QUERY });
    const hits = songs.slice(0, limit).map((item, i) => toHit(item, `abslist[${i}]`));
    return withAlbums(caps, hits);
  },

  async lyrics({ id }, caps) {
    if (!/^\d{1,20}$/.test(String(id))) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `"${String(id).slice(0, 40)}" is not a Kuwo song id (digits).`);
    const json = await getObject(caps, LYRIC_BASE_URL, '/newh5/singles/songinfoandlrc', { musicId: String(id), httpsStatus: 1 });
    if (typeof json.status === 'number' && json.status !== 200) {
      const said = typeof json.msg === 'string' ? ` (${json.msg.slice(0, 200)})` : '';
      throw upstream(`Kuwo answered status ${json.status} to /newh5/singles/songinfoandlrc${said}.`, { status: 200, apiCode: json.status });
    }
    if (json.data === null || json.data === undefined) return null;
    if (!isObject(json.data)) throw shapeChanged('data');
    const list = json.data.lrclist;
    if (list === null || list === undefined) return null;
    if (!Array.isArray(list)) throw shapeChanged('data.lrclist');
    const lines = list.map((line, i) => {
      const at = `data.lrclist[${i}]`;
      if (!isObject(line)) throw shapeChanged(at);
      const time = Number(text(line, 'time', at, true));
      if (!Number.isFinite(time)) throw shapeChanged(`${at}.time`);
      return { time, text: plainText(text(line, 'lineLyric', at, false) ?? '') };
    });
    // Sorted stably by time: a translation Kuwo sends under the same stamp stays under its original line.
    lines.sort((a, b) => a.time - b.time);
    return lines.length > 0 ? lines.map((l) => `${stamp(l.time)}${l.text}`).join('\n') : null;
  },

  async artist({ keyword }, caps): Promise<ArtistInfo | null> {
    if (!keyword?.trim()) return null;
    const wanted = keyword.trim().toLowerCase();
    const found = await searchList(caps, { all: keyword.trim(), ft: 'artist', rn: 10, ...SEARCH_QUERY });
    const candidates = found.map((item, i) => {
      const at = `abslist[${i}]`;
      if (!isObject(item)) throw shapeChanged(at);
      const id = text(item, 'ARTISTID', at, true)!;
      if (!/^\d+$/.test(id)) throw shapeChanged(`${at}.ARTISTID`);
      // AARTIST is the name in another script (Jay Chou for 周杰伦).
      return { id, names: [text(item, 'ARTIST', at, true)!, text(item, 'AARTIST', at, false) ?? ''].map((n) => plainText(n).toLowerCase()) };
    });
    const best = candidates.find((c) => c.names.includes(wanted)) ?? candidates[0];
    if (!best) return null;
    const info = await getObject(caps, SEARCH_BASE_URL, '/r.s', { stype: 'artistinfo', artistid: best.id, rformat: 'json', encoding: 'utf8' });
    const name = text(info, 'name', '', true)!;
    const picture = text(info, 'hts_pic', '', false) || text(info, 'pic', '', false);
    const description = text(info, 'info', '', false) ?? text(info, 'desc', '', false);
    return {
      name: plainText(name),
      image: sizedImage(picture, 'starheads', ARTIST_PICTURE_SIZE),
      description: description ? plainText(description) || null : null,
    };
  },
});
