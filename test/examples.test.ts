/**
 * The plugins in examples/ as an administrator would ship them: each is packed by `tagsonic plugin pack`,
 * uploaded to a real, listening server with `tagsonic plugin install` (the /mod upload route), enabled through
 * `/apimt/enable_script/`, and then used the way the product uses it — the Deezer source through the editor's
 * lookup routes (a worker's plugin pool runs it, pointed at a local replay of Deezer's API with
 * TAGSONIC_SOURCE_URL_DEEZER), the title cleaner through the workers' plugin invoke on real audio files, whose
 * tags are then read back from disk.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { RPC_SUBJECTS } from '@tagsonic/core/bus';
import { loadConfig } from '@tagsonic/core/config';
import { MediaRoots } from '@tagsonic/core/media';
import { TAG_JOURNAL_COLLECTION } from '@tagsonic/core/tags';
import { expandSelection } from '@tagsonic/core/tasks';
import { buildApp } from '@tagsonic/gateway';
import { startWorker, type Worker } from '@tagsonic/workers';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import { plugin } from '../cli/src/commands/plugin.ts';
import { packPlugin } from '../cli/src/commands/plugin-pack.ts';
import { runPluginTest } from '../cli/src/commands/plugin-test.ts';
import { call, expectError, expectOk, login, ADMIN_PASSWORD, type Session } from './api-harness.ts';
import { makeAudio, probeTags } from './support/audio.ts';
import { sourceFake } from './support/source-fake.ts';

const EXAMPLES = path.resolve(import.meta.dirname, '../examples');

const cover = (md5: string) => `https://e-cdns-images.dzcdn.net/images/cover/${md5}/1000x1000-000000-80-0-0.jpg`;
/** Deezer's answers, in the shape its API documents (fields the plugin does not read left out). */
const TRACK = {
  id: 3135556, readable: true, title: 'Harder, Better, Faster, Stronger', title_short: 'Harder, Better, Faster, Stronger', duration: 224,
  artist: { id: 27, name: 'Daft Punk', type: 'artist' },
  album: { id: 302127, title: 'Discovery', cover_big: 'https://e-cdns-images.dzcdn.net/images/cover/2e018122cb56986277102d2041a592c8/500x500-000000-80-0-0.jpg', cover_xl: cover('2e018122cb56986277102d2041a592c8'), type: 'album' },
  type: 'track',
};
const LIVE = { ...TRACK, id: 3135600, title: 'Harder, Better, Faster, Stronger (Alive 2007)', duration: 340, album: { ...TRACK.album, id: 302150, title: 'Alive 2007', cover_xl: cover('aa11') } };
const deezer = sourceFake('deezer', (p, query) => {
  if (p === '/search') {
    if (query.get('q')?.includes('Quota')) return [200, 'application/json', { error: { type: 'Exception', message: 'Quota limit exceeded', code: 4 } }];
    return [200, 'application/json', { data: [TRACK, LIVE], total: 2 }];
  }
  if (p === '/track/3135556') return [200, 'application/json', { ...TRACK, track_position: 4, disk_number: 1, release_date: '2001-03-07' }];
  if (p === '/track/3135600') return [200, 'application/json', { error: { type: 'DataException', message: 'no data', code: 800 } }];
  if (p === '/search/artist') {
    return [200, 'application/json', { data: [
      { id: 1, name: 'Daft Punk Tribute', picture_xl: 'https://e-cdns-images.dzcdn.net/images/artist/t/1000x1000-000000-80-0-0.jpg' },
      { id: 27, name: 'Daft Punk', picture_xl: 'https://e-cdns-images.dzcdn.net/images/artist/f2bc007e/1000x1000-000000-80-0-0.jpg' },
    ] }];
  }
  return [404, 'text/html', '<h1>Not found</h1>'];
});


let home: string;
let rt: Runtime;
let worker: Worker;
let app: FastifyInstance;
let url: string;
let admin: Session;
let media: string;

