/**
 * deleteTrack through the real gateway, bus, worker (scanner and delete handler) and files: delete_track takes a
 * song out of the library and keeps its file (a full rescan does not bring it back); delete_file moves the file
 * with its .lrc into the root's trash as a task, the song leaves the library by the rescan that follows, and
 * undo_task puts the file back. No mocks.
 */
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Scanner } from '@tagsonic/workers/scanner';
import type { Runtime } from '@tagsonic/cli';
import { call, expectError, expectOk, startActionHarness, type ActionHarness, type Session } from './api-harness.ts';
import { makeAudio, probeTags, waitFor } from './support/audio.ts';
import { listFiles } from './support/file-actions.ts';

let rt: Runtime;
let app: FastifyInstance;
let admin: Session;
let media: string;
let scanner: Scanner;

const exists = (p: string) => access(p).then(() => true, () => false);
const songId = async (file: string) => {
  await rt.library.catalog.sync();
  return [...rt.library.catalog.tracks.values()].find((t) => t.path === file)?._id;
};
const finished = (taskId: string) => waitFor(async () => (await rt.tasks.get(taskId)).status !== 'running', `task ${taskId}`);

let h: ActionHarness;

beforeAll(async () => {
  h = await startActionHarness({
    name: 'delete-track',
    plugins: [],
    scanner: true,
    setup: async (runtime) => {
      const album = path.join(runtime.roots.root('media').dir, 'Album');
      await mkdir(album, { recursive: true });
      for (const [name, title] of [['01.mp3', 'Keep Me'], ['02.mp3', 'Hide Me'], ['03.flac', 'Bin Me']]) {
        await makeAudio(path.join(album, name), { tags: { title, artist: 'Deleter', album: 'Album' } });
      }
      await writeFile(path.join(album, '03.lrc'), '[00:00.00]bin me');
    },
  });
  ({ rt, app, admin, media } = h);
  scanner = h.scanner!;
  await scanner.scan();
}, 60_000);

afterAll(async () => h?.close());

describe('delete_track', () => {
  it('delete_track: the song leaves the library, its file stays, and a full rescan does not bring it back', async () => {
    const file = path.join(media, 'Album', '02.mp3');
    const id = await songId(file);
    expect(id).toBeTruthy();
    const res = expectOk(await call(app, admin, 'POST', '/apimt/delete_track/', { track_id: id, mode: 'delete_track' }));
    expect(res.message).toBe('删除成功！');
    expect(res.data).toMatchObject({ track_id: id, path: file, mode: 'delete_track', task_id: null });
    await finished(res.data.scan_task_id);
    expect(await songId(file)).toBeUndefined();
    expect((await probeTags(file)).title).toBe('Hide Me');
    await scanner.scan({ full: true });
    expect(await songId(file)).toBeUndefined();
    expect(await songId(path.join(media, 'Album', '01.mp3'))).toBeTruthy();
    // The song is gone for the library's readers too.
    expectError(await call(app, admin, 'POST', '/apimt/delete_track/', { track_id: id, mode: 'delete_track' }), 404, 'TAGSONIC_ERR_LIBRARY_NOT_FOUND');
  });

  it('delete_file: the file and its .lrc go into the trash as a task, the song leaves the library, undo_task restores the file', async () => {
    const file = path.join(media, 'Album', '03.flac');
    const id = await songId(file);
    const res = expectOk(await call(app, admin, 'POST', '/apimt/delete_track/', { track_id: id, mode: 'delete_file' }));
    expect(res.data).toMatchObject({ track_id: id, path: file, mode: 'delete_file', scan_task_id: null });
    const task = await rt.tasks.get(res.data.task_id);
    expect(task).toMatchObject({ kind: 'files.delete', action: '删除歌曲' });
    await finished(task._id);
    expect(await exists(file)).toBe(false);
    const trashed = path.join('.tagsonic-trash', task._id, 'Album');
    expect((await listFiles(media)).filter((f) => f.startsWith('.tagsonic-trash'))).toEqual([path.join(trashed, '03.flac'), path.join(trashed, '03.lrc')]);
    await waitFor(async () => (await songId(file)) === undefined, 'the song to leave the library');

    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: task._id }));
    expect((await probeTags(file)).title).toBe('Bin Me');
    expect(await exists(path.join(media, 'Album', '03.lrc'))).toBe(true);
  });

  it('refuses an unknown song or mode', async () => {
    expectError(await call(app, admin, 'POST', '/apimt/delete_track/', { track_id: 'nope', mode: 'delete_file' }), 404, 'TAGSONIC_ERR_LIBRARY_NOT_FOUND');
    expectError(await call(app, admin, 'POST', '/apimt/delete_track/', { track_id: 'nope', mode: 'shred' }), 400);
    expectError(await call(app, 'none', 'POST', '/apimt/delete_track/', { track_id: 'nope', mode: 'delete_file' }), 401);
  });
});
