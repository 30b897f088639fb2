/**
 * The editor's online lookups end to end: the real server (gateway built with buildApp, a real worker with its
 * plugin pool, the real registry on the embedded store), the built-in iTunes and LRCLIB sources pointed at local
 * fakes of their APIs through TAGSONIC_SOURCE_URL_<ID>, a real audio file, a local fake of an OpenAI-compatible
 * API for the translation; then the same lookup with the gateway and the worker on separate NATS connections.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { connectNatsBus } from '@tagsonic/core/bus';
import { loadConfig } from '@tagsonic/core/config';
import type { Manifest } from '@tagsonic/sdk';
import { buildApp } from '@tagsonic/gateway';
import { startWorker, type Worker } from '@tagsonic/workers';
import { builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import { call, expectError, expectOk, login, ADMIN_PASSWORD, USER_PASSWORD, type Session } from './api-harness.ts';
import { makeAudio } from './support/audio.ts';
import { sourceFake } from './support/source-fake.ts';
import { startNatsServer, type NatsServerHandle } from './support/nats-server.ts';

const SONG = {
  wrapperType: 'track', kind: 'song', trackId: 1440833098, trackName: 'Yesterday', artistName: 'The Beatles', collectionName: 'Help!',
  artworkUrl100: 'https://is1-ssl.mzstatic.com/image/thumb/Music/a/b/100x100bb.jpg', releaseDate: '1965-08-06T07:00:00Z',
  trackNumber: 13, trackCount: 14, discNumber: 1, discCount: 1, trackTimeMillis: 125_000,
};
const itunes = sourceFake('itunes', (p, query) => {
  if (query.get('term')?.includes('Broken')) return [503, 'text/plain', 'Service Unavailable'];
  return p === '/search' ? [200, 'text/javascript; charset=utf-8', { resultCount: 1, results: [SONG] }] : [404, 'text/plain', 'no'];
});
const lrclib = sourceFake('lrclib', (p) =>
  p === '/api/get/42'
    ? [200, 'application/json', { id: 42, trackName: 'Yesterday', artistName: 'The Beatles', syncedLyrics: '[00:01.5]作词：Lennon\n[0:03.25]Yesterday', plainLyrics: 'x' }]
    : [404, 'application/json', { code: 404, name: 'TrackNotFound', message: 'Failed to find specified track' }],
);

/** A local OpenAI-compatible endpoint: answers each line prefixed, and keeps the requests. */
const llmSeen: Array<{ path: string; authorization?: string; model: string }> = [];
let llm: Server;

let home: string;
let rt: Runtime;
let worker: Worker;
let app: FastifyInstance;
let admin: Session;
let media: string;

beforeAll(async () => {
  llm = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; messages: Array<{ content: string }> };
      llmSeen.push({ path: req.url!, authorization: req.headers.authorization, model: body.model });
      const lines = JSON.parse(body.messages.at(-1)!.content) as string[];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify(lines.map((l) => `昨天(${l})`)) } }] }));
    });
  });
  await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));

  // The worker's pool reads the source overrides from the environment, as in production.
  process.env.TAGSONIC_SOURCE_URL_ITUNES = itunes.baseUrl();
  process.env.TAGSONIC_SOURCE_URL_LRCLIB = lrclib.baseUrl();
  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-scrape-'));
  rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  await rt.users.ensureAdmin(ADMIN_PASSWORD);
  await rt.users.create({ username: 'alice', password: USER_PASSWORD });
  for (const id of ['itunes', 'lrclib']) {
    const { manifest, code } = await builtinPlugin(id);
    await rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
  }
  // An uploaded source with an artist lookup (the built-ins that have one call Chinese sites).
  await rt.plugins.install({
    manifest: { id: 'artist_finder', name: 'Artist Finder', version: '1.0.0', description: 'Finds artists.', kind: 'tag-source', entry: 'index.js', permissions: {} },
    code: `module.exports = {
      search: async () => [],
      artist: async ({ keyword }) => keyword === '周杰伦' ? { name: '周杰伦', image: 'https://img.example/jay.jpg', description: '华语流行乐男歌手' } : null,
    };`,
  }, 'upload');
  await rt.plugins.setEnabled('artist_finder', true);
  worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 2, plugins: { registry: rt.plugins, store: rt.store } });
  app = await buildApp(gatewayDeps(rt, { buildId: 'test', dashboardDir: path.join(home, 'no-dashboard') }));
  await app.ready();
  admin = await login(app);
  media = rt.roots.root('media').dir;
  await makeAudio(path.join(media, 'yesterday.mp3'), { seconds: 2, tags: { title: 'Yesterday' } });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await worker?.close();
  await rt?.close();
  await new Promise((resolve) => llm?.close(resolve));
  await rm(home, { recursive: true, force: true });
});

