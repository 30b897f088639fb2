/**
 * The download-folder watcher on real parts: files in the download root are left alone while they change, then
 * go into a 后台刮削 task of the built-in auto-scrape action with the background-scraping settings (against the
 * real Kugou source pointed at a local replay), and once that task has ended into a 整理文件夹 task per tidy_music
 * that moves them into the media folder by their new tags. Checked with ffprobe and file listings; the last run
 * time through GET /apimt/celery_task_last_time/. Real store, bus, workers, sandbox and files; no mocks.
 */
import { appendFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@tagsonic/core/config';
import { buildApp } from '@tagsonic/gateway';
import { startWorker, type Worker } from '@tagsonic/workers';
import { builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import { DownloadWatcher } from '@tagsonic/workers/watcher';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import type { Manifest } from '@tagsonic/sdk';
import { call, expectOk, login, ADMIN_PASSWORD, type Session } from './api-harness.ts';
import { makeAudio, probeTags } from './support/audio.ts';
import { listFiles } from './support/file-actions.ts';
import { sourceFake, type FakeAnswer } from './support/source-fake.ts';
import { taskFinished } from './support/task-wait.ts';

const HASH = 'B8B4E2E5A5E56B4C3E0A1C2D3E4F5A6B';
const found = (lists: unknown[]) => ({ status: 1, error_code: 0, error_msg: '', data: { page: 1, pagesize: lists.length, total: lists.length, lists } });
const fake = sourceFake('kugou', (p): FakeAnswer => {
  if (p === '/v2/search/song') {
    return [200, 'application/json', found([{ SongName: '晴天', OriSongName: '晴天', SingerName: '周杰伦', Singers: [{ name: '周杰伦', id: 3520 }], AlbumName: '叶惠美', AlbumID: '960399', FileHash: HASH, Duration: 4, PublishTime: '2003-07-31 00:00:00', Image: '' }])];
  }
  return [404, 'text/html', 'not found'];
});

let home: string;
let rt: Runtime;
let worker: Worker;
let app: FastifyInstance;
let admin: Session;
let media: string;
let download: string;
let watcher: DownloadWatcher;

beforeAll(async () => {
  process.env.TAGSONIC_SOURCE_URL_KUGOU = fake.baseUrl();
  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-download-watcher-'));
  rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  await rt.users.ensureAdmin(ADMIN_PASSWORD);
  for (const id of ['auto-scrape', 'kugou', 'tidy-folder']) {
    const { manifest, code } = await builtinPlugin(id);
    await rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
  }
  worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 2, plugins: { registry: rt.plugins, store: rt.store } });
  app = await buildApp(gatewayDeps(rt, { buildId: 'test', dashboardDir: path.join(home, 'no-dashboard') }));
  await app.ready();
  admin = await login(app);
  media = rt.roots.root('media').dir;
  download = rt.roots.root('download').dir;
  watcher = new DownloadWatcher({ roots: rt.roots, store: rt.store, tasks: rt.tasks, bus: rt.bus });
  await rt.store.collection('settings').insertOne({
    _id: 'system', silent_select_mode: 'simple', silence_source_list: ['kugou'], silence_modify_list: ['album', 'year'],
    silence_is_skip_tag: false, silence_is_folder_album: false, silence_music_info: { scrape_rate: 20 }, tidy_music: 'tidy',
    dir_list: [{ value: 'artist' }, { value: 'album' }],
  });
}, 60_000);

afterAll(async () => {
  delete process.env.TAGSONIC_SOURCE_URL_KUGOU;
  await app?.close();
  await worker?.close();
  await rt?.close();
  await rm(home, { recursive: true, force: true });
});

const finished = (taskId: string, timeoutMs = 30_000) => taskFinished(rt.tasks, taskId, timeoutMs);

