/**
 * The library follows edits at once (workers/src/scanner/follow-edits.ts) through the real gateway, bus, worker
 * (scanner, tag writers, plugin pool) and files, read back over Subsonic: the editor's save shows in getSong within
 * seconds; a replace_text over 20 files is found by search3; a tidy move changes getSong's path and keeps the id;
 * a delete_files takes the song out; undo_task of the move and of the delete puts both back. No scan runs after the
 * first one (the watcher is not started here), so only the follower can make the library change. No mocks.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { followEdits, Scanner } from '@tagsonic/workers/scanner';
import { connectNatsBus, type Bus } from '@tagsonic/core/bus';
import { SUBJECTS } from '@tagsonic/core/tasks';
import type { Runtime } from '@tagsonic/cli';
import { call, expectOk, startActionHarness, type ActionHarness, type Session } from './api-harness.ts';
import { makeAudio } from './support/audio.ts';
import { taskFinished } from './support/task-wait.ts';
import { startNatsServer } from './support/nats-server.ts';

let rt: Runtime;
let app: FastifyInstance;
let admin: Session;
let media: string;
/** The replace_text task: its report lists the files delete_files may delete. */
let replaceTask: string;
let scanner: Scanner;
const SUBSONIC_PASSWORD = 'follow-sub-password';
/** How soon after the change the library must show it: the follower gathers for 1 s (about 2 s in all here); room for a loaded machine. */
const WITHIN_MS = 4_000;

let h: ActionHarness;

beforeAll(async () => {
  h = await startActionHarness({
    name: 'follow-edits',
    plugins: ['replace-text', 'tidy-folder'],
    subsonicPassword: SUBSONIC_PASSWORD,
    scanner: true,
    setup: async (runtime) => {
      const root = runtime.roots.root('media').dir;
      await mkdir(path.join(root, 'Batch'), { recursive: true });
      await mkdir(path.join(root, 'Incoming', 'A'), { recursive: true });
      await makeAudio(path.join(root, 'Single.flac'), { tags: { title: 'Before Save', artist: 'Follower', album: 'Edits' } });
      for (let n = 1; n <= 20; n++) {
        await makeAudio(path.join(root, 'Batch', `${String(n).padStart(2, '0')}.mp3`), { freq: 200 + n * 20, tags: { title: `Old Tune ${n}`, artist: 'Batcher', album: 'Twenty' } });
      }
      await makeAudio(path.join(root, 'Incoming', 'A', 'moved.flac'), { freq: 900, tags: { title: 'Mover', artist: 'Tidy', album: 'Place' } });
    },
  });
  ({ rt, app, admin, media } = h);
  scanner = h.scanner!;
  await scanner.scan();
}, 120_000);

afterAll(async () => h?.close());

const finished = (taskId: string) => taskFinished(rt.tasks, taskId, 60_000);
const select = (...names: string[]) => ({ file_full_path: media, select_data: names.map((name) => ({ icon: 'icon-folder', name, title: name })) });

