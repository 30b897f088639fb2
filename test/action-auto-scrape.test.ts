/**
 * 自动刮削 through the task engine as the batch side bar drives it: POST /apimt/batch_auto_update_id3/ (spec doc 1 §7
 * batchAutoUpdateId3: music_info { select_mode, source_list, is_skip_tag, is_folder_album, scrape_rate }, modify_list)
 * → the auto-scrape plugin's items run by the workers' pool → the real built-in Kugou source, pointed by
 * TAGSONIC_SOURCE_URL_KUGOU at a local replay of Kugou's answers (song search, lyric search and download, and the
 * cover picture) → tags, lyrics and cover on disk, read back with ffprobe/ffmpeg, and the task report's sections
 * (mode match with raw vs new values, misses by what the file lacked with their candidates). Real store, bus,
 * workers, sandbox, files and HTTP; no mocks.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@tagsonic/core/config';
import { buildApp } from '@tagsonic/gateway';
import { startWorker, type Worker } from '@tagsonic/workers';
import { builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import type { Manifest } from '@tagsonic/sdk';
import { call, expectOk, login, ADMIN_PASSWORD, type Session } from './api-harness.ts';
import { makeAudio, probeTags } from './support/audio.ts';
import { sourceFake, type FakeAnswer } from './support/source-fake.ts';
import { sourceExtrasCapability } from '../workers/src/plugin-runtime/capabilities/source-extras.ts';
import { folderKey, titleFromName } from '../plugins/auto-scrape/src/names.ts';
import { taskFinished } from './support/task-wait.ts';

const run = promisify(execFile);
const HASH = 'B8B4E2E5A5E56B4C3E0A1C2D3E4F5A6B';
let cover: Buffer = Buffer.alloc(0);
let otherCover: Buffer = Buffer.alloc(0);

/** Kugou's complexsearch results (see plugin-kugou.test.ts); the cover template points at the replay itself. */
const sunny = (base: string) => ({
  SongName: '<em>晴天</em>', OriSongName: '晴天', SingerName: '周杰伦', Singers: [{ name: '周杰伦', id: 3520 }], AlbumName: '叶惠美',
  AlbumID: '960399', FileHash: HASH, Duration: 4, PublishTime: '2003-07-31 00:00:00', Image: `${base}/stdmusic/{size}/sunny.jpg`,
});
const found = (lists: unknown[]) => ({ status: 1, error_code: 0, error_msg: '', data: { page: 1, pagesize: lists.length, total: lists.length, lists } });
const LRC = ['[ti:晴天]', '[00:29.12]故事的小黄花', '[00:32.00]从出生那年就飘着', ''].join('\n');

const fake = sourceFake('kugou', (p, query): FakeAnswer => {
  if (p === '/v2/search/song') {
    const keyword = query.get('keyword') ?? '';
    if (keyword.startsWith('nothing')) return [200, 'application/json', found([])];
    if (keyword.startsWith('outage')) return [502, 'text/html', '<html><body>502 Bad Gateway</body></html>'];
    // A cover on a loopback address no administrator configured: the host refuses to download it.
    if (keyword.startsWith('elsewhere')) return [200, 'application/json', found([{ ...sunny(fake.baseUrl()), Image: 'http://127.0.0.1:9/stdmusic/{size}/x.jpg' }])];
    if (keyword.startsWith('以父之名')) {
      const song = { ...sunny(fake.baseUrl()), SongName: '以父之名', FileHash: 'D'.repeat(32), Duration: 4 };
      return [200, 'application/json', found([{ ...song, FileHash: 'E'.repeat(32), AlbumName: '无与伦比演唱会', PublishTime: '2010-01-01', Image: `${fake.baseUrl()}/stdmusic/{size}/qlx.jpg` }, song])];
    }
    if (keyword.startsWith('七里香')) return [200, 'application/json', found([{ ...sunny(fake.baseUrl()), SongName: '七里香', FileHash: 'C'.repeat(32), AlbumName: '七里香', PublishTime: '2004-08-03 00:00:00', Image: `${fake.baseUrl()}/stdmusic/{size}/qlx.jpg` }])];
    return [200, 'application/json', found([sunny(fake.baseUrl()), { ...sunny(fake.baseUrl()), SongName: '晴天 (Live)', FileHash: '0F1E2D3C4B5A69788796A5B4C3D2E1F0', AlbumName: '地表最强', Duration: 301 }])];
  }
  if (p === '/search') return [200, 'application/json', { status: 200, info: 'OK', candidates: query.get('hash') === HASH ? [{ id: '22361470', accesskey: 'A1B2C3D4E5F6', duration: 4000, song: '晴天', singer: '周杰伦' }] : [] }];
  if (p === '/download') return [200, 'application/json', { status: 200, info: 'OK', fmt: 'lrc', content: Buffer.from(LRC).toString('base64') }];
  if (p === '/stdmusic/sunny.jpg') return [200, 'image/jpeg', cover];
  if (p === '/stdmusic/qlx.jpg') return [200, 'image/jpeg', otherCover];
  return [404, 'text/html', 'not found'];
});

