/**
 * Migu Music (music.migu.cn) as a tag source, through the calls the Migu Android app makes:
 *
 * - `search`: `GET jadeite.migu.cn/music_search/v3/search/searchAll?text=<title artist>&searchSwitch={"song":1,…}`,
 *   the app's search. Migu refuses it unsigned: the headers carry `deviceId`, `timestamp` and
 *   `sign = md5(text + <app certificate md5> + <app id> + deviceId + timestamp)` (src/md5.ts; the sandbox has no
 *   crypto). Unlike the older unsigned `search_all.do`, it lists each song's duration and three cover sizes.
 *   `id` is the song's `copyrightId`, the key of every Migu lyric call.
 * - `lyrics`: `GET c.musicapp.migu.cn/MIGUM2.0/v1.0/content/resourceinfo.do?copyrightId=<id>&resourceType=2` names
 *   the song's LRC file (`lrcUrl`, on d.musicapp.migu.cn), which is then downloaded and normalised.
 *
 * There is no `artist` export (artist lookups go to kuwo, the spec's default, or netease/qmusic). The search lists
 * no release dates or track numbers, so those fields are `null`.
 *
 * Covers: the search lists `img1`, `img2` and `img3`, the same picture at growing sizes (img3 is the original
 * upload, typically 500×500 or larger; Migu's file service has no size parameter to ask for more), so `album_img`
 * is img3, else the largest one there is.
 *
 * Everything Migu answers is checked before use: a field that is missing or of another type means the API
 * changed, and is reported as `response shape changed: <field>` so the /mod screen says what broke.
 */
import { defineTagSource, normaliseLrc, PluginError, type HttpCapability, type Manifest, type SearchResultSong } from '@tagsonic/sdk';
import manifest from '../manifest.json' with { type: 'json' };
import { md5Hex } from './md5.ts';

/**
 * Migu's hosts. The administrator's base URL (`TAGSONIC_SOURCE_URL_MIGU` or settings) replaces all three: every
 * request keeps its path (`/music_search/…`, `/MIGUM2.0/…`, and the LRC file's own path), so one mirror or proxy
 * serves them all.
 */
const SEARCH_HOST = 'https://jadeite.migu.cn';
const CONTENT_HOST = 'https://c.musicapp.migu.cn';
/** Where relative cover paths live (covers are built, never fetched by the plugin). */
const FILE_HOST = 'https://d.musicapp.migu.cn';

/** The app's identity, as the signed search expects it (values of the Android app 3.6.1). */
const APP = {
  uiVersion: 'A_music_3.6.1',
  channel: '0146921',
  /** A device id is any 32 hex digits; a fixed one keeps the plugin's requests reproducible. */
  deviceId: '963B7AA0D21511ED807EE5846EC87D20',
  /** MD5 of the app's signing certificate, and the app id: the two constants of the signature. */
  certificateMd5: '6cdc72a439cef99a3418d2a78aa28c73',
  appId: 'yyapp2d16148780a1dcc7408e06336b98cfd50',
  userAgent: 'Mozilla/5.0 (Linux; U; Android 11.0.0; zh-cn; MI 11 Build/OPR1.170623.032) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30',
};

/** Songs only: the other groups (albums, singers, playlists, MVs) are switched off. */
const SEARCH_SWITCH = JSON.stringify({ song: 1, album: 0, singer: 0, tagSong: 1, mvSong: 0, bestShow: 1, songlist: 0, lyricSong: 0 });

/** Migu's success code; any other comes with a message in `info`. */
const OK = '000000';
/** The app pages 20 songs; the service accepts up to 50. */
const MAX_LIMIT = 50;

/** This plugin's grants, for typed `caps` (the manifest itself is the JSON file beside `src/`). */
type MiguManifest = Manifest & { permissions: { http: NonNullable<Manifest['permissions']['http']> } };
type Caps = { http: HttpCapability };

/** The fields of one song of the search this source uses. */
interface MiguSong {
  copyrightId: string;
  name: string;
  singers: string[];
  album: string | null;
  cover: string | null;
  duration: number | null;
}

