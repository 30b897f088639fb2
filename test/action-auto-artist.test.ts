/**
 * Artist pictures and biographies (artist-meta.ts) and 刮削艺术家 (batchAutoUpdateArtist) over the scanned small
 * library (generated audio files): the store's picture is what Subsonic's getCoverArt serves for the artist id and
 * its text getArtistInfo2's biography; POST /apimt/batch_auto_update_artist/ makes one item per library artist
 * without a picture, each looked up through the real built-in Kuwo source pointed (TAGSONIC_SOURCE_URL_KUWO) at a
 * local replay of Kuwo's artist search and artist info; the misses keep the source's answer as a candidate;
 * undo_task puts back what the task replaced. Real store, bus, workers, sandbox, files and HTTP; no mocks.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type Worker } from '@tagsonic/workers';
import { builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import type { Manifest } from '@tagsonic/sdk';
import { call, expectError, expectOk, login, type Session } from './api-harness.ts';
import { ADMIN, ok, rest, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';
import { sourceFake, type FakeAnswer } from './support/source-fake.ts';
import { taskFinished } from './support/task-wait.ts';
import { artistsCapability } from '../workers/src/plugin-runtime/capabilities/artists.ts';

const run = promisify(execFile);

let h: SubsonicHarness;
let red: Buffer;
let worker: Worker;
let admin: Session;
/** A V1 user: 刮削艺术家 is not one of the V2-only actions. */
let alice: Session;
/** The artist Kuwo knows by its own name, and the one it answers with somebody else. */
let known: Ref;
let other: Ref;

const list = (abslist: unknown[]) => ({ HIT: String(abslist.length), HITMODE: 'artist', PN: '0', RN: '10', SHOW: '1', TOTAL: String(abslist.length), abslist });
/** Names of no one: not looked up. */
const NOBODY = ['Various Artists', '[Unknown Artist]'];
const BIOGRAPHY = '出道于 2001 年的独立音乐人。';

/** Kuwo's artist search (ft=artist), its artistinfo (picture on the replay itself, 240 px asked as 500 px) and the picture. */
const kuwo = sourceFake('kuwo', (p, query): FakeAnswer => {
  if (p === '/star/starheads/500/77/known.jpg') return [200, 'image/jpeg', red];
  if (p !== '/r.s') return [404, 'text/html', 'not found'];
  if (query.get('stype') === 'artistinfo') {
    return query.get('artistid') === '77'
      ? [200, 'application/json', { id: '77', name: known.name, hts_pic: `${kuwo.baseUrl()}/star/starheads/240/77/known.jpg`, info: `${BIOGRAPHY}<br>&nbsp;` }]
      : [200, 'application/json', { id: '78', name: 'Somebody Else', hts_pic: `${kuwo.baseUrl()}/star/starheads/240/78/else.jpg`, info: '' }];
  }
  if (query.get('ft') === 'artist') {
    const name = query.get('all');
    if (name === known.name) return [200, 'application/json', list([{ ARTIST: known.name, AARTIST: '', ARTISTID: '77' }])];
    if (name === other.name) return [200, 'application/json', list([{ ARTIST: 'Somebody Else', AARTIST: '', ARTISTID: '78' }])];
    return [200, 'application/json', list([])];
  }
  return [404, 'text/html', 'not found'];
});

interface Ref {
  id: string;
  name: string;
}

beforeAll(async () => {
  h = await startSubsonic();
  const picture = async (color: string) => {
    const file = path.join(h.home, `${color}.jpg`);
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `color=c=${color}:s=64x64`, '-frames:v', '1', file]);
    return readFile(file);
  };
  red = await picture('red');
  process.env.TAGSONIC_SOURCE_URL_KUWO = kuwo.baseUrl();
  await h.rt.users.create({ username: 'v1user', password: 'v1-user-password' });
  for (const id of ['auto-artist', 'kuwo']) {
    const { manifest, code } = await builtinPlugin(id);
    await h.rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
  }
  const rt = h.rt;
  worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 2, plugins: { registry: rt.plugins, store: rt.store, artists: rt.library.artists } });
  admin = await login(h.app, ADMIN.username, ADMIN.password);
  alice = await login(h.app, 'v1user', 'v1-user-password');
  const named = (await artists()).filter((a) => !NOBODY.includes(a.name));
  [known, other] = [named[0]!, named[1]!];
}, 120_000);

afterAll(async () => {
  delete process.env.TAGSONIC_SOURCE_URL_KUWO;
  await worker?.close();
  await h?.close();
});

const finished = (taskId: string) => taskFinished(h.rt.tasks, taskId, 60_000);

const artists = async (): Promise<Ref[]> => (await ok(h.app, 'getArtists')).artists.index.flatMap((i: { artist: Ref[] }) => i.artist);
const coverBytes = async (id: string): Promise<Buffer> => {
  const res = await rest(h.app, 'getCoverArt', { id });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
};

