/**
 * The task engine end to end, as the dashboard drives it: a batch action's route (replace_text, the built-in
 * replace-text plugin) → a task with one item per audio file of the ticked folder → the workers' plugin pool runs
 * runItem with the task-bound host → files changed on disk (read back with ffprobe) → the report (audit log and
 * detail with its sections) → undo_task puts every file back. Dry run then apply_task applies exactly the
 * previewed list. Real store, bus, workers, sandbox and tag engine; no mocks.
 */
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { safeWriteTags, TAG_JOURNAL_COLLECTION } from '@tagsonic/core/tags';
import { emptyTrash, TRASH_DIR, type TaskDoc } from '@tagsonic/core/tasks';
import { startWorker } from '@tagsonic/workers';
import { actionSettler, MAX_ITEM_ATTEMPTS, RateGate } from '../workers/src/actions/index.ts';
import type { Runtime } from '@tagsonic/cli';
import type { Manifest } from '@tagsonic/sdk';
import { call, expectError, expectOk, login, USER_PASSWORD, type Session, startActionHarness, type ActionHarness } from './api-harness.ts';
import { makeAudio, probeTags } from './support/audio.ts';
import { taskFinished } from './support/task-wait.ts';

let harness: ActionHarness;
let home: string;
let rt: Runtime;
let app: FastifyInstance;
let admin: Session;
let alice: Session;
let media: string;

