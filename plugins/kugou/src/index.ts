/**
 * Kugou Music (酷狗音乐) as a tag source, through the services its own web player and clients use:
 *
 * - `search`: `GET complexsearch.kugou.com/v2/search/song`, the web player's song search. Kugou refuses it
 *   unless it is signed: `signature` is the upper-case MD5 of a fixed key, every other parameter as `k=v` in
 *   key order (no separator), and the key again (see {@link signed}); `clienttime`/`mid`/`uuid` are the time in
 *   ms, as the web player sends. Each result has the file hash (the song id), title, singers, album, release
 *   date, duration and a cover URL template.
 * - `artist`: the singers the song search lists for the keyword, then `GET mobiles.kugou.com/api/v5/singer/info`
 *   for the picture and biography of the one named as asked.
 * - `lyrics`: `GET lyrics.kugou.com/search?…&hash=<id>` lists the lyric candidates for that file, and
 *   `GET lyrics.kugou.com/download?id&accesskey&fmt=lrc&charset=utf8` returns the first one's LRC,
 *   base64-encoded (decoded here: the sandbox has no atob/TextDecoder, see codec.ts) and normalised (lrc.ts).
 *
 * Covers: Kugou lists `Image` as a template, `…/stdmusic/{size}/20150718/….jpg`; the size segment picks a
 * scaled copy (150, 240, 480, …), and without it the image server answers the uploaded original, so
 * `album_img` is the template with `{size}/` removed — the full resolution the spec wants. Singer pictures
 * (`…/uploadpic/softhead/{size}/….jpg`) come from the same image servers and are treated the same way.
 *
 * Base URL: the administrator's override (`TAGSONIC_SOURCE_URL_KUGOU` or settings) replaces all three hosts — the
 * search path (`/v2/search/song`), the lyric paths (`/search`, `/download`) and the singer path
 * (`/api/v5/singer/info`) do not collide, so one mirror or replay server serves them all.
 *
 * Everything Kugou answers is checked before use: a missing field or another type is reported as
 * `response shape changed: <field>`, so the /mod screen says what broke.
 */
import { defineTagSource, PluginError, type HttpCapability, type Manifest, type SearchResultSong } from '@tagsonic/sdk';
import manifest from '../manifest.json' with { type: 'json' };
import { base64Decode, md5Hex, utf8Decode } from './codec.ts';
import { normaliseLrc } from './lrc.ts';

const SEARCH_BASE_URL = 'https://complexsearch.kugou.com';
const LYRICS_BASE_URL = 'https://lyrics.kugou.com';
/** The mobile client's API, the one place with a singer's picture and biography by id (plain http, as the client uses). */
const SINGER_BASE_URL = 'http://mobiles.kugou.com';

/** The key the web player wraps its search parameters in before hashing them (public: it is in kugou.com's script). */
const SIGNING_KEY = 'NVPh5oo715z5DIWAeQlhMDsWXXQV4hwt';

/** complexsearch answers at most 30 songs per page for the web player's platform. */
const MAX_PAGE_SIZE = 30;

/** Kugou serves the web player's API to browsers: a browser User-Agent and kugou.com as the Referer. */
const HEADERS = {
  'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  referer: 'https://www.kugou.com/',
};

/** This plugin's grants, for typed `caps` (the manifest itself is the JSON file beside `src/`). */
type KugouManifest = Manifest & { permissions: { http: NonNullable<Manifest['permissions']['http']> } };
type Http = { http: HttpCapability };

/** The fields of one complexsearch result this source uses. */
interface KugouSong {
  FileHash: string;
  SongName: string;
  SingerName: string;
  AlbumName: string | null;
  Image: string | null;
  Duration: number | null;
  PublishTime: string | null;
}

const upstream = (message: string, details?: Record<string, unknown>) => new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', message, details);
const shapeChanged = (field: string) => upstream(`response shape changed: ${field}`, { field });

/** The query with its `signature`: MD5 over key + sorted `k=v` pairs + key, in upper case as the web player sends it. */
function signed(query: Record<string, string>): Record<string, string> {
  const pairs = Object.keys(query).sort().map((k) => `${k}=${query[k]}`).join('');
  return { ...query, signature: md5Hex(`${SIGNING_KEY}${pairs}${SIGNING_KEY}`).toUpperCase() };
}

/**
 * GETs one endpoint and parses its JSON. The body is read as text so an HTML error page (a CDN's 502) is
 * reported by its HTTP status rather than as "not JSON".
 */
async function getJson(caps: Http, fallbackBase: string, path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
  const base = caps.http.baseUrl ?? fallbackBase;
  const { status, body } = await caps.http.fetch({ url: `${base}${path}`, query, headers: HEADERS, responseType: 'text' });
  if (status !== 200) throw upstream(`Kugou answered HTTP ${status} to ${path}.`, { status });
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(body));
  } catch {
    throw shapeChanged('(not JSON)');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw shapeChanged('(root object)');
  return parsed as Record<string, unknown>;
}