/** Packs an example and uploads it with the CLI, as an administrator would; returns what install printed. */
async function install(example: string): Promise<string> {
  const { file } = await packPlugin(path.join(EXAMPLES, example), { out: path.join(home, 'dist', `${example}.zip`) });
  let out = '';
  let err = '';
  const code = await plugin(['install', file, '--url', url, '--user', 'admin', '--password', ADMIN_PASSWORD], { out: { write: (t: string) => (out += t) }, err: { write: (t: string) => (err += t) } });
  expect(code, err).toBe(0);
  return out + err;
}

beforeAll(async () => {
  process.env.TAGSONIC_SOURCE_URL_DEEZER = deezer.baseUrl();
  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-examples-'));
  rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  await rt.users.ensureAdmin(ADMIN_PASSWORD);
  worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 2, plugins: { registry: rt.plugins, store: rt.store } });
  app = await buildApp(gatewayDeps(rt, { buildId: 'test', dashboardDir: path.join(home, 'no-dashboard') }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  admin = await login(app);
  media = rt.roots.root('media').dir;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await worker?.close();
  await rt?.close();
  delete process.env.TAGSONIC_SOURCE_URL_DEEZER;
  await rm(home, { recursive: true, force: true });
});

describe('examples/deezer (a third-party tag source)', () => {
  it('uploads disabled, and once enabled answers the editor\'s lookup with scored candidates and 1000 px covers', async () => {
    expect(await install('deezer')).toContain('installed deezer 1.0.0 (Deezer)');
    expectError(await call(app, admin, 'POST', '/apimt/fetch_id3_by_title/', { title: 'Harder, Better, Faster, Stronger', resource: 'deezer' }), 409, 'TAGSONIC_ERR_PLUGIN_DISABLED');
    expectOk(await call(app, admin, 'POST', '/apimt/enable_script/', { id: 'deezer', enabled: true }));
    expect(expectOk(await call(app, admin, 'POST', '/apimt/get_sources/', {})).data).toContainEqual({ id: 'deezer', name: 'Deezer', enabled: true });

    const body = expectOk(await call(app, admin, 'POST', '/apimt/fetch_id3_by_title/', {
      title: 'Harder, Better, Faster, Stronger', artist: 'Daft Punk', album: 'Discovery', resource: 'deezer',
    }));
    expect(body.data).toEqual([
      {
        id: '3135556', name: 'Harder, Better, Faster, Stronger', artist: 'Daft Punk', album: 'Discovery', album_img: cover('2e018122cb56986277102d2041a592c8'),
        year: '2001-03-07', tracknumber: 4, totaltracks: null, discnumber: 1, totaldiscs: null, duration: 224, resource: 'deezer',
        title_score: 2, artist_score: 2, album_score: 2,
      },
      // Deezer would not describe this one: the candidate stays, without track/disc numbers and date.
      expect.objectContaining({ id: '3135600', album: 'Alive 2007', year: null, tracknumber: null, discnumber: null, title_score: 1, album_score: 0 }),
    ]);
    const search = deezer.seen.find((r) => r.path === '/search')!;
    expect(search.query.get('q')).toBe('track:"Harder, Better, Faster, Stronger" artist:"Daft Punk"');
    expect(deezer.seen.map((r) => r.path)).toEqual(expect.arrayContaining(['/track/3135556', '/track/3135600']));
  });

  it('finds the artist by exact name first, with the 1000 px picture', async () => {
    const body = expectOk(await call(app, admin, 'POST', '/apimt/fetch_artist_by_keyword/', { title: 'Daft Punk', resource: 'deezer' }));
    expect(body.data).toEqual([{ artist: 'Daft Punk', artist_img: 'https://e-cdns-images.dzcdn.net/images/artist/f2bc007e/1000x1000-000000-80-0-0.jpg', desc: '' }]);
  });

  it('reports Deezer\'s own refusal by its message and code, as the editor and /mod show it', async () => {
    const body = expectError(await call(app, admin, 'POST', '/apimt/fetch_id3_by_title/', { title: 'Quota', resource: 'deezer' }), 503, 'TAGSONIC_ERR_PLUGIN_UPSTREAM');
    expect(body.message).toContain('Deezer refused /search: Quota limit exceeded (code 4).');
  });
});