let home: string;
let rt: Runtime;
let worker: Worker;
let app: FastifyInstance;
let admin: Session;
let media: string;
let folder: string;

beforeAll(async () => {
  process.env.TAGSONIC_SOURCE_URL_KUGOU = fake.baseUrl();
  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-auto-scrape-'));
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=red:s=64x64', '-frames:v', '1', path.join(home, 'cover.jpg')]);
  cover = await readFile(path.join(home, 'cover.jpg'));
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=blue:s=64x64', '-frames:v', '1', path.join(home, 'other.jpg')]);
  otherCover = await readFile(path.join(home, 'other.jpg'));
  rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  await rt.users.ensureAdmin(ADMIN_PASSWORD);
  for (const id of ['auto-scrape', 'kugou']) {
    const { manifest, code } = await builtinPlugin(id);
    await rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
  }
  worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 2, plugins: { registry: rt.plugins, store: rt.store } });
  app = await buildApp(gatewayDeps(rt, { buildId: 'test', dashboardDir: path.join(home, 'no-dashboard') }));
  await app.ready();
  admin = await login(app);
  media = rt.roots.root('media').dir;
  folder = path.join(media, 'Scrape');
  await mkdir(folder, { recursive: true });
  await makeAudio(path.join(folder, '01 晴天.mp3'), { seconds: 4, tags: { title: '晴天', artist: '周杰伦' } });
  await makeAudio(path.join(folder, '02 nothing.flac'), { seconds: 2, tags: { title: 'nothing like it' } });
}, 60_000);

afterAll(async () => {
  delete process.env.TAGSONIC_SOURCE_URL_KUGOU;
  await app?.close();
  await worker?.close();
  await rt?.close();
  await rm(home, { recursive: true, force: true });
});

const finished = (taskId: string, timeoutMs = 30_000) => taskFinished(rt.tasks, taskId, timeoutMs);

/** The embedded picture's bytes, extracted by ffmpeg (an independent reader). */
async function embeddedCover(file: string): Promise<Buffer> {
  const out = path.join(home, `extracted-${Date.now()}.jpg`);
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-an', '-c:v', 'copy', '-frames:v', '1', out]);
  return readFile(out);
}

const select = (...names: string[]) => ({ file_full_path: media, select_data: names.map((name) => ({ icon: 'icon-folder', name, title: name })) });
const payload = (music: Record<string, unknown>, modify?: string[]) => ({
  ...select('Scrape'),
  music_info: { select_mode: 'simple', source_list: ['kugou'], is_skip_tag: false, is_folder_album: false, scrape_rate: 20, ...music },
  ...(modify ? { modify_list: modify } : {}),
});