/** Checks one result's fields; `at` prefixes the field name in the error (`data.lists[3].SongName`). */
function song(value: unknown, at: string): KugouSong {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw shapeChanged(at);
  const v = value as Record<string, unknown>;
  const field = (name: string) => `${at}.${name}`;
  const optional = <T extends 'string' | 'number'>(name: string, type: T) => {
    if (v[name] !== null && v[name] !== undefined && typeof v[name] !== type) throw shapeChanged(field(name));
    return (v[name] as (T extends 'string' ? string : number) | null | undefined) ?? null;
  };
  if (typeof v.FileHash !== 'string' || !/^[0-9a-f]{32}$/i.test(v.FileHash)) throw shapeChanged(field('FileHash'));
  if (typeof v.SongName !== 'string') throw shapeChanged(field('SongName'));
  if (typeof v.SingerName !== 'string') throw shapeChanged(field('SingerName'));
  return {
    FileHash: v.FileHash.toUpperCase(),
    SongName: v.SongName,
    SingerName: v.SingerName,
    AlbumName: optional('AlbumName', 'string'),
    Image: optional('Image', 'string'),
    Duration: optional('Duration', 'number'),
    // Release date: `PublishTime` ("2004-08-03 00:00:00"); some result kinds carry `PublishDate` instead.
    PublishTime: optional('PublishTime', 'string') ?? optional('PublishDate', 'string'),
  };
}

/** The highlight markup Kugou puts around the matched words (`<em>晴天</em>`) and the entities it escapes. */
const plain = (text: string) =>
  text.replace(/<\/?em>/gi, '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").trim();

/** The original-size cover: the template without its `{size}` segment. */
const fullCover = (template: string | null): string | null => (template?.trim() ? template.trim().replace('{size}/', '').replace('{size}', '') : null);

/** `YYYY-MM-DD` of "2004-08-03 00:00:00"; Kugou's "0000-00-00" or an empty string is `null`. */
const yearOf = (date: string | null): string | null => {
  const day = /^(\d{4})(-\d{2}-\d{2})?/.exec(date ?? '');
  return day && day[1] !== '0000' ? (day[2] === '-00-00' ? day[1]! : day[0]) : null;
};

const toSong = (s: KugouSong): SearchResultSong => ({
  id: s.FileHash,
  name: plain(s.SongName),
  artist: plain(s.SingerName) || null,
  album: s.AlbumName ? plain(s.AlbumName) || null : null,
  album_img: fullCover(s.Image),
  year: yearOf(s.PublishTime),
  // Kugou's search has no track or disc numbers.
  tracknumber: null,
  totaltracks: null,
  discnumber: null,
  totaldiscs: null,
  duration: s.Duration !== null && s.Duration > 0 ? Math.round(s.Duration) : null,
  resource: manifest.id,
});

/** Kugou reports a refused request with 200 and `status: 0` plus an error code (a bad signature, a throttled client). */
function checkRefusal(body: Record<string, unknown>, path: string, ok: (status: unknown) => boolean): void {
  if (ok(body.status)) return;
  const code = body.error_code ?? body.errcode ?? body.status;
  const message = [body.error_msg, body.errmsg, body.error, body.info].find((m): m is string => typeof m === 'string' && m.trim() !== '') ?? '';
  throw upstream(`Kugou refused ${path}: ${message || 'no reason given'} (error ${String(code)}).`, { error_code: code });
}

/** The web player's signed song search; its `data.lists`, unchecked beyond being an array. */
async function searchLists(caps: Http, keyword: string, pageSize: number): Promise<unknown[]> {
  const now = String(Date.now());
  const query = signed({
    bitrate: '0', clienttime: now, clientver: '2000', dfid: '-', inputtype: '0', iscorrection: '1', isfuzzy: '0', keyword,
    mid: now, page: '1', pagesize: String(Math.min(Math.ceil(pageSize), MAX_PAGE_SIZE)), platform: 'WebFilter', privilege_filter: '0',
    srcappid: '2919', tag: 'em', userid: '-1', uuid: now,
  });
  const body = await getJson(caps, SEARCH_BASE_URL, '/v2/search/song', query);
  checkRefusal(body, '/v2/search/song', (status) => status === 1);
  const data = body.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw shapeChanged('data');
  const lists = (data as Record<string, unknown>).lists;
  if (!Array.isArray(lists)) throw shapeChanged('data.lists');
  return lists;
}

/** The singers of one search result (`Singers: [{ id, name }]`), checked; ids of 0 (a singer Kugou has no page for) are left out. */
function singersOf(value: unknown, at: string): { id: number; name: string }[] {
  const singers = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).Singers : undefined;
  if (!Array.isArray(singers)) throw shapeChanged(`${at}.Singers`);
  return singers.flatMap((singer, i) => {
    const s = singer as Record<string, unknown> | null;
    if (typeof s !== 'object' || s === null || typeof s.name !== 'string') throw shapeChanged(`${at}.Singers[${i}].name`);
    const id = typeof s.id === 'string' ? Number(s.id) : s.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) throw shapeChanged(`${at}.Singers[${i}].id`);
    return id > 0 ? [{ id, name: plain(s.name) }] : [];
  });
}