describe('examples as source', () => {
  it('typecheck against the SDK', async () => {
    const tsc = path.resolve(EXAMPLES, '../node_modules/typescript/bin/tsc');
    for (const example of ['deezer', 'strip-video-junk']) {
      await promisify(execFile)(process.execPath, [tsc, '-p', path.join(EXAMPLES, example, 'tsconfig.json'), '--noEmit']);
    }
  }, 60_000);

  it('run their fixture.json with plugin test (the README\'s first step)', async () => {
    const report = await runPluginTest(path.join(EXAMPLES, 'deezer'), { env: { TAGSONIC_SOURCE_URL_DEEZER: deezer.baseUrl() } });
    expect(report).toMatchObject({ ok: true, result: [expect.objectContaining({ id: '3135556', tracknumber: 4 }), expect.objectContaining({ id: '3135600' })] });
    expect(report.http.map((c) => `${c.method} ${new URL(c.url).pathname} ${c.status}`)).toEqual(expect.arrayContaining(['GET /search 200', 'GET /track/3135556 200']));
    const artist = await runPluginTest(path.join(EXAMPLES, 'deezer'), { exportName: 'artist', env: { TAGSONIC_SOURCE_URL_DEEZER: deezer.baseUrl() } });
    expect(artist.result).toMatchObject({ name: 'Daft Punk' });

    await mkdir(path.join(media, 'Downloads'), { recursive: true });
    await makeAudio(path.join(media, 'Downloads', 'fixture.mp3'), { seconds: 1, tags: { title: 'Digital Love (Official Video)' } });
    const action = await runPluginTest(path.join(EXAMPLES, 'strip-video-junk'), { media });
    expect(action.result).toMatchObject({ items: [{ status: 'success', changes: [{ field: 'title', before: 'Digital Love (Official Video)', after: 'Digital Love' }] }], counts: { success: 1 } });
    expect((await probeTags(path.join(media, 'Downloads', 'fixture.mp3'))).title).toBe('Digital Love (Official Video)');
    await rm(path.join(media, 'Downloads'), { recursive: true });
  }, 60_000);
});

