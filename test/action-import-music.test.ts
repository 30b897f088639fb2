/**
 * 导入收藏 (importMusicIn, V2) as the dashboard drives it: POST /apimt/import_music/ → one item per audio file on
 * the workers' plugin pool (plugins/import-music) → caps.library.index, the scanner's own indexing → the tracks
 * in the library, found at once by Subsonic's search3 and getSong (no scan ran). music_info fills only the tags a
 * file lacks, journaled (undo_task restores the files); is_skip_exist skips files already in the collection (the
 * same track, or a copy of one); an unreadable file fails with the scanner's reason; V1 is refused. Real store,
 * bus, worker, scanner, sandbox, gateway and files; no mocks.
 */
import { access, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@tagsonic/core/config';
import { SubsonicCredentials } from '@tagsonic/core/users';
import { buildApp } from '@tagsonic/gateway';
import { startWorker, type Worker } from '@tagsonic/workers';
import { builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import { Scanner } from '@tagsonic/workers/scanner';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import type { Manifest } from '@tagsonic/sdk';
import { call, expectError, expectOk, login, ADMIN_PASSWORD, USER_PASSWORD, type Session } from './api-harness.ts';
import { ADMIN, ok } from './subsonic-harness.ts';
import { makeAudio, probeTags, waitFor } from './support/audio.ts';
import { taskFinished } from './support/task-wait.ts';

let home: string;
let rt: Runtime;
let worker: Worker;
let app: FastifyInstance;
let admin: Session;
let alice: Session;
let media: string;

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-import-'));
  rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  await rt.users.ensureAdmin(ADMIN_PASSWORD);
  await rt.users.setRole('admin', 'V2'); // import collection is V2 (spec doc 1 §6)
  await rt.users.create({ username: 'alice', password: USER_PASSWORD });
  const credentials = new SubsonicCredentials(rt.store, rt.users, rt.secrets.subsonicKey);
  await credentials.init();
  await credentials.setPassword('admin', ADMIN.subsonic);
  const { manifest, code } = await builtinPlugin('import-music');
  await rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
  const scanner = new Scanner({ roots: rt.roots, library: rt.library.store, catalog: rt.library.catalog, bus: rt.bus, readerThreads: 1 });
  worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 2, scanner, plugins: { registry: rt.plugins, store: rt.store } });
  app = await buildApp(gatewayDeps(rt, { buildId: 'test', dashboardDir: path.join(home, 'no-dashboard') }));
  await app.ready();
  admin = await login(app);
  alice = await login(app, 'alice', USER_PASSWORD);
  media = rt.roots.root('media').dir;
  await mkdir(path.join(media, 'Incoming', 'Disc 2'), { recursive: true });
  await makeAudio(path.join(media, 'Incoming', '01 Harbour Lights.flac'), { tags: { title: 'Harbour Lights', artist: 'Quill Avenue', album: 'Night Ferry' } });
  await makeAudio(path.join(media, 'Incoming', '02 Salt Road.mp3'), { freq: 550, tags: { title: 'Salt Road', artist: 'Quill Avenue', album: 'Night Ferry', genre: 'Folk' } });
  await makeAudio(path.join(media, 'Incoming', 'Disc 2', '03 Lantern.flac'), { freq: 660, tags: { title: 'Lantern', artist: 'Quill Avenue', album: 'Night Ferry' } });
  // Not a song: random bytes named .mp3.
  await writeFile(path.join(media, 'Incoming', 'broken.mp3'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)));
}, 60_000);

afterAll(async () => {
  await app?.close();
  await worker?.close();
  await rt?.close();
  await rm(home, { recursive: true, force: true });
});