describe('download-folder watcher', () => {
  it('leaves changing files for the next round, scrapes finished ones with the background settings, then tidies them into the media folder', async () => {
    const done = path.join(download, 'Jay', '01 晴天.mp3');
    const growing = path.join(download, 'Jay', '02 still downloading.mp3');
    await mkdir(path.dirname(done), { recursive: true });
    await makeAudio(done, { seconds: 4, tags: { title: '晴天', artist: '周杰伦' } });
    await makeAudio(growing, { seconds: 2, tags: { title: '晴天', artist: '周杰伦' } });
    await appendFile(path.join(download, '.partial.mp3'), 'hidden temp file of a download client');

    // First sight: nothing is known to be finished yet.
    expect(await watcher.tick()).toEqual({ files: 2, waiting: 2 });
    expect(expectOk(await call(app, admin, 'GET', '/apimt/celery_task_last_time/')).data.last_run_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    // The second file grows between the rounds: only the first goes on.
    await appendFile(growing, Buffer.alloc(4096));
    const second = await watcher.tick();
    expect(second).toMatchObject({ files: 2, waiting: 1, scrapeTaskId: expect.any(String) });
    const scrape = await finished(second.scrapeTaskId!);
    expect(scrape).toMatchObject({ kind: 'action:auto-scrape', action: '后台刮削', actor: 'watcher', total: 1 });
    expect(scrape.counts.success + scrape.counts.miss).toBe(1);
    expect(await probeTags(done)).toMatchObject({ title: '晴天', artist: '周杰伦', album: '叶惠美' });
    expect(await probeTags(growing)).not.toHaveProperty('album');

    // Next round: the scraped file is tidied by its new tags; the grown one, unchanged since, is scraped now.
    const third = await watcher.tick();
    expect(third).toMatchObject({ files: 2, waiting: 0, tidyTaskId: expect.any(String), scrapeTaskId: expect.any(String) });
    expect(await finished(third.tidyTaskId!)).toMatchObject({ kind: 'action:tidy-folder', action: '整理文件夹', status: 'success' });
    expect(await listFiles(media)).toEqual([path.join('周杰伦', '叶惠美', '01 晴天.mp3')]);
    expect(await probeTags(path.join(media, '周杰伦', '叶惠美', '01 晴天.mp3'))).toMatchObject({ album: '叶惠美' });
    await finished(third.scrapeTaskId!);
    expect(await listFiles(download)).toEqual(['.partial.mp3', path.join('Jay', '02 still downloading.mp3')]);

    // Each file is handled once: a round with nothing new creates no task.
    const fourth = await watcher.tick();
    expect(fourth.scrapeTaskId).toBeUndefined();
    await finished(fourth.tidyTaskId!);
    expect(await listFiles(download)).toEqual(['.partial.mp3']);
    const fifth = await watcher.tick();
    expect(fifth).toEqual({ files: 0, waiting: 0 });
    const last = expectOk(await call(app, admin, 'GET', '/apimt/celery_task_last_time/')).data;
    expect(last.last_round).toEqual({ files: 0, waiting: 0 });
  });

  it('is off when is_watch_file is switched off (through update_sys, no restart), and one round runs at a time', async () => {
    expectOk(await call(app, admin, 'POST', '/apimt/update_sys/', { key: 'is_watch_file', value: '0' }));
    try {
      expect(await watcher.tick()).toEqual({ skipped: 'off', files: 0, waiting: 0 });
    } finally {
      expectOk(await call(app, admin, 'POST', '/apimt/update_sys/', { key: 'is_watch_file', value: '1' }));
    }
    const rounds = await Promise.all([watcher.tick(), new DownloadWatcher({ roots: rt.roots, store: rt.store, tasks: rt.tasks, bus: rt.bus }).tick()]);
    expect(rounds.filter((r) => r.skipped === 'busy')).toHaveLength(1);
  });
});

describe('download-folder watcher with impossible tidy settings', () => {
  it('reports why it could not tidy, leaves the files where they are and does not try again', async () => {
    await rt.store.collection('settings').updateOne({ _id: 'system' }, { $set: { root_path: '/etc' } });
    const file = path.join(download, 'Elsewhere', '晴天.mp3');
    await mkdir(path.dirname(file), { recursive: true });
    await makeAudio(file, { seconds: 4, tags: { title: '晴天', artist: '周杰伦' } });
    expect(await watcher.tick()).toEqual({ files: 1, waiting: 1 });
    const scraped = await watcher.tick();
    await finished(scraped.scrapeTaskId!);
    const next = await watcher.tick();
    expect(next.tidyError).toMatch(/root_path/);
    expect(await listFiles(download)).toEqual(['.partial.mp3', path.join('Elsewhere', '晴天.mp3')]);
    expect(await watcher.tick()).toEqual({ files: 1, waiting: 0 });
  });
});

describe('download-folder watcher with tidy_music move', () => {
  it('moves the scraped files into root_path as they are, without levels', async () => {
    await rt.store.collection('settings').updateOne({ _id: 'system' }, { $set: { tidy_music: 'move', root_path: path.join(media, 'Inbox') } });
    const file = path.join(download, 'Moved', 'song.flac');
    await mkdir(path.dirname(file), { recursive: true });
    await makeAudio(file, { seconds: 4, tags: { title: '晴天', artist: '周杰伦' } });
    await watcher.tick();
    await finished((await watcher.tick()).scrapeTaskId!);
    const moved = await watcher.tick();
    expect(await finished(moved.tidyTaskId!)).toMatchObject({ action: '整理文件夹', status: 'success' });
    expect((await listFiles(media)).filter((f) => f.startsWith('Inbox'))).toEqual([path.join('Inbox', 'song.flac')]);
    expect(await probeTags(path.join(media, 'Inbox', 'song.flac'))).toMatchObject({ title: '晴天', album: '叶惠美' });
  });
});

describe('download-folder watcher with the clean-up settings', () => {
  it('tidies with is_clean_music and the clean_* rules saved through update_sys: the flac copy replaces the mp3', async () => {
    for (const [key, value] of [['tidy_music', 'tidy'], ['root_path', ''], ['is_clean_music', '1'], ['clean_format_priority', 'flac,mp3']]) {
      expectOk(await call(app, admin, 'POST', '/apimt/update_sys/', { key, value }));
    }
    const file = path.join(download, 'Again', '01 晴天.flac');
    await mkdir(path.dirname(file), { recursive: true });
    await makeAudio(file, { seconds: 4, tags: { title: '晴天', artist: '周杰伦' } });
    await watcher.tick();
    await finished((await watcher.tick()).scrapeTaskId!);
    const tidied = await watcher.tick();
    expect(await finished(tidied.tidyTaskId!)).toMatchObject({ action: '整理文件夹', status: 'success' });
    // 01 晴天.mp3 (tidied by the first test) went; the other song of that folder stays.
    expect((await listFiles(media)).filter((f) => f.startsWith('周杰伦'))).toEqual([path.join('周杰伦', '叶惠美', '01 晴天.flac'), path.join('周杰伦', '叶惠美', '02 still downloading.mp3')]);
  });
});