/** Names compared as a listener would: case, width of spaces and surrounding blanks aside. */
const sameName = (a: string, b: string) => a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();

export default defineTagSource<KugouManifest>({
  async search({ title, artist, duration, limit }, caps) {
    // The album is left out of the keyword: Kugou matches every word, and a file's album name rarely matches its own.
    if (!title?.trim() || limit <= 0) return [];
    const keyword = [title.trim(), artist?.trim()].filter(Boolean).join(' ');
    const songs = (await searchLists(caps, keyword, limit)).map((item, i) => song(item, `data.lists[${i}]`));
    // The file's duration, when known, puts the right edit first (radio edit vs album version, live takes).
    if (typeof duration === 'number' && duration > 0) {
      const distance = (s: KugouSong) => (s.Duration === null ? Number.POSITIVE_INFINITY : Math.abs(s.Duration - duration));
      songs.sort((a, b) => distance(a) - distance(b));
    }
    return songs.slice(0, limit).map(toSong);
  },

  /**
   * Kugou has no singer search that needs no login, but its song search lists each song's singers with their
   * ids: the singer named exactly as the keyword (else the first song's first singer) is looked up on
   * `mobiles.kugou.com/api/v5/singer/info`, which has the picture template and the biography (`intro`).
   */
  async artist({ keyword }, caps) {
    if (typeof keyword !== 'string' || !keyword.trim()) return null;
    const singers = (await searchLists(caps, keyword.trim(), 10)).flatMap((item, i) => singersOf(item, `data.lists[${i}]`));
    const singer = singers.find((s) => sameName(s.name, keyword)) ?? singers[0];
    if (!singer) return null;
    const body = await getJson(caps, SINGER_BASE_URL, '/api/v5/singer/info', { singerid: String(singer.id) });
    checkRefusal(body, '/api/v5/singer/info', () => (body.error_code ?? body.errcode ?? 0) === 0 && body.status !== 0);
    const info = body.data;
    if (typeof info !== 'object' || info === null || Array.isArray(info)) throw shapeChanged('data');
    const v = info as Record<string, unknown>;
    if (typeof v.singername !== 'string') throw shapeChanged('data.singername');
    if (v.imgurl !== undefined && v.imgurl !== null && typeof v.imgurl !== 'string') throw shapeChanged('data.imgurl');
    if (v.intro !== undefined && v.intro !== null && typeof v.intro !== 'string') throw shapeChanged('data.intro');
    return { name: plain(v.singername) || singer.name, image: fullCover((v.imgurl as string | null | undefined) ?? null), description: (v.intro as string | undefined)?.trim() || null };
  },

  async lyrics({ id }, caps) {
    if (typeof id !== 'string' || !/^[0-9a-f]{32}$/i.test(id)) {
      throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `"${String(id).slice(0, 40)}" is not a Kugou file hash (32 hex digits).`);
    }
    const found = await getJson(caps, LYRICS_BASE_URL, '/search', { ver: '1', man: 'yes', client: 'pc', keyword: '', duration: '', hash: id.toUpperCase() });
    checkRefusal(found, '/search', (status) => status === 200);
    const candidates = found.candidates;
    if (!Array.isArray(candidates)) throw shapeChanged('candidates');
    if (candidates.length === 0) return null;
    const first = candidates[0] as Record<string, unknown> | null;
    if (typeof first !== 'object' || first === null) throw shapeChanged('candidates[0]');
    if (typeof first.id !== 'string' && typeof first.id !== 'number') throw shapeChanged('candidates[0].id');
    if (typeof first.accesskey !== 'string' || !first.accesskey) throw shapeChanged('candidates[0].accesskey');
    const lyric = await getJson(caps, LYRICS_BASE_URL, '/download', {
      ver: '1', client: 'pc', id: String(first.id), accesskey: first.accesskey, fmt: 'lrc', charset: 'utf8',
    });
    checkRefusal(lyric, '/download', (status) => status === 200);
    if (typeof lyric.content !== 'string') throw shapeChanged('content');
    const bytes = base64Decode(lyric.content);
    if (bytes === null) throw shapeChanged('content (not base64)');
    return normaliseLrc(utf8Decode(bytes));
  },
});