describe('auto scrape through the route', () => {
  it('copies album, year, lyrics and the cover of the accepted candidate; the report shows the mode match and the miss with its lacks', async () => {
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', { ...payload({}), dry_run: true }));
    expect(dry.message).toBe('创建成功！ 任务在后台努力运行中');
    expect(await finished(dry.data.task_id)).toMatchObject({ kind: 'action:auto-scrape', action: '自动刮削', status: 'success', counts: { success: 1, miss: 1 } });
    expect(await probeTags(path.join(folder, '01 晴天.mp3'))).not.toHaveProperty('album');

    const applied = expectOk(await call(app, admin, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }));
    expect(await finished(applied.data.task_id)).toMatchObject({ status: 'success', counts: { success: 1, fail: 0 } });
    const tags = await probeTags(path.join(folder, '01 晴天.mp3'));
    expect(tags).toMatchObject({ title: '晴天', artist: '周杰伦', album: '叶惠美' });
    expect(tags.date ?? tags.tyer).toBe('2003-07-31');
    expect(Object.entries(tags).find(([k]) => k.startsWith('lyrics'))?.[1]).toContain('[00:29.12]故事的小黄花');
    expect((await embeddedCover(path.join(folder, '01 晴天.mp3'))).equals(cover)).toBe(true);

    const report = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${dry.data.task_id}`)).data;
    // Title and artist agree, the file had no album: a 宽松模式 match to review, with its raw values.
    expect(report.mode_name).toBe('宽松模式');
    expect(report.mode_success).toEqual([expect.objectContaining({
      name: '01 晴天.mp3', title: '晴天', artist: '周杰伦', album: '叶惠美', similar: 2, extra: { raw_title: '晴天', raw_artist: '周杰伦', raw_album: null },
    })]);
    expect(report.mode_success[0].changes.map((c: { field: string }) => c.field)).toEqual(['album', 'album_img', 'year', 'lyrics']);
    // No artist and no album on the file, and nothing found.
    expect(report.miss_artist_album).toEqual([expect.objectContaining({ name: '02 nothing.flac', reason: expect.stringMatching(/^no candidates \(searched "nothing like it" in kugou\)/) })]);

    // Undo puts the file back as it was.
    expect(expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: applied.data.task_id })).data).toMatchObject({ failed: [] });
    expect(await probeTags(path.join(folder, '01 晴天.mp3'))).not.toHaveProperty('album');
  }, 60_000);

  it('hard mode never takes a candidate more than 3 s off: the miss keeps the candidates for the report', async () => {
    await makeAudio(path.join(folder, '03 晴天 long.mp3'), { seconds: 9, tags: { title: '晴天', artist: '周杰伦', album: '叶惠美' } });
    try {
      const res = expectOk(await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', { file_full_path: folder, select_data: ['03 晴天 long.mp3'], music_info: { select_mode: 'hard', source_list: ['kugou'], scrape_rate: 20 } }));
      expect(await finished(res.data.task_id)).toMatchObject({ counts: { miss: 1 } });
      const report = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data;
      expect(report.miss_tag).toEqual([expect.objectContaining({ name: '03 晴天 long.mp3', reason: expect.stringMatching(/^2 candidates, none accepted in hard mode/) })]);
      expect(report.miss_tag[0].candidate_list[0]).toMatchObject({ name: '晴天', artist: '周杰伦', album: '叶惠美', resource: 'kugou', duration: 4, title_score: 2, artist_score: 2, album_score: 2 });
      expect(await probeTags(path.join(folder, '03 晴天 long.mp3'))).not.toHaveProperty('date');
    } finally {
      await rm(path.join(folder, '03 晴天 long.mp3'), { force: true });
    }
  }, 60_000);

  it('is_folder_album: the tracks of a folder end as one album (album, year and cover of the folder\'s first match)', async () => {
    const album = path.join(media, 'Album');
    await mkdir(album, { recursive: true });
    await makeAudio(path.join(album, '01 晴天.mp3'), { seconds: 4, tags: { title: '晴天', artist: '周杰伦' } });
    await makeAudio(path.join(album, '02 七里香.mp3'), { seconds: 4, tags: { title: '七里香', artist: '周杰伦' } });
    const alone = expectOk(await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', { ...select('Album'), music_info: { source_list: ['kugou'], scrape_rate: 2 }, dry_run: true }));
    expect(await finished(alone.data.task_id)).toMatchObject({ counts: { success: 2 } });
    const previews = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${alone.data.task_id}`)).data.mode_success;
    expect(previews.map((r: { album: string }) => r.album).sort()).toEqual(['七里香', '叶惠美']);

    const res = expectOk(await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', { ...select('Album'), music_info: { source_list: ['kugou'], is_folder_album: true, scrape_rate: 2 } }));
    expect(await finished(res.data.task_id)).toMatchObject({ counts: { success: 2, fail: 0 } });
    const [one, two] = [await probeTags(path.join(album, '01 晴天.mp3')), await probeTags(path.join(album, '02 七里香.mp3'))];
    expect(one.album).toBe(two.album);
    expect(['七里香', '叶惠美']).toContain(one.album);
    expect(one.date).toBe(two.date);
    expect((await embeddedCover(path.join(album, '01 晴天.mp3'))).equals(await embeddedCover(path.join(album, '02 七里香.mp3')))).toBe(true);
  }, 60_000);

  it('is_folder_album: a later track takes its song from the folder\'s album when one of its candidates is on it', async () => {
    const album = path.join(media, 'Yehuimei');
    await mkdir(album, { recursive: true });
    await makeAudio(path.join(album, '01 晴天.mp3'), { seconds: 4, tags: { title: '晴天', artist: '周杰伦' } });
    await makeAudio(path.join(album, '02 以父之名.mp3'), { seconds: 4, tags: { title: '以父之名', artist: '周杰伦' } });
    const body = (folderAlbum: boolean) => ({ ...select('Yehuimei'), music_info: { source_list: ['kugou'], is_folder_album: folderAlbum, scrape_rate: 1 }, dry_run: true });
    const albums = async (taskId: string) => {
      await finished(taskId);
      const rows = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${taskId}`)).data.mode_success as Array<{ name: string; album: string; report: { song_id: string } }>;
      return Object.fromEntries(rows.map((r) => [r.name, `${r.album} ${r.report.song_id.slice(0, 2).toUpperCase()}`]));
    };
    // Alone, 以父之名's first candidate is the live album's.
    expect(await albums(expectOk(await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', body(false))).data.task_id)).toEqual({ '01 晴天.mp3': '叶惠美 B8', '02 以父之名.mp3': '无与伦比演唱会 EE' });
    // With the folder as one album (晴天, paced first, decides it), the 叶惠美 candidate is taken.
    expect(await albums(expectOk(await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', body(true))).data.task_id)).toEqual({ '01 晴天.mp3': '叶惠美 B8', '02 以父之名.mp3': '叶惠美 DD' });
  }, 60_000);

  it('a second scrape of a scraped track changes nothing: same values, same lyrics, the same cover byte for byte', async () => {
    const dir = path.join(media, 'Twice');
    await mkdir(dir, { recursive: true });
    await makeAudio(path.join(dir, '晴天.mp3'), { seconds: 4, tags: { title: '晴天', artist: '周杰伦' } });
    const first = expectOk(await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', { ...select('Twice'), music_info: { source_list: ['kugou'], scrape_rate: 20 } }));
    expect(await finished(first.data.task_id)).toMatchObject({ counts: { success: 1 } });
    const again = expectOk(await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', { ...select('Twice'), music_info: { source_list: ['kugou'], scrape_rate: 20 }, dry_run: true }));
    expect(await finished(again.data.task_id)).toMatchObject({ counts: { skip: 1, success: 0 } });
    const [row] = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${again.data.task_id}`)).data.skip;
    expect(row.reason).toBe('already as kugou has it ("晴天" by 周杰伦)');
  }, 60_000);

  it('is_skip_tag keeps the values a file has and fills only the empty fields', async () => {
    const tagged = path.join(media, 'Tagged');
    await mkdir(tagged, { recursive: true });
    await makeAudio(path.join(tagged, '晴天.mp3'), { seconds: 4, tags: { title: '晴天', artist: '周杰伦', album: '我的专辑', date: '1999' } });
    const res = expectOk(await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', { ...select('Tagged'), music_info: { source_list: ['kugou'], is_skip_tag: true, scrape_rate: 20 } }));
    expect(await finished(res.data.task_id)).toMatchObject({ counts: { success: 1 } });
    const report = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data;
    expect(report.mode_success[0].changes.map((c: { field: string }) => c.field)).toEqual(['album_img', 'lyrics']);
    const tags = await probeTags(path.join(tagged, '晴天.mp3'));
    expect(tags).toMatchObject({ album: '我的专辑', date: '1999' });
    expect(Object.entries(tags).find(([k]) => k.startsWith('lyrics'))?.[1]).toContain('故事的小黄花');

    // Everything set now: the track is skipped without a search.
    const searches = fake.seen.length;
    const again = expectOk(await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', { ...select('Tagged'), music_info: { source_list: ['kugou'], is_skip_tag: true, scrape_rate: 20 } }));
    expect(await finished(again.data.task_id)).toMatchObject({ counts: { skip: 1 } });
    expect(fake.seen.length).toBe(searches);
  }, 60_000);

  it('a cover the host may not download is left out and said in the report; the other fields are written', async () => {
    const dir = path.join(media, 'Elsewhere');
    await mkdir(dir, { recursive: true });
    await makeAudio(path.join(dir, 'x.mp3'), { seconds: 4, tags: { title: 'elsewhere 晴天', artist: '周杰伦' } });
    const res = expectOk(await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', { ...select('Elsewhere'), music_info: { source_list: ['kugou'], scrape_rate: 20 } }));
    expect(await finished(res.data.task_id)).toMatchObject({ counts: { success: 1 } });
    const row = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data.mode_success[0];
    expect(row.changes.map((c: { field: string }) => c.field)).toEqual(['album', 'year', 'lyrics']);
    expect(row.report.notes).toEqual([expect.stringMatching(/^cover: The cover could not be downloaded from 127\.0\.0\.1:9/)]);
    const tags = await probeTags(path.join(dir, 'x.mp3'));
    expect(tags.album).toBe('叶惠美');
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', path.join(dir, 'x.mp3')]);
    expect((JSON.parse(stdout) as { streams: Array<{ codec_type: string }> }).streams.map((st) => st.codec_type)).toEqual(['audio']);
  }, 60_000);

  it('a track no source could be asked about fails with each source\'s reason (a source that is not installed included)', async () => {
    const dir = path.join(media, 'Outage');
    await mkdir(dir, { recursive: true });
    await makeAudio(path.join(dir, 'y.mp3'), { seconds: 2, tags: { title: 'outage song' } });
    const res = expectOk(await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', { ...select('Outage'), music_info: { source_list: ['kugou', 'netease'], scrape_rate: 20 } }));
    expect(await finished(res.data.task_id)).toMatchObject({ counts: { fail: 1 } });
    const [row] = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data.fail;
    expect(row.reason).toMatch(/^every source failed: kugou: Kugou answered HTTP 502 to \/v2\/search\/song\.; netease: /);
  }, 60_000);

  it('refuses a mode or source it does not know before queueing anything', async () => {
    const bad = await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', payload({ select_mode: 'fuzzy' }));
    // The plan's refusal is the request's error (the engine answers a plugin's error with its code and words).
    expect(bad.json()).toMatchObject({ result: false, message: 'select_mode must be one of simple, normal, hard', data: { error: 'TAGSONIC_ERR_PLUGIN_INVALID' } });
    const unknown = await call(app, admin, 'POST', '/apimt/batch_auto_update_id3/', payload({ source_list: ['kugou', 'napster'] }));
    expect(unknown.json()).toMatchObject({ result: false, message: expect.stringContaining('source_list: napster cannot be searched'), data: { error: 'TAGSONIC_ERR_PLUGIN_INVALID' } });
    expect((await rt.tasks.findTasks({ kind: 'action:auto-scrape' })).length).toBe(13);
  });
});

describe('sources.lyrics / sources.cover (host capability)', () => {
  const asked: string[] = [];
  const caps = sourceExtrasCapability(['kugou'], {
    sourceLyrics: async (id, songId) => (asked.push(`lyrics ${id} ${songId}`), 'lrc'),
    downloadCover: async (id, url) => (asked.push(`cover ${id} ${url}`), { mime: 'image/jpeg', data: new Uint8Array([0xff, 0xd8]) }),
  });
  const invoke = (name: string, options: unknown) => Promise.resolve().then(() => caps[name]!([options as never], undefined as never));

  it('asks only the granted sources, for a song id and an http(s) URL', async () => {
    await expect(invoke('lyrics', { id: 'kugou', songId: 42 })).resolves.toBe('lrc');
    await expect(invoke('cover', { id: 'kugou', url: 'https://imge.kugou.com/x.jpg' })).resolves.toMatchObject({ mime: 'image/jpeg' });
    await expect(invoke('lyrics', { id: 'netease', songId: '1' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_DENIED' });
    await expect(invoke('cover', { id: 'kugou', url: 'file:///etc/passwd' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    await expect(invoke('lyrics', { id: 'kugou', songId: '' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(asked).toEqual(['lyrics kugou 42', 'cover kugou https://imge.kugou.com/x.jpg']);
  });
});

describe('auto-scrape names', () => {
  it('a track without a title is searched by its file name, without track number or artist prefix', () => {
    expect(titleFromName('/m/A/01 晴天.mp3')).toBe('晴天');
    expect(titleFromName('/m/A/03. 周杰伦 - 七里香.flac')).toBe('七里香');
    expect(titleFromName('/m/A/12-Intro.mp3')).toBe('12-Intro');
    expect(titleFromName('/m/A/2046.mp3')).toBe('2046');
  });

  it('a folder\'s kv key stays short whatever the path', () => {
    expect(folderKey('t_01', `/m/${'很长的文件夹'.repeat(200)}`).length).toBeLessThan(60);
    expect(folderKey('t_01', '/m/a')).not.toBe(folderKey('t_01', '/m/b'));
  });
});