beforeAll(async () => {
  harness = await startActionHarness({ name: 'task-engine', plugins: ['replace-text', 'check-duplicate'], setup: async (r) => {
    await r.users.create({ username: 'alice', password: USER_PASSWORD });
  } });
  ({ home, rt, app, admin, media } = harness);
  alice = await login(app, 'alice', USER_PASSWORD);
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

/** Waits for a task to leave `running`. */
const finished = (taskId: string, timeoutMs = 30_000) => taskFinished(rt.tasks, taskId, timeoutMs);

const titles = async (folder: string, names: string[]) => Promise.all(names.map(async (n) => (await probeTags(path.join(folder, n))).title));

describe('replace_text through the task engine', () => {
  const names = ['01.mp3', '02.flac', 'CD2/03.mp3', 'CD2/04.mp3'];
  let album: string;

  beforeAll(async () => {
    album = path.join(media, 'Album');
    await mkdir(path.join(album, 'CD2'), { recursive: true });
    const original = ['Live at Budokan', 'Budokan Encore', 'Nothing here', 'Budokan (Budokan mix)'];
    for (const [i, name] of names.entries()) await makeAudio(path.join(album, name), { seconds: 1, tags: { title: original[i]!, artist: 'Budokan Band' } });
    await writeFile(path.join(album, 'notes.txt'), 'not audio');
  }, 60_000);

  it('a dry run lists every change and touches nothing; apply_task applies exactly that list; undo_task puts it back', async () => {
    const payload = {
      file_full_path: media,
      select_data: [{ icon: 'icon-folder', name: 'Album', title: 'Album' }],
      replace_text_list: [{ before: 'Budokan', after: '武道館' }],
      modify_list: ['title'],
      replace_mode: 'text',
    };
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/replace_text/', { ...payload, dry_run: true }));
    expect(dry.message).toBe('创建成功！ 任务在后台努力运行中');
    expect(dry.data).toMatchObject({ total: 4, dry_run: true });
    const dryTask = await finished(dry.data.task_id);
    expect(dryTask).toMatchObject({ kind: 'action:replace-text', action: '替换文本', status: 'success', counts: { success: 3, skip: 1, fail: 0 } });
    expect(await titles(album, names)).toEqual(['Live at Budokan', 'Budokan Encore', 'Nothing here', 'Budokan (Budokan mix)']);

    const preview = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${dry.data.task_id}`)).data;
    expect(preview).toMatchObject({ name: '替换文本', status: 'success', status_display: '成功', dry_run: true, success_count: 3, skip_count: 1, fail_count: 0 });
    expect(preview.static).toMatchObject({ total_count: 4, success_count: 3, complete_rate: 100 });
    expect(preview.success.map((r: { name: string; changes: unknown[] }) => [r.name, r.changes])).toEqual([
      ['01.mp3', [expect.objectContaining({ kind: 'tags', field: 'title', before: 'Live at Budokan', after: 'Live at 武道館' })]],
      ['02.flac', [expect.objectContaining({ field: 'title', before: 'Budokan Encore', after: '武道館 Encore' })]],
      ['04.mp3', [expect.objectContaining({ field: 'title', before: 'Budokan (Budokan mix)', after: '武道館 (武道館 mix)' })]],
    ]);
    expect(preview.success[0].extra).toEqual({ raw_title: 'Live at Budokan', raw_artist: null, raw_album: null });
    expect(preview.skip[0]).toMatchObject({ name: '03.mp3', reason: expect.stringContaining('nothing to replace') });

    // Someone else's dry run is not alice's to apply.
    expectError(await call(app, alice, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }), 403, 'TAGSONIC_ERR_TASK_NOT_YOURS');
    const applied = expectOk(await call(app, admin, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }));
    expect(applied.data).toMatchObject({ total: 3, dry_run: false });
    expectError(await call(app, admin, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }), 409, 'TAGSONIC_ERR_TASK_ALREADY_APPLIED');
    const task = await finished(applied.data.task_id);
    expect(task).toMatchObject({ status: 'success', counts: { success: 3, fail: 0 }, sourceTaskId: dry.data.task_id });
    expect(await titles(album, names)).toEqual(['Live at 武道館', '武道館 Encore', 'Nothing here', '武道館 (武道館 mix)']);
    // The artist was not in modify_list.
    expect((await probeTags(path.join(album, '01.mp3'))).artist).toBe('Budokan Band');
    // Every write is journaled under the applying task, by the plugin.
    const journal = await rt.store.collection(TAG_JOURNAL_COLLECTION).find({ taskId: applied.data.task_id });
    expect(journal.map((e) => path.relative(album, String(e.path))).sort()).toEqual(['01.mp3', '02.flac', 'CD2/04.mp3']);
    expect(new Set(journal.map((e) => e.actor))).toEqual(new Set(['plugin:replace-text']));

    const detail = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${applied.data.task_id}`)).data;
    expect(detail).toMatchObject({ dry_run: false, source_task_id: dry.data.task_id, success_count: 3, running_count: 0 });
    // The log entry takes the task's final status in a second write, just after the task's own.
    const log = async () => expectOk(await call(app, admin, 'GET', '/apimt/audit_log/?action=替换文本')).data;
    await expect.poll(async () => (await log()).items[0]).toMatchObject({ id: applied.data.task_id, action: '替换文本', user: 'admin', status: 'success', level: 'info' });
    expect((await log()).count).toBe(2);

    const undo = expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: applied.data.task_id }));
    expect(undo).toMatchObject({ message: '撤销成功！', data: { undone: 3, failed: [] } });
    expect(await titles(album, names)).toEqual(['Live at Budokan', 'Budokan Encore', 'Nothing here', 'Budokan (Budokan mix)']);
    expect(expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${applied.data.task_id}`)).data.undone).toBe(true);
  }, 60_000);

  it('apply_task applies only what the preview showed: a file changed since is skipped with what differs', async () => {
    const folder = path.join(media, 'Drift');
    await mkdir(folder, { recursive: true });
    await makeAudio(path.join(folder, 'a.mp3'), { seconds: 1, tags: { title: 'Budokan A' } });
    await makeAudio(path.join(folder, 'b.mp3'), { seconds: 1, tags: { title: 'Budokan B' } });
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/replace_text/', {
      file_full_path: media, select_data: ['Drift'], replace_text_list: [{ before: 'Budokan', after: 'Tokyo' }], modify_list: ['title'], dry_run: true,
    }));
    expect(await finished(dry.data.task_id)).toMatchObject({ counts: { success: 2 } });
    // The user edits b.mp3 after looking at the preview.
    await safeWriteTags(path.join(folder, 'b.mp3'), { fields: { title: 'Budokan B (live)' } }, { journal: rt.journal, actor: 'admin' });
    const applied = expectOk(await call(app, admin, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }));
    expect(await finished(applied.data.task_id)).toMatchObject({ counts: { success: 1, skip: 1 } });
    expect(await titles(folder, ['a.mp3', 'b.mp3'])).toEqual(['Tokyo A', 'Budokan B (live)']);
    const detail = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${applied.data.task_id}`)).data;
    expect(detail.skip[0]).toMatchObject({ name: 'b.mp3', reason: expect.stringContaining('changed since the preview: the preview had tags') });
  }, 30_000);

  it('runs for real at once without dry_run, one item per file, and depth 1 takes only the folder\'s own files', async () => {
    const res = expectOk(await call(app, admin, 'POST', '/apimt/replace_text/', {
      file_full_path: album, select_data: ['CD2', '01.mp3'], replace_text_list: [{ before: 'Live', after: 'LIVE' }], modify_list: ['title'], replace_mode: 'text', depth: 1,
    }));
    expect(res.data.total).toBe(3);
    expect(await finished(res.data.task_id)).toMatchObject({ counts: { success: 1, skip: 2 } });
    expect((await probeTags(path.join(album, '01.mp3'))).title).toBe('LIVE at Budokan');
    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: res.data.task_id }));
  }, 30_000);

  it('refuses nothing ticked, paths outside the media roots, and an action that is not installed', async () => {
    const body = { file_full_path: media, replace_text_list: [{ before: 'a', after: 'b' }] };
    const empty = expectError(await call(app, admin, 'POST', '/apimt/replace_text/', { ...body, select_data: [] }), 400, 'TAGSONIC_ERR_TASK_NOTHING_SELECTED');
    expect(empty.message).toBe('请先勾选文件或文件夹！');
    expectError(await call(app, admin, 'POST', '/apimt/replace_text/', { ...body, select_data: [{ name: '../etc' }] }), 400, 'TAGSONIC_ERR_FILES_BAD_NAME');
    expectError(await call(app, admin, 'POST', '/apimt/replace_text/', { file_full_path: '/etc', select_data: ['passwd'], replace_text_list: [] }), 403);
    expectError(await call(app, admin, 'POST', '/apimt/remove_null_folder/', { ...body, select_data: ['Album'] }), 404, 'TAGSONIC_ERR_PLUGIN_NOT_INSTALLED');
  });

  it('a bad option fails each item with the action\'s reason in the report, and the action stays enabled', async () => {
    const res = expectOk(await call(app, admin, 'POST', '/apimt/replace_text/', { file_full_path: album, select_data: ['CD2', '01.mp3', '02.flac'], replace_text_list: [], modify_list: ['title'] }));
    const task = await finished(res.data.task_id);
    expect(task).toMatchObject({ status: 'fail', counts: { fail: 4 } });
    const detail = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}&section=fail&page=2&page_size=3`)).data;
    expect(detail.fail_count).toBe(4);
    expect(detail.fail).toHaveLength(1);
    expect(detail.fail[0]).toMatchObject({ status: 'fail', error_code: 'TAGSONIC_ERR_PLUGIN_INVALID', reason: expect.stringContaining('replace_text_list') });
    expect((await rt.plugins.get('replace-text'))?.enabled).toBe(true);
    // The log entry takes the task's final status in a second write, just after the task's own.
    const failed = async () => expectOk(await call(app, admin, 'GET', '/apimt/audit_log/?status=fail&level=error&page_size=50')).data.items.map((i: { id: string }) => i.id);
    await expect.poll(failed).toContain(res.data.task_id);
  }, 30_000);

  it('a finished item\'s status can be changed by hand and the counts follow; stopping applies to running tasks and queued items only', async () => {
    const res = expectOk(await call(app, admin, 'POST', '/apimt/replace_text/', { file_full_path: album, select_data: ['01.mp3'], replace_text_list: [{ before: 'zzz', after: 'y' }], modify_list: ['title'] }));
    await finished(res.data.task_id);
    const [item] = (await rt.tasks.listItems(res.data.task_id));
    expect(item!.status).toBe('skip');
    expectError(await call(app, alice, 'POST', '/apimt/change_status_audit_log_detail_run/', { id: item!._id, status: 'success' }), 403, 'TAGSONIC_ERR_TASK_NOT_YOURS');
    expectOk(await call(app, admin, 'POST', '/apimt/change_status_audit_log_detail_run/', { id: item!._id, status: 'miss' }));
    expect((await rt.tasks.get(res.data.task_id)).counts).toMatchObject({ success: 0, skip: 0, miss: 1 });
    // The spec's call sends only the id: the row is finished (success).
    expectOk(await call(app, admin, 'POST', '/apimt/change_status_audit_log_detail_run/', { id: item!._id }));
    expect((await rt.tasks.get(res.data.task_id)).counts).toMatchObject({ success: 1, skip: 0, miss: 0 });
    expectError(await call(app, admin, 'POST', '/apimt/stop_audit_log_detail/', { id: res.data.task_id }), 409, 'TAGSONIC_ERR_TASK_NOT_RUNNING');
    expectError(await call(app, admin, 'POST', '/apimt/stop_audit_log_detail_run/', { id: item!._id }), 409, 'TAGSONIC_ERR_TASK_ITEM_NOT_QUEUED');
  }, 30_000);
});

describe('settling an action task a dead worker left (the decision per item)', () => {
  it('an item whose write the journal committed succeeded (never run again); a dry run or unwritten item resumes; a poison item fails', async () => {
    const file = path.join(media, 'Settle', 'a.mp3');
    await mkdir(path.dirname(file), { recursive: true });
    await makeAudio(file, { seconds: 1, tags: { title: 'Old' } });
    const taskId = 'settle-task';
    // What the crashed worker got done: the plugin's write, journaled under the task, before its item was finished.
    await safeWriteTags(file, { fields: { title: 'New Old' } }, { journal: rt.journal, actor: 'plugin:replace-text', taskId });
    const decide = await actionSettler({ journal: rt.journal })({ _id: taskId, kind: 'action:replace-text' } as TaskDoc);
    const item = (paths: string[], extra: Record<string, unknown> = {}) => ({
      _id: 'i', taskId, seq: 0, path: paths[0] ?? null, status: 'running', error: null, result: null, attempts: 1, dead: false, updatedAt: new Date(),
      payload: { pluginId: 'replace-text', item: { key: paths[0], paths }, options: {}, dryRun: false, actor: 'admin' }, ...extra,
    }) as Parameters<typeof decide>[0];
    expect(await decide(item([file]))).toEqual({
      status: 'success', result: { reason: null, settled: true, changes: [{ path: file, kind: 'tags', field: 'title', before: 'Old', after: 'New Old' }] },
    });
    const other = path.join(media, 'Settle', 'b.mp3');
    expect(await decide(item([other]))).toEqual({ status: 'resume' });
    const dry = item([file]);
    (dry.payload as { dryRun: boolean }).dryRun = true;
    expect(await decide(dry)).toEqual({ status: 'resume' });
    expect(await decide(item([other], { attempts: MAX_ITEM_ATTEMPTS }))).toMatchObject({ status: 'fail', errorCode: 'TAGSONIC_ERR_TASK_ITEM_CRASHED' });
    expect(await decide(item([file], { payload: { item: null } }))).toMatchObject({ status: 'fail', errorCode: 'TAGSONIC_ERR_TASK_NOT_RESUMABLE' });
  });
});

describe('stopping and pacing', () => {
  it('a task stopped while it runs ends as stop: queued items are not run, their files untouched', async () => {
    const folder = path.join(media, 'Stop');
    await mkdir(folder, { recursive: true });
    const seed = path.join(home, 'stop-seed.mp3');
    await makeAudio(seed, { seconds: 1, tags: { title: 'Old' } });
    const files = Array.from({ length: 120 }, (_, i) => path.join(folder, `${String(i).padStart(3, '0')}.mp3`));
    for (const f of files) await copyFile(seed, f);
    const res = expectOk(await call(app, admin, 'POST', '/apimt/replace_text/', { file_full_path: media, select_data: ['Stop'], replace_text_list: [{ before: 'Old', after: 'New' }], modify_list: ['title'] }));
    expectOk(await call(app, admin, 'POST', '/apimt/stop_audit_log_detail/', { id: res.data.task_id }));
    await expect.poll(async () => (await rt.tasks.countItems(res.data.task_id)).pending + (await rt.tasks.countItems(res.data.task_id)).running, { timeout: 30_000, interval: 50 }).toBe(0);
    const task = await rt.tasks.get(res.data.task_id);
    expect(task.status).toBe('stop');
    expect(task.counts.stop).toBeGreaterThan(0);
    expect(task.counts.success + task.counts.stop).toBe(120);
    const detail = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data;
    expect(detail).toMatchObject({ status: 'stop', status_display: '停止', stop_count: task.counts.stop });
    const stopped = await rt.tasks.findItems(res.data.task_id, 'stop');
    for (const item of stopped.slice(0, 5)) expect((await probeTags(item.path!)).title).toBe('Old');
  }, 60_000);

  it('a task\'s rate holds across workers: 7 items at 3/s on two workers take at least 2 s', async () => {
    const second = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 2, plugins: { registry: rt.plugins, store: rt.store } });
    try {
      const folder = path.join(media, 'Paced2');
      await mkdir(folder, { recursive: true });
      const seed = path.join(home, 'paced-seed.mp3');
      await makeAudio(seed, { seconds: 1, tags: { title: 'Old' } });
      const files = Array.from({ length: 7 }, (_, i) => path.join(folder, `${i}.mp3`));
      for (const f of files) await copyFile(seed, f);
      const started = Date.now();
      const task = await rt.tasks.create({
        kind: 'action:replace-text', action: '替换文本', actor: 'admin', subject: 'tagsonic.cmd.action.item',
        items: files.map((f) => ({ path: f, payload: { pluginId: 'replace-text', item: { key: f, paths: [f] }, options: { replace_text_list: [{ before: 'Old', after: 'New' }], modify_list: ['title'] }, dryRun: true, actor: 'admin', rate: 3 } })),
      });
      expect(await finished(task._id)).toMatchObject({ counts: { success: 7 } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1950);
    } finally {
      await second.close();
    }
  }, 30_000);

  it('a task with a rate has its items run no faster (5 items at 2/s take at least 2 s on the workers)', async () => {
    const folder = path.join(media, 'Paced');
    await mkdir(folder, { recursive: true });
    const files = [];
    for (let i = 0; i < 5; i++) {
      files.push(path.join(folder, `${i}.mp3`));
      await makeAudio(files[i]!, { seconds: 1, tags: { title: 'Old' } });
    }
    const started = Date.now();
    const task = await rt.tasks.create({
      kind: 'action:replace-text', action: '替换文本', actor: 'admin', subject: 'tagsonic.cmd.action.item',
      items: files.map((f) => ({ path: f, payload: { pluginId: 'replace-text', item: { key: f, paths: [f] }, options: { replace_text_list: [{ before: 'Old', after: 'New' }], modify_list: ['title'] }, dryRun: true, actor: 'admin', rate: 2 } })),
    });
    expect(await finished(task._id)).toMatchObject({ counts: { success: 5 } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1950);
  }, 30_000);

  it('paces a task\'s items at its rate (scrape_rate 2/s: 5 starts take 2 s)', async () => {
    const gate = new RateGate();
    const started = Date.now();
    const at: number[] = [];
    await Promise.all(Array.from({ length: 5 }, async () => { await gate.wait('t', 2); at.push(Date.now() - started); }));
    at.sort((a, b) => a - b);
    expect(at[0]).toBeLessThan(100);
    expect(at[4]).toBeGreaterThanOrEqual(1950);
    // Another task has its own schedule.
    const other = Date.now();
    await gate.wait('u', 2);
    expect(Date.now() - other).toBeLessThan(100);
  });
});

describe('an action with its own plan (unit larger than a file)', () => {
  /** One item per ticked folder: its audio files, numbered; runItem titles them "<folder> <n>/<total>". */
  const code = `
module.exports = {
  async plan({ paths, options }, caps) {
    if (options.fail === true) throw Object.assign(new Error('cannot plan that'), { name: 'PluginError', code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    if (options.escape === true) return { items: [{ key: 'out', paths: ['/etc/passwd'] }] };
    const items = [];
    for (const folder of paths) {
      const { entries } = await caps.files.list({ path: folder });
      const audio = entries.filter((e) => e.type === 'file' && e.name.endsWith('.mp3')).map((e) => e.path);
      items.push({ key: folder, paths: audio, data: { folder: folder.split('/').pop() } });
    }
    return { items };
  },
  async runItem({ item, dryRun }, caps) {
    const changes = [];
    for (const [i, path] of item.paths.entries()) {
      const title = item.data.folder + ' ' + (i + 1) + '/' + item.paths.length;
      const before = (await caps.tags.read({ path })).title;
      if (!dryRun) await caps.tags.write({ path, tags: { title } });
      changes.push({ path, kind: 'tags', field: 'title', before, after: title });
    }
    return { status: 'success', changes, report: { files: item.paths.length } };
  },
};`;

  beforeAll(async () => {
    await rt.plugins.install({
      manifest: {
        id: 'number-titles', name: 'Number titles', version: '1.0.0', description: 'Numbers the titles of each ticked folder.', kind: 'batch-action', entry: 'index.js',
        permissions: { tags: { access: 'write', reason: 'Writes the numbered titles.' }, files: { access: 'read', reason: 'Lists the ticked folders.' } },
      } as Manifest,
      code,
    }, 'upload');
    await rt.plugins.setEnabled('number-titles', true);
    for (const folder of ['Disc A', 'Disc B']) {
      await mkdir(path.join(media, 'Plan', folder), { recursive: true });
      for (const n of [1, 2]) await makeAudio(path.join(media, 'Plan', folder, `${n}.mp3`), { seconds: 1, tags: { title: 'x' } });
    }
  }, 60_000);

  it('the plan\'s items become the task\'s (one per folder), and each item\'s changes land in the report', async () => {
    const res = expectOk(await call(app, admin, 'POST', '/apimt/run_action/', { plugin_id: 'number-titles', file_full_path: path.join(media, 'Plan'), select_data: ['Disc A', 'Disc B'] }));
    expect(res.data.total).toBe(2);
    expect(await finished(res.data.task_id)).toMatchObject({ status: 'success', counts: { success: 2 } });
    const titlesOf = (folder: string) => titles(path.join(media, 'Plan', folder), ['1.mp3', '2.mp3']);
    expect([await titlesOf('Disc A'), await titlesOf('Disc B')]).toEqual([['Disc A 1/2', 'Disc A 2/2'], ['Disc B 1/2', 'Disc B 2/2']]);
    const detail = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data;
    expect(detail.success.map((r: { name: string; report: unknown; changes: unknown[] }) => [r.name, r.report, r.changes.length])).toEqual([
      ['Disc A', { files: 2 }, 2], ['Disc B', { files: 2 }, 2],
    ]);
    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: res.data.task_id }));
    expect(await titlesOf('Disc A')).toEqual(['x', 'x']);
  }, 30_000);

  it('an action answering something that is not a result fails its items with TAGSONIC_ERR_TASK_ITEM_RESULT_INVALID', async () => {
    await rt.plugins.install({
      manifest: { id: 'bad-result', name: 'Bad result', version: '1.0.0', description: 'Answers nonsense.', kind: 'batch-action', entry: 'index.js', permissions: {} } as Manifest,
      code: 'module.exports = { async runItem() { return { status: "done", changes: "all of them" }; } };',
    }, 'upload');
    await rt.plugins.setEnabled('bad-result', true);
    const res = expectOk(await call(app, admin, 'POST', '/apimt/run_action/', { plugin_id: 'bad-result', file_full_path: path.join(media, 'Plan'), select_data: ['Disc A'] }));
    expect(await finished(res.data.task_id)).toMatchObject({ status: 'fail', counts: { fail: 2 } });
    const [item] = await rt.tasks.listItems(res.data.task_id);
    expect(item).toMatchObject({ errorCode: 'TAGSONIC_ERR_TASK_ITEM_RESULT_INVALID', error: expect.stringContaining('status must be success, skip, fail or miss') });
  }, 30_000);

  it('a plan that fails is the request\'s error, and a planned path outside the media roots is refused before anything is queued', async () => {
    const body = { plugin_id: 'number-titles', file_full_path: path.join(media, 'Plan'), select_data: ['Disc A'] };
    const before = (await rt.tasks.listAudit({}, { page: 1, pageSize: 1 })).count;
    expectError(await call(app, admin, 'POST', '/apimt/run_action/', { ...body, fail: true }), 503, 'TAGSONIC_ERR_PLUGIN_INVALID');
    expectError(await call(app, admin, 'POST', '/apimt/run_action/', { ...body, escape: true }), 403, 'TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    expect((await rt.tasks.listAudit({}, { page: 1, pageSize: 1 })).count).toBe(before);
  });
});

describe('deleting from a report (delete_files, finish_files)', () => {
  it('deletes the duplicate copies by the rules into the trash, lists them in the report, and undo brings them back', async () => {
    const folder = path.join(media, 'Dup');
    await mkdir(folder, { recursive: true });
    await makeAudio(path.join(folder, 'Song.mp3'), { seconds: 1, tags: { title: 'Song' } });
    await copyFile(path.join(folder, 'Song.mp3'), path.join(folder, 'Song (1).mp3'));
    await makeAudio(path.join(folder, 'Other.mp3'), { seconds: 2, tags: { title: 'Other' } });
    // The duplicate check is a V2 feature (spec doc 1 §6).
    const body = { file_full_path: media, select_data: ['Dup'], is_acoustid: false };
    expectError(await call(app, admin, 'POST', '/apimt/check_file_duplicates/', body), 403, 'TAGSONIC_ERR_AUTH_V1_RESTRICTED', 40302);
    expectError(await call(app, admin, 'POST', '/apimt/run_action/', { ...body, plugin_id: 'check-duplicate' }), 403, 'TAGSONIC_ERR_AUTH_V1_RESTRICTED', 40302);
    await rt.users.setRole('admin', 'V2');
    const check = expectOk(await call(app, admin, 'POST', '/apimt/check_file_duplicates/', body));
    expect(await finished(check.data.task_id)).toMatchObject({ status: 'success', action: '重复检查' });

    // Only files the report names can be deleted through it.
    await makeAudio(path.join(media, 'Elsewhere.mp3'), { seconds: 1, tags: { title: 'Elsewhere' } });
    expectError(await call(app, admin, 'POST', '/apimt/delete_files/', { log_id: check.data.task_id, mode: 'single', paths: [path.join(media, 'Elsewhere.mp3')] }), 400, 'TAGSONIC_ERR_TASK_NOT_IN_REPORT');
    expectError(await call(app, alice, 'POST', '/apimt/delete_files/', { log_id: check.data.task_id, mode: 'hash', rules: {} }), 403, 'TAGSONIC_ERR_TASK_NOT_YOURS');

    // A preview first: the files the rules would delete, nothing touched; posting that list deletes exactly it.
    const preview = expectOk(await call(app, admin, 'POST', '/apimt/delete_files/', { log_id: check.data.task_id, mode: 'hash', rules: { nameRule: 'larger' }, dry_run: true }));
    expect(preview.data).toMatchObject({ dry_run: true, total: 1, paths: [path.join(folder, 'Song (1).mp3')], target_dir: null, task_id: '' });
    expect((await readdir(folder)).sort()).toEqual(['Other.mp3', 'Song (1).mp3', 'Song.mp3']);
    expect((await call(app, admin, 'GET', '/apimt/audit_log/?page=1&page_size=50')).json().data.items.filter((e: { action: string }) => e.action === '删除文件')).toEqual([]);

    // The default rules keep the copy with the shorter name.
    const del = expectOk(await call(app, admin, 'POST', '/apimt/delete_files/', { log_id: check.data.task_id, mode: 'hash', paths: preview.data.paths }));
    expect(del.data.total).toBe(1);
    expect(await finished(del.data.task_id)).toMatchObject({ kind: 'files.delete', action: '删除文件', status: 'success', counts: { success: 1 } });
    expect((await readdir(folder)).sort()).toEqual(['Other.mp3', 'Song.mp3']);
    const trash = path.join(media, TRASH_DIR, del.data.task_id, 'Dup');
    expect(await readdir(trash)).toEqual(['Song (1).mp3']);

    const report = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${check.data.task_id}`)).data;
    expect(report.delete_count).toBe(1);
    expect(report.delete[0]).toMatchObject({ name: 'Song (1).mp3', changes: [expect.objectContaining({ kind: 'delete', before: path.join(folder, 'Song (1).mp3') })] });
    // Nothing left to delete by the rules: each group has one copy now.
    expectError(await call(app, admin, 'POST', '/apimt/delete_files/', { log_id: check.data.task_id, mode: 'hash' }), 400, 'TAGSONIC_ERR_TASK_NOTHING_TO_DELETE');

    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: del.data.task_id }));
    expect((await readdir(folder)).sort()).toEqual(['Other.mp3', 'Song (1).mp3', 'Song.mp3']);

    // A single row, then the trash emptied once it is old enough.
    const one = expectOk(await call(app, admin, 'POST', '/apimt/delete_files/', { log_id: check.data.task_id, mode: 'single', paths: [path.join(folder, 'Song.mp3')] }));
    await finished(one.data.task_id);
    expect((await readdir(folder)).sort()).toEqual(['Other.mp3', 'Song (1).mp3']);
    expect(await emptyTrash(rt.roots, { maxAgeMs: 60_000 })).toEqual([]);
    expect(await emptyTrash(rt.roots, { maxAgeMs: 0, now: Date.now() + 1 })).toContain(path.join(media, TRASH_DIR, one.data.task_id));
  }, 60_000);

  it('finish_files marks a row done by hand', async () => {
    const res = expectOk(await call(app, admin, 'POST', '/apimt/replace_text/', { file_full_path: media, select_data: ['Elsewhere.mp3'], replace_text_list: [{ before: 'qqq', after: 'y' }] }));
    await finished(res.data.task_id);
    const [item] = await rt.tasks.listItems(res.data.task_id);
    expectOk(await call(app, admin, 'POST', '/apimt/finish_files/', { log_id: res.data.task_id, mode: 'single', detail_id: item!._id }));
    expect((await rt.tasks.get(res.data.task_id)).counts).toMatchObject({ success: 1, skip: 0 });
  }, 30_000);
});