const upstream = (message: string, details?: Record<string, unknown>) => new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', message, details);
const shapeChanged = (field: string) => upstream(`response shape changed: ${field}`, { field });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The headers of the signed search for `text` at `timestamp` (ms since the epoch, as a string). */
function searchHeaders(text: string, timestamp: string): Record<string, string> {
  return {
    uiVersion: APP.uiVersion,
    channel: APP.channel,
    deviceId: APP.deviceId,
    timestamp,
    sign: md5Hex(`${text}${APP.certificateMd5}${APP.appId}${APP.deviceId}${timestamp}`),
    'user-agent': APP.userAgent,
  };
}

/** One Migu request: a host, a path (with its own query, for file URLs), and query values to add. */
interface Target {
  host: string;
  path: string;
  query?: Record<string, string>;
}

/**
 * GETs a Migu URL (on the administrator's base URL when set, same path) and returns the body as text, or `null`
 * on 404. Any other non-200 status is reported by its number: Migu's gateway answers HTML error pages.
 */
async function getText(caps: Caps, { host, path, query }: Target, headers: Record<string, string>): Promise<string | null> {
  const { status, body } = await caps.http.fetch({ url: `${caps.http.baseUrl ?? host}${path}`, query, headers, responseType: 'text' });
  const name = path.replace(/\?.*$/, '');
  if (status === 404) return null;
  if (status !== 200) throw upstream(`Migu answered HTTP ${status} to ${name}.`, { status });
  return String(body);
}

/** A Migu JSON API answer: parsed, an object, and `code` `000000` (else Migu's `info` is the message). */
async function getApi(caps: Caps, target: Target, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const text = await getText(caps, target, headers);
  if (text === null) throw upstream(`Migu answered HTTP 404 to ${target.path}.`, { status: 404 });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw shapeChanged('(not JSON)');
  }
  if (!isObject(body)) throw shapeChanged('(root object)');
  if (typeof body.code !== 'string') throw shapeChanged('code');
  if (body.code !== OK) {
    const info = typeof body.info === 'string' && body.info ? ` (${body.info.slice(0, 200)})` : '';
    throw upstream(`Migu answered code ${body.code}${info} to ${target.path}.`, { code: body.code });
  }
  return body;
}