const finished = (taskId: string) => taskFinished(rt.tasks, taskId, 30_000);
const select = (...names: string[]) => ({ file_full_path: media, select_data: names.map((name) => ({ icon: 'icon-folder', name, title: name })) });
const detail = async (taskId: string, section?: string) =>
  expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${taskId}${section ? `&section=${section}` : ''}`)).data;
const songsFound = async (q: string) => ((await ok(app, 'search3', { query: q, artistCount: 0, albumCount: 0 })).searchResult3.song ?? []) as Array<Record<string, unknown>>;

describe('import collection through /apimt/import_music/', () => {
  let firstTask = '';

  it('puts the selected songs into the library at once (Subsonic finds them), fills only missing tags, fails the broken file with its reason', async () => {
    expect(await songsFound('Harbour Lights')).toEqual([]);
    const res = expectOk(await call(app, admin, 'POST', '/apimt/import_music/', {
      ...select('Incoming'), music_info: { genre: 'Harbour Jazz', is_save_lyrics_file: false }, is_skip_exist: true, import_rate: 20,
    }));
    expect(res.message).toBe('创建成功！ 任务在后台努力运行中');
    firstTask = res.data.task_id;
    expect(res.data.total).toBe(4);
    const task = await finished(firstTask);
    expect(task).toMatchObject({ kind: 'action:import-music', action: '导入收藏', status: 'success', counts: { success: 3, fail: 1, skip: 0 } });
    expect((task as unknown as { rate: number }).rate).toBe(20);

    // No scan ran: the tracks are there because the import indexed them.
    const [song] = await songsFound('Harbour Lights');
    expect(song).toMatchObject({ title: 'Harbour Lights', artist: 'Quill Avenue', album: 'Night Ferry', genre: 'Harbour Jazz' });
    const got = (await ok(app, 'getSong', { id: String(song!.id) })).song;
    expect(got).toMatchObject({ title: 'Harbour Lights', genre: 'Harbour Jazz', suffix: 'flac' });
    // A file that had a genre keeps it; the default went only where none was.
    expect((await songsFound('Salt Road'))[0]).toMatchObject({ genre: 'Folk' });
    expect((await probeTags(path.join(media, 'Incoming', '02 Salt Road.mp3'))).genre).toBe('Folk');
    expect((await probeTags(path.join(media, 'Incoming', '01 Harbour Lights.flac'))).genre).toBe('Harbour Jazz');
    const album = (await ok(app, 'search3', { query: 'Night Ferry', songCount: 0, artistCount: 0 })).searchResult3.album;
    expect(album).toHaveLength(1);
    expect(album[0]).toMatchObject({ name: 'Night Ferry', songCount: 3 });

    // The report: three tracks newly in the collection, the broken file failed with the scanner's reason.
    const d = await detail(firstTask);
    expect(d.import_collection_count).toBe(3);
    expect(d.import_scan_count).toBe(0);
    expect(d.import_collection.map((r: { name: string }) => r.name).sort()).toEqual(['01 Harbour Lights.flac', '02 Salt Road.mp3', '03 Lantern.flac']);
    const harbour = d.import_collection.find((r: { name: string }) => r.name === '01 Harbour Lights.flac');
    expect(harbour).toMatchObject({ title: 'Harbour Lights', artist: 'Quill Avenue', album: 'Night Ferry', report: { section: 'collection', library: 'added' } });
    expect(harbour.changes).toEqual([{ path: path.join(media, 'Incoming', '01 Harbour Lights.flac'), kind: 'tags', field: 'genre', before: null, after: 'Harbour Jazz' }]);
    expect(d.fail_count).toBe(1);
    expect(d.fail[0]).toMatchObject({ name: 'broken.mp3', candidate_list: [] });
    expect(d.fail[0].reason).toMatch(/broken\.mp3/);
    // The scanner's code rides in the row's report (the item failed by the plugin's own account, not by a throw).
    expect(d.fail[0].report.code).toMatch(/^TAGSONIC_ERR_(LIBRARY_NOT_AUDIO|TAGS_)/);
    // The import's own lists page like any other.
    expect((await detail(firstTask, 'import_collection')).import_collection).toHaveLength(3);
  });

  it('is_skip_exist skips files already in the collection, and copies of them; without it the tracks are re-read (元数据扫描)', async () => {
    await mkdir(path.join(media, 'Copies'), { recursive: true });
    await copyFile(path.join(media, 'Incoming', '02 Salt Road.mp3'), path.join(media, 'Copies', 'Salt Road (copy).mp3'));
    const again = expectOk(await call(app, admin, 'POST', '/apimt/import_music/', { ...select('Incoming', 'Copies'), music_info: {}, is_skip_exist: true, import_rate: 50 })).data.task_id;
    expect(await finished(again)).toMatchObject({ counts: { success: 0, skip: 4, fail: 1 } });
    const skipped = (await detail(again, 'import_scan')).import_scan as Array<{ name: string; reason: string; report: { section: string } }>;
    expect(skipped).toHaveLength(4);
    const copy = skipped.find((r) => r.name === 'Salt Road (copy).mp3')!;
    expect(copy.reason).toBe(`already in the music collection as ${path.join(media, 'Incoming', '02 Salt Road.mp3')}`);
    expect(skipped.find((r) => r.name === '03 Lantern.flac')!.reason).toBe('already in the music collection');
    expect(await songsFound('Salt Road')).toHaveLength(1);

    const refresh = expectOk(await call(app, admin, 'POST', '/apimt/import_music/', { ...select('Incoming'), music_info: {}, is_skip_exist: false, import_rate: 50 })).data.task_id;
    expect(await finished(refresh)).toMatchObject({ counts: { success: 3, skip: 0, fail: 1 } });
    const d = await detail(refresh);
    expect(d.import_scan_count).toBe(3);
    expect(d.import_collection_count).toBe(0);
    expect(d.import_scan.every((r: { report: { library: string } }) => r.report.library === 'unchanged')).toBe(true);
    expect(await songsFound('Lantern')).toHaveLength(1);
  });

  it('undo_task restores the files the import filled', async () => {
    const undo = expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: firstTask })).data;
    expect(undo).toMatchObject({ failed: [] });
    expect(undo.undone).toBeGreaterThanOrEqual(2);
    expect((await probeTags(path.join(media, 'Incoming', '01 Harbour Lights.flac'))).genre).toBeUndefined();
    expect((await probeTags(path.join(media, 'Incoming', '02 Salt Road.mp3'))).genre).toBe('Folk');
  });

  it('a dry run reads only; V1 accounts are refused; nothing ticked is refused', async () => {
    // The library follows the undo within a second (scanner/follow-edits.ts): the restored files are its tracks again.
    const harbour = path.join(media, 'Incoming', '01 Harbour Lights.flac');
    await waitFor(async () => (await rt.library.catalog.sync(), [...rt.library.catalog.tracks.values()].find((t) => t.path === harbour)?.genre === null), 'the library to follow the undo');
    await makeAudio(path.join(media, 'Incoming', '04 Tide Clock.flac'), { freq: 770, tags: { title: 'Tide Clock', artist: 'Quill Avenue' } });
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/import_music/', { ...select('Incoming'), music_info: { album: 'Night Ferry' }, is_skip_exist: true, dry_run: true })).data.task_id;
    // The files the library already lists as they are now are skipped (元数据扫描); the new one is imported.
    expect(await finished(dry)).toMatchObject({ counts: { success: 1, skip: 3, fail: 1 } });
    const preview = await detail(dry);
    expect(preview.import_scan.map((r: { name: string; status: string; report: { library?: string } }) => [r.name, r.status, r.report.library ?? null]).sort()).toEqual([
      ['01 Harbour Lights.flac', 'skip', null],
      ['02 Salt Road.mp3', 'skip', null],
      ['03 Lantern.flac', 'skip', null],
    ]);
    const row = preview.import_collection[0];
    expect(row).toMatchObject({ name: '04 Tide Clock.flac', report: { section: 'collection', library: 'added' } });
    expect(row.changes).toMatchObject([{ field: 'album', before: null, after: 'Night Ferry' }]);
    expect(await songsFound('Tide Clock')).toEqual([]);
    expect((await probeTags(path.join(media, 'Incoming', '04 Tide Clock.flac'))).album).toBeUndefined();
    // Applying the preview imports exactly what it listed.
    const applied = expectOk(await call(app, admin, 'POST', '/apimt/apply_task/', { task_id: dry })).data.task_id;
    expect(await finished(applied)).toMatchObject({ status: 'success', counts: { success: 1, fail: 0 } });
    expect((await songsFound('Tide Clock'))[0]).toMatchObject({ album: 'Night Ferry' });

    expectError(await call(app, alice, 'POST', '/apimt/import_music/', { ...select('Incoming'), music_info: {}, is_skip_exist: true, import_rate: 10 }), 403, 'TAGSONIC_ERR_AUTH_V1_RESTRICTED', 40302);
    expectError(await call(app, admin, 'POST', '/apimt/import_music/', { file_full_path: media, select_data: [], music_info: {}, is_skip_exist: true, import_rate: 10 }), 400, 'TAGSONIC_ERR_TASK_NOTHING_SELECTED');
  });

  it('the failed file is deleted from the report (into the trash, although it is no song), and undo brings it back', async () => {
    const broken = path.join(media, 'Incoming', 'broken.mp3');
    const del = expectOk(await call(app, admin, 'POST', '/apimt/delete_files/', { log_id: firstTask, mode: 'fail' })).data;
    expect(await finished(del.task_id)).toMatchObject({ status: 'success', counts: { success: 1, fail: 0 } });
    await expect(access(broken)).rejects.toThrow();
    expect((await detail(firstTask)).delete_count).toBe(1);
    const undo = expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: del.task_id })).data;
    expect(undo).toMatchObject({ undone: 1, failed: [] });
    await access(broken);
  });

  it('a paced file waiting for its turn is still queued: the report stops it (running list, stop per row)', async () => {
    await mkdir(path.join(media, 'Slow'), { recursive: true });
    for (const n of [1, 2, 3]) await makeAudio(path.join(media, 'Slow', `${n}.flac`), { freq: 300 + n * 50, tags: { title: `Slow ${n}` } });
    // One file every 5 s: the second is taken by the worker at once and waits for its turn.
    const id = expectOk(await call(app, admin, 'POST', '/apimt/import_music/', { ...select('Slow'), music_info: {}, is_skip_exist: true, import_rate: 0.2 })).data.task_id;
    await new Promise((r) => setTimeout(r, 500));
    const running = (await detail(id, 'running')).running as Array<{ id: string; name: string; status: string }>;
    const second = running.find((r) => r.name === '2.flac')!;
    expect(second.status).toBe('pending');
    expect(expectOk(await call(app, admin, 'POST', '/apimt/stop_audit_log_detail_run/', { id: second.id })).data).toEqual({ id: second.id, status: 'stop' });
    expectOk(await call(app, admin, 'POST', '/apimt/stop_audit_log_detail/', { id }));
    const task = await finished(id);
    expect(task.counts.stop).toBeGreaterThanOrEqual(1);
    expect((await detail(id)).stop.map((r: { name: string }) => r.name)).toContain('2.flac');
    expect(await songsFound('Slow 2')).toEqual([]);
  });

  it('an import waits for a running library scan (the scan lock) and then indexes', async () => {
    await mkdir(path.join(media, 'Later'), { recursive: true });
    await makeAudio(path.join(media, 'Later', 'Late Bloom.flac'), { freq: 880, tags: { title: 'Late Bloom', artist: 'Quill Avenue' } });
    // Another process's scan holds the lock for a moment — taken once the library has followed the previous
    // test's edits (its follower holds the same lock while it indexes them).
    await expect.poll(() => rt.library.store.acquireScanLock('another-process', null, 60_000), { timeout: 30_000 }).toBe(true);
    const id = expectOk(await call(app, admin, 'POST', '/apimt/import_music/', { ...select('Later'), music_info: {}, is_skip_exist: true })).data.task_id;
    await new Promise((r) => setTimeout(r, 1500));
    expect((await rt.tasks.get(id)).status).toBe('running');
    expect(await songsFound('Late Bloom')).toEqual([]);
    await rt.library.store.releaseScanLock('another-process');
    expect(await finished(id)).toMatchObject({ status: 'success', counts: { success: 1 } });
    expect(await songsFound('Late Bloom')).toHaveLength(1);
  });
});