describe('examples/strip-video-junk (a batch action)', () => {
  it('cleans the titles of the audio files in a selected folder through the journal, keeping real names', async () => {
    expect(await install('strip-video-junk')).toContain('disabled until an administrator enables it on /actionMod');
    expectOk(await call(app, admin, 'POST', '/apimt/enable_script/', { id: 'strip-video-junk', enabled: true }));
    const folder = path.join(media, 'Downloads');
    await mkdir(path.join(folder, 'Nested'), { recursive: true });
    const titles: Record<string, string> = {
      '01.mp3': 'Get Lucky (Official Video)',
      '02.flac': 'One More Time [Official Music Video]',
      'Nested/03.mp3': 'Video Killed the Radio Star',
      'Nested/04.mp3': 'Around the World (Lyric Video) (HD)',
    };
    for (const [name, title] of Object.entries(titles)) await makeAudio(path.join(folder, name), { seconds: 1, tags: { title } });

    // As a task runs it: the host's expansion of the folder, then runItem per file on the workers' plugin pool.
    const items = await expandSelection(await MediaRoots.open({ media }), [folder]);
    const results: Array<{ status: string; reason?: string }> = [];
    for (const item of items) {
      results.push(await rt.bus.request<{ status: string; reason?: string }>(
        RPC_SUBJECTS.pluginsInvoke, { pluginId: 'strip-video-junk', export: 'runItem', options: { item, options: {}, dryRun: false, taskId: 't1' } }, { timeoutMs: 60_000 }));
    }
    const real = await realpath(folder);
    expect(items.map((i, n) => [path.relative(real, i.key), results[n]!.status])).toEqual([
      ['01.mp3', 'success'], ['02.flac', 'success'], ['Nested/03.mp3', 'skip'], ['Nested/04.mp3', 'success'],
    ]);
    const read = async (name: string) => (await probeTags(path.join(folder, name))).title;
    expect([await read('01.mp3'), await read('02.flac'), await read('Nested/03.mp3'), await read('Nested/04.mp3')])
      .toEqual(['Get Lucky', 'One More Time', 'Video Killed the Radio Star', 'Around the World']);
    // Each write is in the journal under the plugin's name, so the user can undo it.
    const journal = await rt.store.collection(TAG_JOURNAL_COLLECTION).find({ actor: 'plugin:strip-video-junk' });
    expect(journal.map((e) => path.relative(folder, String(e.path))).sort()).toEqual(['01.mp3', '02.flac', 'Nested/04.mp3']);
  }, 60_000);

  it('runs as a task from the dashboard (run_action): one item per file, journaled under the task, undone with it', async () => {
    const folder = path.join(media, 'AsTask');
    await mkdir(folder, { recursive: true });
    await makeAudio(path.join(folder, 'a.mp3'), { seconds: 1, tags: { title: 'Instant Crush (Official Video)' } });
    await makeAudio(path.join(folder, 'b.mp3'), { seconds: 1, tags: { title: 'Lose Yourself to Dance' } });
    const created = expectOk(await call(app, admin, 'POST', '/apimt/run_action/', { plugin_id: 'strip-video-junk', file_full_path: media, select_data: [{ name: 'AsTask' }] }));
    expect(created).toMatchObject({ message: '创建成功！ 任务在后台努力运行中', data: { total: 2, dry_run: false } });
    await expect.poll(async () => (await rt.tasks.get(created.data.task_id)).status, { timeout: 30_000, interval: 50 }).toBe('success');
    const detail = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${created.data.task_id}`)).data;
    // The operation log names an uploaded action by its manifest's name.
    expect(detail).toMatchObject({ name: 'Strip video junk from titles', kind: 'action:strip-video-junk', success_count: 1, skip_count: 1 });
    expect(detail.success[0].changes).toEqual([expect.objectContaining({ field: 'title', before: 'Instant Crush (Official Video)', after: 'Instant Crush' })]);
    expect((await probeTags(path.join(folder, 'a.mp3'))).title).toBe('Instant Crush');
    const journal = await rt.store.collection(TAG_JOURNAL_COLLECTION).find({ taskId: created.data.task_id });
    expect(journal.map((e) => path.basename(String(e.path)))).toEqual(['a.mp3']);
    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: created.data.task_id }));
    expect((await probeTags(path.join(folder, 'a.mp3'))).title).toBe('Instant Crush (Official Video)');
  }, 60_000);

  it('with dry_run reports what would change and writes nothing', async () => {
    const file = path.join(media, 'Dry', 'a.mp3');
    await mkdir(path.dirname(file), { recursive: true });
    await makeAudio(file, { seconds: 1, tags: { title: 'Aerodynamic (Official Audio)' } });
    const result = await rt.bus.request(
      RPC_SUBJECTS.pluginsInvoke, { pluginId: 'strip-video-junk', export: 'runItem', options: { item: { key: 'a', paths: ['Dry/a.mp3'] }, options: {}, dryRun: true, taskId: 't2' } });
    expect(result).toEqual({ status: 'success', changes: [{ path: 'Dry/a.mp3', kind: 'tags', field: 'title', before: 'Aerodynamic (Official Audio)', after: 'Aerodynamic' }] });
    expect((await probeTags(file)).title).toBe('Aerodynamic (Official Audio)');
  });
});

