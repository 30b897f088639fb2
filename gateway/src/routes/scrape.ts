import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { RPC_SUBJECTS, type PluginInvokeRequest } from '@tagsonic/core/bus';
import { invalid, isTagsonicError } from '@tagsonic/core/errors';
import { checkLlmSettings, readLlmSettings, translateLyric } from '@tagsonic/core/llm';
import { extractCredits, normaliseLrc } from '@tagsonic/core/lyrics';
import type { PluginRecord } from '@tagsonic/core/plugins';
import type { ArtistInfo } from '@tagsonic/sdk';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import {
  ExtractLyricResponse,
  FetchArtistRequest,
  FetchArtistResponse,
  FetchId3ByTitleRequest,
  FetchId3ByTitleResponse,
  FetchLyricRequest,
  GetSourcesRequest,
  GetSourcesResponse,
  LyricRequest,
  TextResponse,
} from '../schemas/scrape.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import type { Ctx } from '../deps.ts';

export const SCRAPE_TITLE_REQUIRED = 'TAGSONIC_ERR_SCRAPE_TITLE_REQUIRED';
export const SCRAPE_LYRIC_REQUIRED = 'TAGSONIC_ERR_SCRAPE_LYRIC_REQUIRED';

/** The spec's order of the 刮削配置 sources; uploaded sources follow by name. */
export const SOURCE_ORDER = ['netease', 'migu', 'qmusic', 'kugou', 'kuwo', 'itunes', 'spotify', 'musicbrainz', 'acoustid', 'smart_tag', 'lrclib'];

/** The spec's defaults when the client names no source. */
const DEFAULT_SONG_SOURCE = 'netease';
const DEFAULT_ARTIST_SOURCE = 'kuwo';
const PLUGIN_NO_EXPORT = 'TAGSONIC_ERR_PLUGIN_NO_EXPORT';

/**
 * The editor's online lookups (spec §7 fetchId3Title, fetchLyric, extractLyric, translationLyc,
 * fetch_artist_by_keyword, and the 刮削配置 source list). Plugins never run in the gateway: a lookup is a
 * request on the bus answered by a worker's plugin pool, which checks the registry (unknown, disabled) and
 * scores the candidates; a plugin's failure comes back with its own code and message.
 */
export async function scrapeRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const invoke = <T>(request: PluginInvokeRequest) => ctx.bus.request<T>(RPC_SUBJECTS.pluginsInvoke, request);
  /** A file the client names must be inside the media roots; the worker gets the real path. */
  const filePath = async (fullPath: string | undefined) => (fullPath ? (await ctx.roots.resolve(fullPath)).path : undefined);

  r.post(
    '/apimt/fetch_id3_by_title/',
    { onRequest: requireUser, schema: { body: FetchId3ByTitleRequest, response: { 200: FetchId3ByTitleResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const { title, artist, album, full_path, resource } = request.body;
      if (title.trim() === '') throw invalid(SCRAPE_TITLE_REQUIRED, '标题不能为空！');
      const options = { title: title.trim(), artist: artist?.trim() ?? '', album: album?.trim() ?? '', path: await filePath(full_path) };
      const songs = await invoke<unknown[]>({ pluginId: resource ?? DEFAULT_SONG_SOURCE, export: 'search', options });
      return ok(songs as never, songs.length ? '获取成功！' : '未找到结果');
    },
  );

  r.post(
    '/apimt/fetch_lyric/',
    { onRequest: requireUser, schema: { body: FetchLyricRequest, response: { 200: TextResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const { song_id, resource } = request.body;
      let lyric: unknown;
      try {
        lyric = await invoke<unknown>({ pluginId: resource, export: 'lyrics', options: { id: String(song_id) } });
      } catch (error) {
        // A source without lyrics (no `lyrics` export) has none for this song either.
        if (!(isTagsonicError(error) && error.code === PLUGIN_NO_EXPORT)) throw error;
        lyric = null;
      }
      const text = typeof lyric === 'string' ? normaliseLrc(lyric).trim() : '';
      return ok(text, text ? '获取成功！' : '未找到歌词！');
    },
  );

  r.post(
    '/apimt/extract_lyric/',
    { onRequest: requireUser, schema: { body: LyricRequest, response: { 200: ExtractLyricResponse, '4xx': ErrorEnvelope } } },
    async (request) => ok(extractCredits(request.body.lyc), '获取成功！'),
  );

  r.post(
    '/apimt/translation_lyc/',
    { onRequest: requireUser, schema: { body: LyricRequest, response: { 200: TextResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const { lyc } = request.body;
      if (lyc.trim() === '') throw invalid(SCRAPE_LYRIC_REQUIRED, '歌词不能为空！');
      const settings = checkLlmSettings(await readLlmSettings(ctx.store));
      return ok(await translateLyric(lyc, settings), '翻译成功！');
    },
  );

  r.post(
    '/apimt/fetch_artist_by_keyword/',
    { onRequest: requireUser, schema: { body: FetchArtistRequest, response: { 200: FetchArtistResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const found = await lookUpArtist(ctx, request.body);
      const artists = found.map(({ resource: _source, ...a }) => a);
      return ok(artists, artists.length ? '获取成功！' : '未找到歌手');
    },
  );

  r.post(
    '/apimt/get_sources/',
    { onRequest: requireUser, schema: { body: GetSourcesRequest, response: { 200: GetSourcesResponse, '4xx': ErrorEnvelope } } },
    async () => {
      const records: PluginRecord[] = [];
      for (let page = 1; ; page++) {
        const { items, total } = await ctx.plugins.list({ kind: 'tag-source', page, pageSize: 100 });
        records.push(...items);
        if (items.length === 0 || records.length >= total) break;
      }
      const rank = (id: string) => {
        const i = SOURCE_ORDER.indexOf(id);
        return i < 0 ? SOURCE_ORDER.length : i;
      };
      const sources = records
        .filter((record) => record.enabled)
        .map((record) => ({ id: record.id, name: nameOf(record), enabled: record.enabled }))
        .sort((a, b) => rank(a.id) - rank(b.id) || a.name.localeCompare(b.name));
      return ok(sources, '获取成功！');
    },
  );
}

/**
 * An artist by name through a tag source's `artist` lookup (default kuwo) → the candidates (at most one today),
 * each naming its source. fetch_artist_by_keyword and the artist screen's fetch_artists both ask through here.
 */
export async function lookUpArtist(ctx: Ctx, query: { title: string; resource?: string; full_path?: string }): Promise<Array<{ artist: string; artist_img: string; desc: string; resource: string }>> {
  const { title, full_path } = query;
  const resource = query.resource ?? DEFAULT_ARTIST_SOURCE;
  if (title.trim() === '') throw invalid(SCRAPE_TITLE_REQUIRED, '标题不能为空！');
  if (full_path) await ctx.roots.resolve(full_path); // confined like every path a client sends, though the lookup is by name
  const request: PluginInvokeRequest = { pluginId: resource, export: 'artist', options: { keyword: title.trim() } };
  const found = await ctx.bus.request<ArtistInfo | null>(RPC_SUBJECTS.pluginsInvoke, request);
  return found && typeof found === 'object' && typeof found.name === 'string'
    ? [{ artist: found.name, artist_img: found.image ?? '', desc: found.description ?? '', resource }]
    : [];
}

const nameOf = (record: PluginRecord) => record.versions.find((v) => v.version === record.activeVersion)?.manifest.name ?? record.id;
