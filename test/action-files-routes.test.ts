/**
 * The file batch actions through the task engine as the dashboard drives them: POST /apimt/tidy_folder/ (dry run,
 * then apply_task), /apimt/check_file_duplicates/ and /apimt/remove_null_folder/ → plan on a worker → items run
 * by the workers' plugin pool → files on disk (listing, ffprobe) and the report (audit_log_detail); undo_task moves
 * tidied tracks back (their moves are journaled under the task) and brings deleted ones back from the trash. Real store,
 * bus, workers, sandbox and files; no mocks.
 */
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '@tagsonic/cli';
import { call, expectOk, type Session, startActionHarness, type ActionHarness } from './api-harness.ts';
import { makeAudio, probeTags } from './support/audio.ts';
import { listFiles, listFolders } from './support/file-actions.ts';
import { taskFinished } from './support/task-wait.ts';

let harness: ActionHarness;
let rt: Runtime;
let app: FastifyInstance;
let admin: Session;
let media: string;

beforeAll(async () => {
  harness = await startActionHarness({ name: 'file-actions', plugins: ['tidy-folder', 'check-duplicate', 'remove-null-folder'], setup: async (r) => {
    await r.users.setRole('admin', 'V2'); // the duplicate check is V2 (spec doc 1 §6)
  } });
  ({ rt, app, admin, media } = harness);
  await mkdir(path.join(media, 'Incoming', 'A'), { recursive: true });
  await mkdir(path.join(media, 'Incoming', 'Empty', 'Deeper'), { recursive: true });
  await makeAudio(path.join(media, 'Incoming', 'A', '01.flac'), { tags: { title: 'One', artist: '../../x', album: 'CON' } });
  await makeAudio(path.join(media, 'Incoming', 'A', '02.mp3'), { tags: { title: 'Two', artist: 'Band', album: 'a:b' } });
  await writeFile(path.join(media, 'Incoming', 'A', '02.lrc'), '[00:00.00]two');
  await writeFile(path.join(media, 'Incoming', 'A', 'cover.jpg'), 'jpeg');
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

const finished = (taskId: string, timeoutMs = 30_000) => taskFinished(rt.tasks, taskId, timeoutMs);

describe('file batch actions through the routes', () => {
  it('tidy_folder: the dry run previews the moves and touches nothing; apply_task makes them, inside the root', async () => {
    const before = await listFiles(media);
    const payload = { file_full_path: media, select_data: [{ icon: 'icon-folder', name: 'Incoming', title: 'Incoming' }], root_path: path.join(media, 'Library'),
      dir_list: [{ value: 'artist' }, { value: 'album' }], rule_form: { is_clean_music: false } };
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/tidy_folder/', { ...payload, dry_run: true }));
    expect(dry.message).toBe('创建成功！ 任务在后台努力运行中');
    expect(await finished(dry.data.task_id)).toMatchObject({ kind: 'action:tidy-folder', status: 'success', counts: { success: 1 } });
    expect(await listFiles(media)).toEqual(before);
    const preview = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${dry.data.task_id}`)).data;
    expect(preview.success[0].changes.map((c: { kind: string; after: string }) => [c.kind, path.relative(media, c.after)])).toEqual([
      ['move', 'Library/_._.._x/_CON/01.flac'],
      ['move', 'Library/Band/a_b/02.mp3'],
      ['move', 'Library/Band/a_b/02.lrc'],
      ['copy', 'Library/_._.._x/_CON/cover.jpg'],
      ['move', 'Library/Band/a_b/cover.jpg'],
    ]);

    const applied = expectOk(await call(app, admin, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }));
    expect(await finished(applied.data.task_id)).toMatchObject({ status: 'success', counts: { success: 1, fail: 0 } });
    expect(await listFiles(path.join(media, 'Library'))).toEqual(['Band/a_b/02.lrc', 'Band/a_b/02.mp3', 'Band/a_b/cover.jpg', '_._.._x/_CON/01.flac', '_._.._x/_CON/cover.jpg']);
    expect(await probeTags(path.join(media, 'Library', '_._.._x', '_CON', '01.flac'))).toMatchObject({ title: 'One', artist: '../../x' });

    // Every effect was journaled under the task — the tracks' moves (with the .lrc), the cover's copy and its move —
    // so undo_task puts the folder back exactly as it was (the copy into the task's trash).
    const undo = expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: applied.data.task_id }));
    expect(undo.data).toMatchObject({ undone: 4, failed: [] });
    expect((await listFiles(media)).filter((f) => !f.startsWith('.tagsonic-trash/'))).toEqual(before);

    const again = expectOk(await call(app, admin, 'POST', '/apimt/tidy_folder/', payload));
    expect(await finished(again.data.task_id)).toMatchObject({ status: 'success' });
    expect(await listFiles(path.join(media, 'Library'))).toEqual(['Band/a_b/02.lrc', 'Band/a_b/02.mp3', 'Band/a_b/cover.jpg', '_._.._x/_CON/01.flac', '_._.._x/_CON/cover.jpg']);
  }, 60_000);

  it('check_file_duplicates: the report holds the hash and name sections with name, file 1, file 2', async () => {
    const album = path.join(media, 'Library', 'Band', 'a_b');
    await copyFile(path.join(album, '02.mp3'), path.join(album, '02 (1).mp3'));
    const res = expectOk(await call(app, admin, 'POST', '/apimt/check_file_duplicates/', { file_full_path: media, select_data: ['Library'], is_acoustid: false }));
    const task = await finished(res.data.task_id);
    expect(task).toMatchObject({ kind: 'action:check-duplicate', status: 'success' });
    const detail = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data;
    const reports = detail.success.map((r: { report: { section: string; rows: unknown[] } }) => r.report);
    const row = { name: '02', file_1: path.join(album, '02 (1).mp3'), file_2: path.join(album, '02.mp3') };
    expect(reports.find((r: { section: string }) => r.section === 'hash')).toMatchObject({ rows: [{ ...row, name: '02 (1)' }] });
    expect(reports.find((r: { section: string }) => r.section === 'name')).toMatchObject({ rows: [{ ...row, name: '02 (1)' }] });
  }, 60_000);

  it('tidy_folder with 清理音乐: the worse copy goes to the trash, and undo_task brings it back', async () => {
    await mkdir(path.join(media, 'Incoming', 'C'), { recursive: true });
    await makeAudio(path.join(media, 'Incoming', 'C', '02.flac'), { tags: { title: 'Two', artist: 'Band', album: 'a:b' } });
    const res = expectOk(await call(app, admin, 'POST', '/apimt/tidy_folder/', { file_full_path: path.join(media, 'Incoming'), select_data: ['C'],
      root_path: path.join(media, 'Library'), dir_list: [{ value: 'artist' }, { value: 'album' }], rule_form: { is_clean_music: true } }));
    expect(await finished(res.data.task_id)).toMatchObject({ status: 'success', counts: { success: 1 } });
    // flac before mp3: the library's two MP3 copies of 02 (and the .lrc) went to the trash, 02.flac took their place.
    expect(await listFiles(path.join(media, 'Library', 'Band', 'a_b'))).toEqual(['02.flac', 'cover.jpg']);
    expect(await listFiles(path.join(media, '.tagsonic-trash', res.data.task_id))).toEqual(['Library/Band/a_b/02 (1).mp3', 'Library/Band/a_b/02.lrc', 'Library/Band/a_b/02.mp3']);

    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: res.data.task_id }));
    expect(await listFiles(path.join(media, 'Library', 'Band', 'a_b'))).toEqual(['02 (1).mp3', '02.lrc', '02.mp3', 'cover.jpg']);
    expect(await listFiles(path.join(media, 'Incoming', 'C'))).toEqual(['02.flac']);
    await rm(path.join(media, 'Incoming', 'C'), { recursive: true });
  }, 60_000);

  it('remove_null_folder: the emptied and empty folders go (leftovers into the trash), the tidied library stays', async () => {
    await writeFile(path.join(media, 'Incoming', 'A', 'info.nfo'), 'nfo');
    const res = expectOk(await call(app, admin, 'POST', '/apimt/remove_null_folder/', { file_full_path: media, select_data: ['Incoming'], delete_mode: 'all' }));
    expect(await finished(res.data.task_id)).toMatchObject({ kind: 'action:remove-null-folder', status: 'success' });
    expect((await listFolders(media)).filter((f) => !f.startsWith('.'))).toEqual(['Library', 'Library/Band', 'Library/Band/a_b', 'Library/_._.._x', 'Library/_._.._x/_CON']);
    expect(await listFiles(path.join(media, '.tagsonic-trash', res.data.task_id))).toEqual(['Incoming/A/info.nfo']);
  }, 60_000);
});
