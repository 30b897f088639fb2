/**
 * 生成strm文件 through the task engine as the batch side bar drives it: POST /apimt/generate_strm/ (spec doc 1 §7
 * generateStrm: is_sign, save_dir; V2) → the generate-strm plugin's items on the workers' pool → .strm files on
 * disk (listing and content), a dry run that writes nothing and is applied as previewed, and signed links the
 * server streams without a session (byte ranges; a changed signature or path refused). Real store, bus, workers,
 * sandbox and files; no mocks.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '@tagsonic/cli';
import { call, expectError, expectOk, login, USER_PASSWORD, type Session, startActionHarness, type ActionHarness } from './api-harness.ts';
import { makeAudio } from './support/audio.ts';
import { listFiles } from './support/file-actions.ts';
import { taskFinished } from './support/task-wait.ts';

let harness: ActionHarness;
let rt: Runtime;
let app: FastifyInstance;
let admin: Session;
let alice: Session;
let media: string;

beforeAll(async () => {
  harness = await startActionHarness({ name: 'strm', plugins: ['generate-strm'], setup: async (r) => {
    await r.users.setRole('admin', 'V2'); // generate strm is V2 (spec doc 1 §6)
    await r.users.create({ username: 'alice', password: USER_PASSWORD });
  } });
  ({ rt, app, admin, media } = harness);
  alice = await login(app, 'alice', USER_PASSWORD);
  await mkdir(path.join(media, 'Artist', 'Album'), { recursive: true });
  await makeAudio(path.join(media, 'Artist', 'Album', '01 One.flac'), { tags: { title: 'One' } });
  await makeAudio(path.join(media, 'Artist', 'Album', '02 Two.mp3'), { tags: { title: 'Two' } });
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

const finished = (taskId: string, timeoutMs = 30_000) => taskFinished(rt.tasks, taskId, timeoutMs);

const select = () => ({ file_full_path: media, select_data: [{ icon: 'icon-folder', name: 'Artist', title: 'Artist' }] });
const strmOf = (name: string, dir = path.join(media, 'strm')) => path.join(dir, 'Artist', 'Album', name);

describe('generate_strm through the route', () => {
  it('a dry run lists the .strm files and writes none; applied, each holds its track\'s full path, under save_dir in the library\'s shape', async () => {
    const before = await listFiles(media);
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/generate_strm/', { ...select(), is_sign: false, save_dir: path.join(media, 'strm'), dry_run: true }));
    expect(dry.message).toBe('创建成功！ 任务在后台努力运行中');
    expect(await finished(dry.data.task_id)).toMatchObject({ kind: 'action:generate-strm', action: '生成strm文件', status: 'success', counts: { success: 2 } });
    expect(await listFiles(media)).toEqual(before);
    const preview = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${dry.data.task_id}`)).data;
    expect(preview.success.flatMap((row: { changes: unknown[] }) => row.changes)).toEqual(expect.arrayContaining([
      { path: strmOf('01 One.strm'), kind: 'create', before: null, after: path.join(media, 'Artist', 'Album', '01 One.flac') },
      { path: strmOf('02 Two.strm'), kind: 'create', before: null, after: path.join(media, 'Artist', 'Album', '02 Two.mp3') },
    ]));

    const applied = expectOk(await call(app, admin, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }));
    expect(await finished(applied.data.task_id)).toMatchObject({ status: 'success', counts: { success: 2 } });
    expect((await listFiles(media)).filter((f) => f.endsWith('.strm'))).toEqual([path.join('strm', 'Artist', 'Album', '01 One.strm'), path.join('strm', 'Artist', 'Album', '02 Two.strm')]);
    expect(await readFile(strmOf('01 One.strm'), 'utf8')).toBe(path.join(media, 'Artist', 'Album', '01 One.flac'));

    // Again: nothing to write, each item a skip saying so.
    const again = expectOk(await call(app, admin, 'POST', '/apimt/generate_strm/', { ...select(), is_sign: false, save_dir: path.join(media, 'strm') }));
    expect(await finished(again.data.task_id)).toMatchObject({ counts: { skip: 2 } });
  });

  it('is_sign: each .strm holds a signed link the server streams without a session, byte ranges included; a changed signature or path is refused', async () => {
    const task = expectOk(await call(app, admin, 'POST', '/apimt/generate_strm/', { ...select(), is_sign: true, save_dir: '' }));
    expect(await finished(task.data.task_id)).toMatchObject({ status: 'success', counts: { success: 2 } });
    const file = path.join(media, 'Artist', 'Album', '01 One.flac');
    const link = await readFile(path.join(media, 'Artist', 'Album', '01 One.strm'), 'utf8');
    expect(link).toMatch(/^http:\/\/localhost:80\/apimt\/strm_stream\/\?path=[^&]+&sign=[\w-]{32}$/);
    const url = new URL(link);
    expect(url.searchParams.get('path')).toBe(file);

    const whole = await app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/flac');
    expect(whole.rawPayload.equals(await readFile(file))).toBe(true);
    const part = await app.inject({ method: 'GET', url: url.pathname + url.search, headers: { range: 'bytes=0-3' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.toString('latin1')).toBe('fLaC');

    const sign = url.searchParams.get('sign')!;
    const other = path.join(media, 'Artist', 'Album', '02 Two.mp3');
    expectError(await app.inject({ method: 'GET', url: `/apimt/strm_stream/?path=${encodeURIComponent(other)}&sign=${sign}` }), 403, 'TAGSONIC_ERR_STRM_BAD_SIGN');
    expectError(await app.inject({ method: 'GET', url: `/apimt/strm_stream/?path=${encodeURIComponent(file)}&sign=${sign.slice(0, -1)}x` }), 403, 'TAGSONIC_ERR_STRM_BAD_SIGN');
    expectError(await app.inject({ method: 'GET', url: `/apimt/strm_stream/?path=${encodeURIComponent('/etc/passwd')}&sign=${sign}` }), 403, 'TAGSONIC_ERR_STRM_BAD_SIGN');
  });

  it('is V2 only; a save_dir outside the media folders fails each item with why', async () => {
    expectError(await call(app, alice, 'POST', '/apimt/generate_strm/', { ...select(), is_sign: false, save_dir: '' }), 403, 'TAGSONIC_ERR_AUTH_V1_RESTRICTED', 40302);
    const task = expectOk(await call(app, admin, 'POST', '/apimt/generate_strm/', { ...select(), is_sign: false, save_dir: '/etc/strm' }));
    expect(await finished(task.data.task_id)).toMatchObject({ counts: { fail: 2 } });
    const report = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${task.data.task_id}`)).data;
    expect(report.fail[0].reason).toMatch(/outside|media/i);
  });
});