describe('the artist store', () => {
  it('serves a saved picture for the artist id and its biography in getArtistInfo(2); the previous value stays for undo', async () => {
    const [artist] = await artists();
    const before = await coverBytes(artist!.id);
    expect(before.equals(red)).toBe(false);
    expect((await ok(h.app, 'getArtistInfo2', { id: artist!.id })).artistInfo2.biography).toBeUndefined();

    const set = await h.rt.library.artists.set(artist!.id, { name: artist!.name, image: red, description: '  A biography.  ', source: 'user', taskId: 'store-test' });
    expect(set.before.image).toBeNull();
    expect(set.after).toMatchObject({ description: 'A biography.', source: 'user', image: { mime: 'image/jpeg', size: red.length } });
    expect(await readdir(path.join(h.rt.config.dataDir, 'artists'))).toEqual([set.after.image!.file]);

    const info = (await ok(h.app, 'getArtistInfo2', { id: artist!.id })).artistInfo2;
    expect(info.biography).toBe('A biography.');
    expect(info.largeImageUrl).toContain(`getCoverArt.view?id=${artist!.id}`);
    expect((await ok(h.app, 'getArtistInfo', { id: artist!.id })).artistInfo.biography).toBe('A biography.');
    expect((await coverBytes(artist!.id)).equals(red)).toBe(true);

    // Undo of that write: the album cover is the artist's picture again, the file is gone.
    expect(await h.rt.library.artists.undoTask('store-test')).toEqual([artist!.name]);
    expect((await coverBytes(artist!.id)).equals(before)).toBe(true);
    expect((await ok(h.app, 'getArtistInfo2', { id: artist!.id })).artistInfo2.biography).toBeUndefined();
    expect(await readdir(path.join(h.rt.config.dataDir, 'artists'))).toEqual([]);
  });

  it('refuses bytes that are no picture, and artists the library does not have', async () => {
    const [artist] = await artists();
    await expect(h.rt.library.artists.set(artist!.id, { name: artist!.name, image: Buffer.from('<html>not a picture</html>'), source: 'user' }))
      .rejects.toMatchObject({ code: 'TAGSONIC_ERR_LIBRARY_ARTIST_IMAGE_INVALID' });
    await expect(h.rt.library.artists.set('ar-00000000000000000000', { name: 'nobody', image: red, source: 'user' }))
      .rejects.toMatchObject({ code: 'TAGSONIC_ERR_LIBRARY_NOT_FOUND' });
  });
});

describe('caps.artists', () => {
  it('checks what a plugin hands it: bytes that are no picture, unknown artists, a worker without a library', async () => {
    const [artist] = await artists();
    const caps = artistsCapability(h.rt.library.artists);
    const call = { pluginId: 'auto-artist', signal: new AbortController().signal, deadline: performance.now() + 5000, paced: () => undefined };
    await expect(caps.set!([{ artistId: artist!.id, source: 'kuwo', image: { mime: 'image/jpeg', data: new Uint8Array([1, 2, 3]) } }], call))
      .rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('not a JPEG, PNG, WebP or GIF') });
    await expect(caps.set!([{ artistId: artist!.id, source: 'kuwo', image: 'https://example.com/a.jpg' }], call)).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    await expect(caps.get!([{ artistId: 'ar-00000000000000000000' }], call)).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_NOT_FOUND' });
    await expect(artistsCapability(undefined).get!([{ artistId: artist!.id }], call)).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_FAILED' });
    expect(await caps.get!([{ artistId: artist!.id }], call)).toEqual({ artistId: artist!.id, name: artist!.name, image: null, description: null, source: null });
  });
});

