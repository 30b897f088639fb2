/**
 * QQ Music (y.qq.com) as a tag source, through the endpoints its web player and desktop client use, none of which
 * needs a login or a signature:
 *
 * - `search`: `GET u.y.qq.com/cgi-bin/musicu.fcg?data=<JSON>`, the desktop client's song search
 *   (`music.search.SearchCgiService` / `DoSearchForQQMusicDesktop`, `search_type` 0). `id` is the song's `mid`.
 * - `lyrics`: `GET c.y.qq.com/lyric/fcgi-bin/fcg_query_lyric_new.fcg?songmid=<mid>&format=json` with the web
 *   player's Referer (QQ refuses the call without it); the lyric comes base64-encoded.
 * - `artist`: the same search with `search_type` 1 (singers), then the biography from
 *   `c.y.qq.com/splcloud/fcgi-bin/fcg_get_singer_desc.fcg` (an XML document).
 *
 * Covers: QQ's image server (y.gtimg.cn) renders album covers at fixed sizes named in the file name
 * (`T002R<w>x<h>M000<album mid>.jpg`: 90, 150, 300, 500, 800); 800×800 is the largest it serves, so
 * `album_img` asks for it. Artist pictures are `T001R800x800M000<singer mid>.jpg`.
 *
 * Everything QQ answers is checked before use: a field that is missing or of another type means the API changed,
 * and is reported as `response shape changed: <field>` so the /mod screen says what broke.
 */
import { defineTagSource, normaliseLrc, PluginError, type ArtistInfo, type HttpCapability, type Manifest, type SearchResultSong } from '@tagsonic/sdk';
import manifest from '../manifest.json' with { type: 'json' };
import { base64Bytes, utf8Text } from './base64.ts';

/**
 * QQ's hosts. The administrator's base URL (`TAGSONIC_SOURCE_URL_QMUSIC` or settings) replaces both: every
 * request keeps its path (`/cgi-bin/…`, `/lyric/…`, `/splcloud/…`), so one mirror or proxy serves them all.
 */
const API_HOST = 'https://u.y.qq.com';
const WEB_HOST = 'https://c.y.qq.com';

/** Where covers and artist pictures live (built, never fetched by the plugin). */
const IMAGE_HOST = 'https://y.gtimg.cn/music/photo_new';
const IMAGE_SIZE = 'R800x800';

/** QQ's web player; the lyric endpoint answers an error without this Referer. */
const REFERER = 'https://y.qq.com/';
/** The page QQ's own web code loads the biography from (the XML endpoint checks it). */
const DESC_REFERER = 'https://c.y.qq.com/xhr_proxy_utf8.html';
const USER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/** QQ's search pages are at most 50 songs for this call; more is not what a tagger needs anyway. */
const MAX_LIMIT = 50;

/** `retcode`/`code` of the lyric endpoint when the song has no lyric. */
const NO_LYRIC = -1901;

/** This plugin's grants, for typed `caps` (the manifest itself is the JSON file beside `src/`). */
type QmusicManifest = Manifest & { permissions: { http: NonNullable<Manifest['permissions']['http']> } };
type Caps = { http: HttpCapability };

/** The fields of one song of the search this source uses. */
interface QqSong {
  mid: string;
  name: string;
  title: string | null;
  singers: string[];
  albumMid: string | null;
  albumName: string | null;
  albumDate: string | null;
  interval: number | null;
  indexAlbum: number | null;
  indexCd: number | null;
  timePublic: string | null;
}

const upstream = (message: string, details?: Record<string, unknown>) => new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', message, details);
const shapeChanged = (field: string) => upstream(`response shape changed: ${field}`, { field });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * GETs one QQ endpoint and returns its body as text. A non-200 status is reported by its number (QQ's gateway
 * answers HTML error pages, so the status is what says what happened).
 */
async function getText(caps: Caps, host: string, path: string, query: Record<string, string | number>, referer = REFERER): Promise<string> {
  const base = caps.http.baseUrl ?? host;
  const { status, body } = await caps.http.fetch({
    url: `${base}${path}`,
    query,
    headers: { referer, 'user-agent': USER_AGENT },
    responseType: 'text',
  });
  if (status !== 200) throw upstream(`QQ Music answered HTTP ${status} to ${path}.`, { status });
  return String(body);
}

/** QQ's older fcg endpoints sometimes wrap the JSON in their web callback (`MusicJsonCallback({...})`) despite format=json. */
const JSONP = /^\s*[A-Za-z_$][\w$]*\(([\s\S]*)\)\s*;?\s*$/;