describe('scrape routes (embedded mode)', () => {
  it('fetch_id3_by_title answers scored candidates from the chosen source, with the file\'s duration sent along', async () => {
    const alice = await login(app, 'alice', USER_PASSWORD);
    const body = expectOk(await call(app, alice, 'POST', '/apimt/fetch_id3_by_title/', {
      title: 'Yesterday', artist: 'The Beatles', album: '', full_path: path.join(media, 'yesterday.mp3'), resource: 'itunes',
    }));
    expect(body.data).toEqual([{
      id: '1440833098', name: 'Yesterday', artist: 'The Beatles', album: 'Help!', album_img: 'https://is1-ssl.mzstatic.com/image/thumb/Music/a/b/3000x3000bb.jpg',
      year: '1965-08-06', tracknumber: 13, totaltracks: 14, discnumber: 1, totaldiscs: 1, duration: 125, resource: 'itunes',
      title_score: 2, artist_score: 2, album_score: 0,
    }]);
    const request = itunes.seen.at(-1)!;
    expect(request.path).toBe('/search');
    expect(request.query.get('term')).toBe('Yesterday The Beatles');
  });

  it('refuses an empty title, a file outside the media roots, an unknown or disabled source, and anonymous callers', async () => {
    const empty = expectError(await call(app, admin, 'POST', '/apimt/fetch_id3_by_title/', { title: '  ', resource: 'itunes' }), 400, 'TAGSONIC_ERR_SCRAPE_TITLE_REQUIRED');
    expect(empty.message).toBe('标题不能为空！');
    expectError(await call(app, admin, 'POST', '/apimt/fetch_id3_by_title/', { title: 'x', resource: 'itunes', full_path: '/etc/passwd' }), 403, 'TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    expectError(await call(app, admin, 'POST', '/apimt/fetch_id3_by_title/', { title: 'x', resource: 'nosuchsource' }), 404, 'TAGSONIC_ERR_PLUGIN_NOT_INSTALLED');
    expectError(await call(app, 'none', 'POST', '/apimt/fetch_id3_by_title/', { title: 'x' }), 401);
    await rt.plugins.setEnabled('itunes', false);
    try {
      const disabled = expectError(await call(app, admin, 'POST', '/apimt/fetch_id3_by_title/', { title: 'Yesterday', resource: 'itunes' }), 409, 'TAGSONIC_ERR_PLUGIN_DISABLED');
      expect(disabled.message).toContain('itunes');
      const sources = expectOk(await call(app, admin, 'POST', '/apimt/get_sources/', {}));
      expect(sources.data.map((x: { id: string }) => x.id)).toEqual(['lrclib', 'artist_finder']);
    } finally {
      await rt.plugins.setEnabled('itunes', true);
    }
  });

  it('passes a source\'s failure through with its own code and message', async () => {
    const body = expectError(await call(app, admin, 'POST', '/apimt/fetch_id3_by_title/', { title: 'Broken', resource: 'itunes' }), 503, 'TAGSONIC_ERR_PLUGIN_UPSTREAM');
    expect(body.message).toContain('HTTP 503');
    // The worker's pool counted it; the registry has it once the pool flushes (on close at the latest).
  });

  it('fetch_lyric normalises the source\'s LRC, and answers \'\' for a song without lyrics or a source without any', async () => {
    const found = expectOk(await call(app, admin, 'POST', '/apimt/fetch_lyric/', { song_id: '42', resource: 'lrclib' }));
    expect(found.data).toBe('[00:01.50]作词：Lennon\n[00:03.25]Yesterday');
    const none = expectOk(await call(app, admin, 'POST', '/apimt/fetch_lyric/', { song_id: 7, resource: 'lrclib' }));
    expect(none).toMatchObject({ data: '', message: '未找到歌词！' });
    expect(expectOk(await call(app, admin, 'POST', '/apimt/fetch_lyric/', { song_id: '1', resource: 'itunes' })).data).toBe('');
  });

  it('extract_lyric reads the credits', async () => {
    const body = expectOk(await call(app, admin, 'POST', '/apimt/extract_lyric/', { lyc: '[00:00.00]作词：方文山\n[00:01.00]作曲：周杰伦\n[00:05.00]歌词' }));
    expect(body.data).toEqual({ composer: '周杰伦', lyricist: '方文山' });
  });

  it('translation_lyc needs the LLM settings, then translates through them keeping the time tags', async () => {
    expectError(await call(app, admin, 'POST', '/apimt/translation_lyc/', { lyc: '[00:01.00]Yesterday' }), 409, 'TAGSONIC_ERR_LLM_NOT_CONFIGURED');
    const empty = expectError(await call(app, admin, 'POST', '/apimt/translation_lyc/', { lyc: ' ' }), 400, 'TAGSONIC_ERR_SCRAPE_LYRIC_REQUIRED');
    expect(empty.message).toBe('歌词不能为空！');
    const base = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`;
    await rt.store.collection('settings').updateOne(
      { _id: 'system' },
      { $set: { llm_base_url: base, llm_api_key: 'sk-local', llm_model_name: 'qwen2.5' } },
      { upsert: true },
    );
    const body = expectOk(await call(app, admin, 'POST', '/apimt/translation_lyc/', { lyc: '[00:01.00]Yesterday\n[00:03.00]All my troubles' }));
    expect(body.data).toBe('[00:01.00]昨天(Yesterday)\n[00:03.00]昨天(All my troubles)');
    expect(llmSeen.at(-1)).toEqual({ path: '/v1/chat/completions', authorization: 'Bearer sk-local', model: 'qwen2.5' });
  });

  it('fetch_artist_by_keyword answers the source\'s artist, or an empty list', async () => {
    const found = expectOk(await call(app, admin, 'POST', '/apimt/fetch_artist_by_keyword/', { title: ' 周杰伦 ', resource: 'artist_finder', full_path: path.join(media, 'yesterday.mp3') }));
    expect(found.data).toEqual([{ artist: '周杰伦', artist_img: 'https://img.example/jay.jpg', desc: '华语流行乐男歌手' }]);
    expect(expectOk(await call(app, admin, 'POST', '/apimt/fetch_artist_by_keyword/', { title: 'Nobody', resource: 'artist_finder' })).data).toEqual([]);
    expectError(await call(app, admin, 'POST', '/apimt/fetch_artist_by_keyword/', { title: '', resource: 'artist_finder' }), 400, 'TAGSONIC_ERR_SCRAPE_TITLE_REQUIRED');
    // The spec's default source is kuwo: not installed here.
    expectError(await call(app, admin, 'POST', '/apimt/fetch_artist_by_keyword/', { title: '周杰伦' }), 404, 'TAGSONIC_ERR_PLUGIN_NOT_INSTALLED');
  });

  it('get_sources lists the installed, enabled tag sources in the spec\'s order, uploaded ones after', async () => {
    const body = expectOk(await call(app, admin, 'POST', '/apimt/get_sources/', {}));
    expect(body.data.map((s: { id: string }) => s.id)).toEqual(['itunes', 'lrclib', 'artist_finder']);
    expect(body.data[0]).toEqual({ id: 'itunes', name: 'iTunes', enabled: true });
  });
});

describe('scrape routes (distributed: gateway and worker on separate NATS connections)', () => {
  let nats: NatsServerHandle;
  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(async () => {
    await nats?.stop();
  });

  it('answers no-responder while no worker runs, then the worker\'s pool answers over NATS', async () => {
    const gatewayBus = await connectNatsBus({ servers: nats.url, name: 'scrape-gateway', onError: () => {} });
    const workerBus = await connectNatsBus({ servers: nats.url, name: 'scrape-worker', onError: () => {} });
    const gateway = await buildApp(gatewayDeps(rt, { bus: gatewayBus, buildId: 'test', dashboardDir: path.join(home, 'no-dashboard') }));
    let natsWorker: Worker | undefined;
    try {
      await gateway.ready();
      const session = await login(gateway);
      const query = { title: 'Yesterday', artist: 'The Beatles', resource: 'itunes' };
      expectError(await call(gateway, session, 'POST', '/apimt/fetch_id3_by_title/', query), 503, 'TAGSONIC_ERR_BUS_NO_RESPONDER');
      natsWorker = await startWorker({ bus: workerBus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 1, plugins: { registry: rt.plugins, store: rt.store } });
      const body = expectOk(await call(gateway, session, 'POST', '/apimt/fetch_id3_by_title/', query));
      expect(body.data[0]).toMatchObject({ name: 'Yesterday', resource: 'itunes', title_score: 2, artist_score: 2 });
      expectError(await call(gateway, session, 'POST', '/apimt/fetch_id3_by_title/', { ...query, resource: 'nosuchsource' }), 404, 'TAGSONIC_ERR_PLUGIN_NOT_INSTALLED');
    } finally {
      await gateway.close();
      await natsWorker?.close();
      await gatewayBus.close();
      await workerBus.close();
    }
  }, 60_000);
});