/** A Subsonic call as a client makes it (JSON): the `subsonic-response` object. */
async function subsonic(method: string, params: Record<string, string>): Promise<any> {
  const q = new URLSearchParams({ u: 'admin', p: SUBSONIC_PASSWORD, v: '1.16.1', c: 'vitest', f: 'json', ...params });
  const res = await app.inject({ method: 'GET', url: `/rest/${method}?${q}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()['subsonic-response'];
}
const song = async (id: string) => (await subsonic('getSong', { id })).song as { id: string; title: string; path: string } | undefined;
const idOf = async (file: string) => {
  await rt.library.catalog.sync();
  return [...rt.library.catalog.tracks.values()].find((t) => t.path === file)?._id;
};

/** Takes the scan lock as another process would, once whatever holds it now (a followed batch) lets go. */
async function hold(owner: string): Promise<void> {
  await within(10_000, `the scan lock for ${owner}`, () => rt.library.store.acquireScanLock(owner, null, 60_000));
}

/** Polls until `check` holds; fails when it still does not after `ms`. Returns how long it took. */
async function within(ms: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the library follows edits at once', () => {
  it("the editor's save: getSong shows the new title within seconds", async () => {
    const file = path.join(media, 'Single.flac');
    const id = (await idOf(file))!;
    expect((await song(id))?.title).toBe('Before Save');
    expectOk(await call(app, admin, 'POST', '/apimt/update_id3/', { music_id3_info: [{ file_full_path: file, title: 'After Save' }] }));
    await within(WITHIN_MS, 'getSong with the saved title', async () => (await song(id))?.title === 'After Save');
  }, 30_000);

  it('replace_text over 20 files: search3 finds the new titles, under the same ids', async () => {
    const ids = new Set(await Promise.all(Array.from({ length: 20 }, (_, i) => idOf(path.join(media, 'Batch', `${String(i + 1).padStart(2, '0')}.mp3`)))));
    expect((await subsonic('search3', { query: 'New Tune', songCount: '50' })).searchResult3.song ?? []).toHaveLength(0);
    const res = expectOk(await call(app, admin, 'POST', '/apimt/replace_text/', { ...select('Batch'), replace_text_list: [{ before: 'Old', after: 'New' }], modify_list: ['title'] }));
    replaceTask = res.data.task_id;
    expect(await finished(res.data.task_id)).toMatchObject({ counts: { success: 20, fail: 0 } });
    await within(WITHIN_MS, 'search3 finding the 20 new titles', async () => ((await subsonic('search3', { query: 'New Tune', songCount: '50' })).searchResult3.song ?? []).length === 20);
    const found = (await subsonic('search3', { query: 'New Tune', songCount: '50' })).searchResult3.song as Array<{ id: string }>;
    expect(new Set(found.map((s) => s.id))).toEqual(ids);
    expect((await subsonic('search3', { query: 'Old Tune', songCount: '50' })).searchResult3.song ?? []).toHaveLength(0);
  }, 60_000);

  it('a tidy move: getSong gives the new path under the same id; undo_task puts it back', async () => {
    const from = path.join(media, 'Incoming', 'A', 'moved.flac');
    const id = (await idOf(from))!;
    expect((await song(id))?.path).toBe('Incoming/A/moved.flac');
    const res = expectOk(await call(app, admin, 'POST', '/apimt/tidy_folder/', { ...select('Incoming'), root_path: path.join(media, 'Library'), dir_list: [{ value: 'artist' }, { value: 'album' }], rule_form: { is_clean_music: false } }));
    expect(await finished(res.data.task_id)).toMatchObject({ counts: { success: 1, fail: 0 } });
    await within(WITHIN_MS, 'getSong with the moved path', async () => (await song(id))?.path === 'Library/Tidy/Place/moved.flac');
    expect((await song(id))?.title).toBe('Mover');

    expect(expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: res.data.task_id })).data).toMatchObject({ undone: 1, failed: [] });
    await within(WITHIN_MS, 'getSong with the path back', async () => (await song(id))?.path === 'Incoming/A/moved.flac');
  }, 60_000);

  it('delete_files: the song leaves the library; undo_task brings it back', async () => {
    const file = path.join(media, 'Batch', '07.mp3');
    const id = (await idOf(file))!;
    const del = expectOk(await call(app, admin, 'POST', '/apimt/delete_files/', { log_id: replaceTask, mode: 'single', paths: [file] })).data;
    expect(await finished(del.task_id)).toMatchObject({ kind: 'files.delete', counts: { success: 1 } });
    await within(WITHIN_MS, 'getSong failing for the deleted song', async () => (await subsonic('getSong', { id })).error?.code === 70);
    const paths = async () => ((await subsonic('search3', { query: 'New Tune', songCount: '50' })).searchResult3.song ?? []).map((s: { path: string }) => s.path);
    expect(await paths()).toHaveLength(19);
    expect(await paths()).not.toContain('Batch/07.mp3');

    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: del.task_id }));
    await within(WITHIN_MS, 'search3 finding the song again', async () => (await paths()).includes('Batch/07.mp3'));
    expect(await paths()).toHaveLength(20);
  }, 60_000);

  it('a song taken out by hand (delete_track) stays out when its file is saved', async () => {
    const file = path.join(media, 'Batch', '12.mp3');
    const id = (await idOf(file))!;
    const out = expectOk(await call(app, admin, 'POST', '/apimt/delete_track/', { track_id: id, mode: 'delete_track' })).data;
    await finished(out.scan_task_id);
    expect(await idOf(file)).toBeUndefined();
    expectOk(await call(app, admin, 'POST', '/apimt/update_id3/', { music_id3_info: [{ file_full_path: file, title: 'Saved While Out' }] }));
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await idOf(file)).toBeUndefined();
    expect((await subsonic('search3', { query: 'Saved While Out', songCount: '5' })).searchResult3.song ?? []).toHaveLength(0);
  }, 30_000);

  it('waits while a full scan runs, then follows; a scan finding the lock held by a followed batch waits instead of being skipped', async () => {
    const file = path.join(media, 'Single.flac');
    const id = (await idOf(file))!;
    const { store } = rt.library;
    // Another process's full scan holds the lock: the saved title waits for it.
    await hold('elsewhere:1:x:full');
    try {
      expectOk(await call(app, admin, 'POST', '/apimt/update_id3/', { music_id3_info: [{ file_full_path: file, title: 'During A Scan' }] }));
      await new Promise((r) => setTimeout(r, 2_500));
      expect((await song(id))?.title).toBe('After Save');
    } finally {
      await store.releaseScanLock('elsewhere:1:x:full');
    }
    await within(WITHIN_MS + 2_000, 'getSong with the title saved during the scan', async () => (await song(id))?.title === 'During A Scan');

    // indexFiles (an import, a followed batch) holds the lock briefly: a scan starting then waits for it.
    await hold('elsewhere:1:x:index');
    const release = setTimeout(() => void store.releaseScanLock('elsewhere:1:x:index'), 1_000);
    try {
      await expect(scanner.scan()).resolves.toMatchObject({ full: false });
    } finally {
      clearTimeout(release);
    }
    // Held by another scan, a scan still gives up at once.
    await hold('elsewhere:1:y');
    await expect(scanner.scan()).rejects.toMatchObject({ code: 'TAGSONIC_ERR_LIBRARY_SCAN_RUNNING' });
    await store.releaseScanLock('elsewhere:1:y');
  }, 60_000);
});

describe('on NATS, with two workers following', () => {
  it('each event is indexed by one of them, once', async () => {
    const nats = await startNatsServer();
    const buses: Bus[] = [];
    const follows: Array<{ close(): Promise<void> }> = [];
    try {
      const calls: string[][] = [];
      class Counting extends Scanner {
        override async indexFiles(paths: readonly string[], options: Parameters<Scanner['indexFiles']>[1] = {}) {
          if (options.follow) calls.push([...paths]);
          return super.indexFiles(paths, options);
        }
      }
      for (const name of ['worker-1', 'worker-2', 'gateway']) buses.push(await connectNatsBus({ servers: nats.url, name, onError: () => {} }));
      for (const bus of buses.slice(0, 2)) {
        follows.push(await followEdits({ bus, scanner: new Counting({ roots: rt.roots, library: rt.library.store, catalog: rt.library.catalog, bus, readerThreads: 1 }) }));
      }
      const fresh = path.join(media, 'Nats', 'fresh.flac');
      const saved = path.join(media, 'Nats', 'saved.mp3');
      await mkdir(path.dirname(fresh), { recursive: true });
      await makeAudio(fresh, { freq: 1200, tags: { title: 'Over Nats', artist: 'Bus' } });
      await makeAudio(saved, { freq: 1300, tags: { title: 'Saved Over Nats', artist: 'Bus' } });
      await buses[2]!.publish(SUBJECTS.filesChanged, { taskId: 't1', itemId: 'item-1', paths: [fresh] });
      await buses[2]!.publish(SUBJECTS.trackUpdated, { path: saved, taskId: 't2', writeId: 'write-1' });
      await within(WITHIN_MS + 2_000, 'both files in the library', async () => Boolean((await idOf(fresh)) && (await idOf(saved))));
      await new Promise((r) => setTimeout(r, 1_500));
      expect(calls.flat().sort()).toEqual([fresh, saved].sort());
    } finally {
      for (const f of follows) await f.close();
      for (const b of buses) await b.close();
      await nats.stop();
    }
  }, 60_000);
});