async function getJson(caps: Caps, host: string, path: string, query: Record<string, string | number>): Promise<Record<string, unknown>> {
  const text = await getText(caps, host, path, query);
  let body: unknown;
  try {
    body = JSON.parse(JSONP.exec(text)?.[1] ?? text);
  } catch {
    throw shapeChanged('(not JSON)');
  }
  if (!isObject(body)) throw shapeChanged('(root object)');
  return body;
}

/**
 * One call of musicu.fcg, QQ's request multiplexer: `{ comm, req: { module, method, param } }` in, `{ code,
 * req: { code, data } }` out. A non-zero code (QQ's own error: throttled, bad parameter) is an upstream error
 * naming the method and the code.
 */
async function musicu(caps: Caps, module: string, method: string, param: Record<string, unknown>): Promise<Record<string, unknown>> {
  const data = JSON.stringify({ comm: { ct: 19, cv: 1859, uin: 0 }, req: { module, method, param } });
  const body = await getJson(caps, API_HOST, '/cgi-bin/musicu.fcg', { format: 'json', data });
  if (typeof body.code === 'number' && body.code !== 0) throw upstream(`QQ Music answered code ${body.code} to ${method}.`, { code: body.code });
  const req = body.req;
  if (!isObject(req)) throw shapeChanged('req');
  if (typeof req.code !== 'number') throw shapeChanged('req.code');
  if (req.code !== 0) throw upstream(`QQ Music answered code ${req.code} to ${method}.`, { code: req.code });
  if (!isObject(req.data)) throw shapeChanged('req.data');
  return req.data;
}

/** The search result's list for one search type (`song` or `singer`), checked down to the array. */
async function searchList(caps: Caps, query: string, searchType: 0 | 1, limit: number, key: 'song' | 'singer'): Promise<unknown[]> {
  const data = await musicu(caps, 'music.search.SearchCgiService', 'DoSearchForQQMusicDesktop', {
    query, search_type: searchType, num_per_page: limit, page_num: 1,
  });
  if (!isObject(data.body)) throw shapeChanged('req.data.body');
  const group = data.body[key];
  // QQ leaves the group out when nothing matched.
  if (group === undefined || group === null) return [];
  if (!isObject(group)) throw shapeChanged(`req.data.body.${key}`);
  if (!Array.isArray(group.list)) throw shapeChanged(`req.data.body.${key}.list`);
  return group.list;
}

/** Checks one song's fields; `at` prefixes the field name in the error (`list[3].mid`). */
function song(value: unknown, at: string): QqSong {
  if (!isObject(value)) throw shapeChanged(at);
  const field = (name: string) => `${at}.${name}`;
  const optional = <T extends 'string' | 'number'>(v: Record<string, unknown>, name: string, type: T, where = field(name)) => {
    if (v[name] !== null && v[name] !== undefined && typeof v[name] !== type) throw shapeChanged(where);
    return (v[name] as (T extends 'string' ? string : number) | null | undefined) ?? null;
  };
  if (typeof value.mid !== 'string' || !value.mid) throw shapeChanged(field('mid'));
  if (typeof value.name !== 'string') throw shapeChanged(field('name'));
  if (!Array.isArray(value.singer)) throw shapeChanged(field('singer'));
  const singers = value.singer.map((s, i) => {
    if (!isObject(s) || typeof s.name !== 'string') throw shapeChanged(`${field('singer')}[${i}].name`);
    return s.name;
  });
  const album = value.album ?? null;
  if (album !== null && !isObject(album)) throw shapeChanged(field('album'));
  return {
    mid: value.mid,
    name: value.name,
    title: optional(value, 'title', 'string'),
    singers,
    albumMid: album ? optional(album, 'mid', 'string', `${field('album')}.mid`) : null,
    albumName: album ? optional(album, 'name', 'string', `${field('album')}.name`) : null,
    albumDate: album ? optional(album, 'time_public', 'string', `${field('album')}.time_public`) : null,
    interval: optional(value, 'interval', 'number'),
    indexAlbum: optional(value, 'index_album', 'number'),
    indexCd: optional(value, 'index_cd', 'number'),
    timePublic: optional(value, 'time_public', 'string'),
  };
}

/** A 14-character QQ mid (`0039MnYb0qxYhV`); anything else is not a QQ id and is refused before a request. */
const MID = /^[0-9A-Za-z]{1,32}$/;

const image = (kind: 'T002' | 'T001', mid: string | null): string | null => (mid ? `${IMAGE_HOST}/${kind}${IMAGE_SIZE}M000${mid}.jpg` : null);

/** `YYYY-MM-DD` (or `YYYY`) of QQ's publish date; QQ writes `''` or `0000-00-00` when it does not know. */
const dateOf = (date: string | null): string | null => {
  const match = /^(\d{4})(-\d{2}-\d{2})?/.exec(date ?? '');
  return match && match[1] !== '0000' ? match[0] : null;
};