/** A cover path as Migu lists it: absolute as is, relative ones on its file host. */
const absolute = (path: string): string => (/^https?:\/\//i.test(path) ? path : `${FILE_HOST}${path.startsWith('/') ? '' : '/'}${path}`);

/** Checks one song's fields; `at` prefixes the field name in the error (`resultList[0][3].copyrightId`). */
function song(value: unknown, at: string): MiguSong {
  if (!isObject(value)) throw shapeChanged(at);
  const field = (name: string) => `${at}.${name}`;
  const optional = <T extends 'string' | 'number'>(name: string, type: T) => {
    if (value[name] !== null && value[name] !== undefined && typeof value[name] !== type) throw shapeChanged(field(name));
    return (value[name] as (T extends 'string' ? string : number) | null | undefined) ?? null;
  };
  if (typeof value.copyrightId !== 'string' || !value.copyrightId) throw shapeChanged(field('copyrightId'));
  // The v3 search says `name`; the app's other song lists say `songName`. Either is the title.
  const name = typeof value.name === 'string' ? value.name : value.songName;
  if (typeof name !== 'string') throw shapeChanged(field('name'));
  const singerList = value.singerList ?? [];
  if (!Array.isArray(singerList)) throw shapeChanged(field('singerList'));
  const singers = singerList.map((s, i) => {
    if (!isObject(s) || typeof s.name !== 'string') throw shapeChanged(`${field('singerList')}[${i}].name`);
    return s.name;
  });
  const cover = optional('img3', 'string') || optional('img2', 'string') || optional('img1', 'string');
  return {
    copyrightId: value.copyrightId,
    name,
    singers,
    album: optional('album', 'string'),
    cover: cover ? absolute(cover) : null,
    duration: optional('duration', 'number'),
  };
}

const toSong = (s: MiguSong): SearchResultSong => ({
  id: s.copyrightId,
  name: s.name,
  artist: s.singers.filter(Boolean).join('/') || null,
  album: s.album?.trim() || null,
  album_img: s.cover,
  year: null, // the search lists no release date
  tracknumber: null,
  totaltracks: null,
  discnumber: null,
  totaldiscs: null,
  duration: s.duration !== null && Number.isFinite(s.duration) && s.duration > 0 ? Math.round(s.duration) : null,
  resource: manifest.id,
});

/** Migu copyright ids are 11 letters and digits (`60054704037`, `6005661F31N`). */
const COPYRIGHT_ID = /^[0-9A-Za-z]{5,32}$/;

export default defineTagSource<MiguManifest>({
  async search({ title, artist, duration, limit }, caps) {
    // Migu ranks by every word of the text; the album is left out, as store album names rarely match a file's.
    if (!title?.trim() || limit <= 0) return [];
    const text = [title.trim(), artist?.trim()].filter(Boolean).join(' ');
    const query = {
      isCorrect: '0', isCopyright: '1', searchSwitch: SEARCH_SWITCH, pageSize: String(Math.min(Math.ceil(limit), MAX_LIMIT)),
      text, pageNo: '1', sort: '0', sid: 'USS',
    };
    const body = await getApi(caps, { host: SEARCH_HOST, path: '/music_search/v3/search/searchAll', query }, searchHeaders(text, String(Date.now())));
    // Migu leaves songResultData out when nothing matched.
    if (body.songResultData === undefined || body.songResultData === null) return [];
    if (!isObject(body.songResultData)) throw shapeChanged('songResultData');
    const groups = body.songResultData.resultList ?? [];
    if (!Array.isArray(groups)) throw shapeChanged('songResultData.resultList');
    // resultList groups the versions of one song ([[song, its other uploads], …]); a copyright id is listed once.
    const seen = new Set<string>();
    const songs: MiguSong[] = [];
    groups.forEach((group, g) => {
      if (!Array.isArray(group)) throw shapeChanged(`songResultData.resultList[${g}]`);
      group.forEach((item, i) => {
        const s = song(item, `songResultData.resultList[${g}][${i}]`);
        if (!seen.has(s.copyrightId)) songs.push(s);
        seen.add(s.copyrightId);
      });
    });
    // The file's duration, when known, puts the right edit of a song first (radio edit vs album version).
    if (typeof duration === 'number' && duration > 0) {
      const distance = (s: MiguSong) => (s.duration ? Math.abs(s.duration - duration) : Number.POSITIVE_INFINITY);
      songs.sort((a, b) => distance(a) - distance(b));
    }
    return songs.slice(0, limit).map(toSong);
  },

  async lyrics({ id }, caps) {
    if (typeof id !== 'string' || !COPYRIGHT_ID.test(id)) {
      throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `"${String(id).slice(0, 40)}" is not a Migu copyright id.`);
    }
    const appHeaders = { channel: APP.channel, 'user-agent': APP.userAgent, referer: 'https://m.music.migu.cn/' };
    const body = await getApi(caps, { host: CONTENT_HOST, path: '/MIGUM2.0/v1.0/content/resourceinfo.do', query: { copyrightId: id, resourceType: '2' } }, appHeaders);
    if (!Array.isArray(body.resource)) throw shapeChanged('resource');
    // An unknown or withdrawn song is an empty resource list.
    const resource = body.resource[0];
    if (resource === undefined) return null;
    if (!isObject(resource)) throw shapeChanged('resource[0]');
    const lrcUrl = resource.lrcUrl;
    if (lrcUrl === undefined || lrcUrl === null || lrcUrl === '') return null;
    // `http://d.musicapp.migu.cn/…/x.lrc` (older songs say http), or a path on the file host.
    const parts = typeof lrcUrl === 'string' ? /^(?:(https?:\/\/[^/?#]+))?(\/[^#\s]*)$/i.exec(lrcUrl.trim()) : null;
    if (!parts) throw shapeChanged('resource[0].lrcUrl');
    // The file server checks that the download comes from the app.
    const text = await getText(caps, { host: parts[1] ?? FILE_HOST, path: parts[2]! }, { ...appHeaders, referer: 'https://app.c.nf.migu.cn/' });
    if (text === null) return null;
    const lrc = normaliseLrc(text).trim();
    return lrc || null;
  },
});