describe('刮削艺术家 through the route', () => {
  it('previews, applies and undoes: the matched artist gets the picture and biography, the others are misses with what Kuwo answered', async () => {
    // alice is V1: the V2-only actions refuse her, this one does not.
    expectError(await call(h.app, alice, 'POST', '/apimt/check_file_duplicates/', { select_data: ['x'] }), 403, 'TAGSONIC_ERR_AUTH_V1_RESTRICTED', 40302);
    // Every library artist is looked up, guests on others' albums too (getArtists lists album artists only).
    await h.rt.library.catalog.sync();
    const total = [...h.rt.library.catalog.artists.values()].filter((a) => !NOBODY.includes(a.name)).length;
    expect(total).toBeGreaterThan((await artists()).length - 1);
    const dry = expectOk(await call(h.app, alice, 'POST', '/apimt/batch_auto_update_artist/', { scrape_rate: 50, dry_run: true }));
    expect(dry.message).toBe('创建成功！ 任务在后台努力运行中');
    expect(dry.data).toMatchObject({ total, dry_run: true });
    expect(await finished(dry.data.task_id)).toMatchObject({ kind: 'action:auto-artist', action: '刮削艺术家', status: 'success', counts: { success: 1, miss: total - 1, fail: 0 } });
    expect((await coverBytes(known.id)).equals(red)).toBe(false);

    const report = expectOk(await call(h.app, alice, 'GET', `/apimt/audit_log_detail/?id=${dry.data.task_id}&section=success`)).data;
    expect(report.success).toEqual([expect.objectContaining({ name: known.name, changes: expect.arrayContaining([
      expect.objectContaining({ field: 'artist_img', before: null, after: `${kuwo.baseUrl()}/star/starheads/500/77/known.jpg` }),
      expect.objectContaining({ field: 'description', before: null, after: BIOGRAPHY }),
    ]) })]);
    const misses = expectOk(await call(h.app, alice, 'GET', `/apimt/audit_log_detail/?id=${dry.data.task_id}&section=miss_tag&page_size=100`)).data.miss_tag;
    const missed = misses.find((r: { name: string }) => r.name === other.name);
    expect(missed.reason).toBe(`kuwo answered "Somebody Else", not "${other.name}"`);
    expect(missed.candidate_list).toEqual([expect.objectContaining({ name: 'Somebody Else', artist_img: `${kuwo.baseUrl()}/star/starheads/500/78/else.jpg`, resource: 'kuwo' })]);
    expect(misses.find((r: { name: string }) => r.name !== other.name)?.reason).toMatch(/^kuwo knows no artist "/);

    const applied = expectOk(await call(h.app, alice, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }));
    expect(await finished(applied.data.task_id)).toMatchObject({ status: 'success', counts: { success: 1, fail: 0 } });
    const info = (await ok(h.app, 'getArtistInfo2', { id: known.id })).artistInfo2;
    expect(info.biography).toBe(BIOGRAPHY);
    expect(info.largeImageUrl).toContain(`getCoverArt.view?id=${known.id}`);
    expect((await coverBytes(known.id)).equals(red)).toBe(true);
    expect((await readdir(path.join(h.rt.config.dataDir, 'artists'))).length).toBe(1);

    // Artists with a picture are no longer items (is_skip_exist defaults to true) …
    const again = expectOk(await call(h.app, admin, 'POST', '/apimt/batch_auto_update_artist/', { scrape_rate: 50, dry_run: true }));
    expect(again.data.total).toBe(total - 1);
    await finished(again.data.task_id);
    // … unless asked: then the same picture (from the same address) and text again change nothing.
    const all = expectOk(await call(h.app, admin, 'POST', '/apimt/batch_auto_update_artist/', { scrape_rate: 50, dry_run: true, is_skip_exist: false }));
    expect(all.data.total).toBe(total);
    expect(await finished(all.data.task_id)).toMatchObject({ counts: { success: 0, skip: 1, miss: total - 1 } });

    const undone = expectOk(await call(h.app, alice, 'POST', '/apimt/undo_task/', { task_id: applied.data.task_id }));
    expect(undone).toMatchObject({ message: '撤销成功！', data: { undone: 1, failed: [] } });
    expect((await coverBytes(known.id)).equals(red)).toBe(false);
    expect((await ok(h.app, 'getArtistInfo2', { id: known.id })).artistInfo2.biography).toBeUndefined();
    expect(await readdir(path.join(h.rt.config.dataDir, 'artists'))).toEqual([]);
  }, 120_000);

  it('paces at scrape_rate, 1 artist a second by default', async () => {
    const res = expectOk(await call(h.app, admin, 'POST', '/apimt/batch_auto_update_artist/', { dry_run: true }));
    expect(await h.rt.tasks.get(res.data.task_id)).toMatchObject({ rate: 1, options: { resource: 'kuwo', is_skip_exist: true } });
    expectOk(await call(h.app, admin, 'POST', '/apimt/stop_audit_log_detail/', { id: res.data.task_id }));
    expect((await finished(res.data.task_id)).status).toBe('stop');
  });

  it('refuses a source without an artist lookup, and ticked files through run_action', async () => {
    // The plan's refusal is the request's error (the engine answers a plugin's error with its code and words).
    const before = (await h.rt.tasks.findTasks({ kind: 'action:auto-artist' })).length;
    const bad = await call(h.app, admin, 'POST', '/apimt/batch_auto_update_artist/', { resource: 'itunes' });
    expect(bad.json()).toMatchObject({ result: false, message: expect.stringContaining('resource must be one of kuwo,'), data: { error: 'TAGSONIC_ERR_PLUGIN_INVALID' } });
    const media = h.rt.roots.root('media').dir;
    const first = (await readdir(media))[0]!;
    const files = await call(h.app, admin, 'POST', '/apimt/run_action/', { plugin_id: 'auto-artist', file_full_path: media, select_data: [first] });
    expect(files.json()).toMatchObject({ result: false, message: expect.stringContaining('not ticked files'), data: { error: 'TAGSONIC_ERR_PLUGIN_INVALID' } });
    expect((await h.rt.tasks.findTasks({ kind: 'action:auto-artist' })).length).toBe(before);
  });
});