const positive = (n: number | null): number | null => (n !== null && Number.isInteger(n) && n > 0 ? n : null);

const toSong = (s: QqSong): SearchResultSong => ({
  id: s.mid,
  // `title` carries the version QQ shows ("晴天 (Live)"); `name` is the bare title.
  name: s.title?.trim() || s.name,
  artist: s.singers.filter(Boolean).join('/') || null,
  album: s.albumName?.trim() || null,
  album_img: image('T002', s.albumMid?.trim() || null),
  year: dateOf(s.timePublic) ?? dateOf(s.albumDate),
  tracknumber: positive(s.indexAlbum),
  totaltracks: null, // the search does not list the album's size
  // `index_cd` counts discs from 0; QQ writes 0 for both numbers when it does not know the song's place.
  discnumber: s.indexCd !== null && Number.isInteger(s.indexCd) && s.indexCd >= 0 && positive(s.indexAlbum) !== null ? s.indexCd + 1 : null,
  totaldiscs: null,
  duration: positive(s.interval),
  resource: manifest.id,
});

/** The text of the first `<tag>` of an XML document, CDATA unwrapped and the five XML entities decoded. */
function xmlText(xml: string, tag: string): string | null {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml);
  if (!match) return null;
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(match[1]!);
  const text = cdata ? cdata[1]! : match[1]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  return text.trim() || null;
}

export default defineTagSource<QmusicManifest>({
  async search({ title, artist, duration, limit }, caps) {
    // QQ ranks by every word of the query; the album is left out, as store album names rarely match a file's.
    if (!title?.trim() || limit <= 0) return [];
    const query = [title.trim(), artist?.trim()].filter(Boolean).join(' ');
    const list = await searchList(caps, query, 0, Math.min(Math.ceil(limit), MAX_LIMIT), 'song');
    const songs = list.map((item, i) => song(item, `req.data.body.song.list[${i}]`));
    // The file's duration, when known, puts the right edit of a song first (radio edit vs album version).
    if (typeof duration === 'number' && duration > 0) {
      const distance = (s: QqSong) => (s.interval ? Math.abs(s.interval - duration) : Number.POSITIVE_INFINITY);
      songs.sort((a, b) => distance(a) - distance(b));
    }
    return songs.slice(0, limit).map(toSong);
  },

  async lyrics({ id }, caps) {
    if (typeof id !== 'string' || !MID.test(id)) {
      throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `"${String(id).slice(0, 40)}" is not a QQ Music song mid.`);
    }
    const body = await getJson(caps, WEB_HOST, '/lyric/fcgi-bin/fcg_query_lyric_new.fcg', {
      songmid: id, g_tk: 5381, format: 'json', inCharset: 'utf8', outCharset: 'utf-8', notice: 0, platform: 'yqq.json', needNewCode: 0,
    });
    const code = typeof body.retcode === 'number' ? body.retcode : body.code;
    if (typeof code !== 'number') throw shapeChanged('retcode');
    if (code === NO_LYRIC) return null;
    if (code !== 0) throw upstream(`QQ Music answered code ${code} to fcg_query_lyric_new.`, { code });
    if (body.lyric === undefined || body.lyric === null || body.lyric === '') return null;
    if (typeof body.lyric !== 'string') throw shapeChanged('lyric');
    let text: string;
    try {
      text = utf8Text(base64Bytes(body.lyric));
    } catch {
      throw shapeChanged('lyric (not base64 UTF-8)');
    }
    const lrc = normaliseLrc(text).trim();
    return lrc || null;
  },

  async artist({ keyword }, caps): Promise<ArtistInfo | null> {
    if (!keyword?.trim()) return null;
    const list = await searchList(caps, keyword.trim(), 1, 5, 'singer');
    if (list.length === 0) return null;
    const first = list[0];
    const at = 'req.data.body.singer.list[0]';
    if (!isObject(first)) throw shapeChanged(at);
    if (typeof first.singerName !== 'string' || !first.singerName) throw shapeChanged(`${at}.singerName`);
    if (typeof first.singerMID !== 'string' || !first.singerMID) throw shapeChanged(`${at}.singerMID`);
    const xml = await getText(caps, WEB_HOST, '/splcloud/fcgi-bin/fcg_get_singer_desc.fcg', {
      singermid: first.singerMID, utf8: 1, outCharset: 'utf-8', format: 'xml',
    }, DESC_REFERER);
    // An unknown singer's biography is `<result><code>…` without `<desc>`: a picture and no description.
    if (!/<result>/.test(xml)) throw shapeChanged('(not the biography XML)');
    return { name: first.singerName, image: image('T001', first.singerMID), description: xmlText(xml, 'desc') };
  },
});
