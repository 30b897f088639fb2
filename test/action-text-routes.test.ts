/**
 * The text batch actions through the task engine as the dashboard drives them: POST /apimt/fix_encoding/ (dry run,
 * apply_task, undo_task), /apimt/split_filename/, /apimt/simplified_fields/ and /apimt/replace_text/ in regex mode
 * → items run by the workers' plugin pool → tags on disk (ffprobe) and the report (audit_log_detail). Real store,
 * bus, workers, sandbox and files; no mocks.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '@tagsonic/cli';
import { call, expectOk, type Session, startActionHarness, type ActionHarness } from './api-harness.ts';
import { makeAudio, probeTags } from './support/audio.ts';
import { bareMp3, encodeLegacy, id3Latin1, mojibake } from './support/mojibake.ts';
import { taskFinished } from './support/task-wait.ts';

let harness: ActionHarness;
let home: string;
let rt: Runtime;
let app: FastifyInstance;
let admin: Session;
let media: string;
let folder: string;

beforeAll(async () => {
  harness = await startActionHarness({ name: 'text-actions', plugins: ['replace-text', 'fix-encoding', 'simplified-fields', 'split-filename'] });
  ({ home, rt, app, admin, media } = harness);
  folder = path.join(media, 'Old CDs');
  await mkdir(path.join(folder, 'Disc 2'), { recursive: true });
  // 01: GBK bytes in ID3 frames that say ISO-8859-1; 02: Big5 mojibake in a FLAC; Disc 2/03: correct text.
  const tag = id3Latin1({ TIT2: encodeLegacy('晴天', 'gbk'), TPE1: encodeLegacy('周杰伦', 'gbk'), TALB: encodeLegacy('叶惠美', 'gbk') });
  await writeFile(path.join(folder, '01 Qing Tian.mp3'), Buffer.concat([tag, await bareMp3(path.join(home, 'raw.mp3'))]));
  await makeAudio(path.join(folder, '02 吻別.flac'), { tags: { title: mojibake('吻別', 'big5'), artist: mojibake('張學友', 'big5') } });
  await makeAudio(path.join(folder, 'Disc 2', '03 Björk - Jóga.flac'), { tags: { title: 'Jóga', artist: 'Björk' } });
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

const finished = (taskId: string, timeoutMs = 30_000) => taskFinished(rt.tasks, taskId, timeoutMs);

const tagsOf = async (name: string) => {
  const t = await probeTags(path.join(folder, name));
  return { title: t.title, artist: t.artist };
};
const select = (...names: string[]) => ({ file_full_path: media, select_data: names.map((name) => ({ icon: 'icon-folder', name, title: name })) });

describe('text batch actions through the routes', () => {
  it('fix_encoding: the dry run previews the repairs and touches nothing; apply_task writes them; undo_task puts the old text back', async () => {
    const before = await readFile(path.join(folder, '01 Qing Tian.mp3'));
    expect(await tagsOf('01 Qing Tian.mp3')).toEqual({ title: 'ÇçÌì', artist: 'ÖÜ½ÜÂ×' });
    const payload = { ...select('Old CDs'), modify_list: ['title', 'artist', 'album'], replace_text_list: [] };
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/fix_encoding/', { ...payload, dry_run: true }));
    expect(dry.message).toBe('创建成功！ 任务在后台努力运行中');
    expect(await finished(dry.data.task_id)).toMatchObject({ kind: 'action:fix-encoding', action: '乱码修复', status: 'success', counts: { success: 2, skip: 1, fail: 0 } });
    expect((await readFile(path.join(folder, '01 Qing Tian.mp3'))).equals(before)).toBe(true);

    const preview = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${dry.data.task_id}`)).data;
    expect(preview.success.map((r: { name: string; changes: Array<{ field: string; after: string }> }) => [r.name, r.changes.map((c) => `${c.field}=${c.after}`)])).toEqual([
      ['01 Qing Tian.mp3', ['title=晴天', 'artist=周杰伦', 'album=叶惠美']],
      ['02 吻別.flac', ['title=吻別', 'artist=張學友']],
    ]);
    expect(preview.skip).toEqual([expect.objectContaining({ name: '03 Björk - Jóga.flac', reason: 'title, artist: no mojibake found' })]);

    const applied = expectOk(await call(app, admin, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }));
    expect(await finished(applied.data.task_id)).toMatchObject({ status: 'success', counts: { success: 2, fail: 0 } });
    expect(await tagsOf('01 Qing Tian.mp3')).toEqual({ title: '晴天', artist: '周杰伦' });
    expect(await tagsOf('02 吻別.flac')).toEqual({ title: '吻別', artist: '張學友' });
    expect(await tagsOf('Disc 2/03 Björk - Jóga.flac')).toEqual({ title: 'Jóga', artist: 'Björk' });

    // Undo restores the tags as they read before (the journal keeps text, not the old frames' bytes).
    expect(expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: applied.data.task_id })).data).toMatchObject({ undone: 2, failed: [] });
    expect(await tagsOf('01 Qing Tian.mp3')).toEqual({ title: 'ÇçÌì', artist: 'ÖÜ½ÜÂ×' });
    expect(await tagsOf('02 吻別.flac')).toEqual({ title: mojibake('吻別', 'big5'), artist: mojibake('張學友', 'big5') });
  }, 60_000);

  it('split_filename fills title and artist from the file names; a name no rule matches is skipped with why', async () => {
    const res = expectOk(await call(app, admin, 'POST', '/apimt/split_filename/', {
      ...select('Old CDs'), rule_list: ['^(?<tracknumber>\\d+) (?<artist>.+?) - (?<title>.+)$', '^(?<tracknumber>\\d+) (?<title>.+)$'], extract_field: 'filename',
    }));
    expect(await finished(res.data.task_id)).toMatchObject({ kind: 'action:split-filename', action: '拆分文本', counts: { success: 3, fail: 0 } });
    expect(await probeTags(path.join(folder, 'Disc 2', '03 Björk - Jóga.flac'))).toMatchObject({ track: '3', artist: 'Björk', title: 'Jóga' });
    expect(await probeTags(path.join(folder, '01 Qing Tian.mp3'))).toMatchObject({ track: '1', title: 'Qing Tian' });
    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: res.data.task_id }));

    const none = expectOk(await call(app, admin, 'POST', '/apimt/split_filename/', { ...select('Old CDs'), rule_list: ['^(?<title>\\d+)$'] }));
    const detail = (await finished(none.data.task_id), expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${none.data.task_id}`)).data);
    expect(detail.skip_count).toBe(3);
    expect(detail.skip[0].reason).toMatch(/^no rule matches the filename "/);
  }, 60_000);

  it('simplified_fields trad2sim and replace_text in regex mode', async () => {
    const sim = expectOk(await call(app, admin, 'POST', '/apimt/simplified_fields/', { ...select('Old CDs'), mode: 'trad2sim', modify_list: ['title', 'artist'] }));
    expect(await finished(sim.data.task_id)).toMatchObject({ kind: 'action:simplified-fields', counts: { fail: 0 } });
    // 02 holds Big5 mojibake after the undo above: Latin letters, nothing to convert. Repair it first, then convert.
    const fix = expectOk(await call(app, admin, 'POST', '/apimt/fix_encoding/', { ...select('Old CDs') }));
    await finished(fix.data.task_id);
    const sim2 = expectOk(await call(app, admin, 'POST', '/apimt/simplified_fields/', { ...select('Old CDs'), mode: 'trad2sim', modify_list: ['title', 'artist'] }));
    expect(await finished(sim2.data.task_id)).toMatchObject({ counts: { success: 1, skip: 2 } });
    expect(await tagsOf('02 吻別.flac')).toEqual({ title: '吻别', artist: '张学友' });

    const rx = expectOk(await call(app, admin, 'POST', '/apimt/replace_text/', {
      ...select('Old CDs'), replace_text_list: [{ before: '^(\\p{Han})(\\p{Han})$', after: '$2$1' }], modify_list: ['title'], replace_mode: 'regex',
    }));
    expect(await finished(rx.data.task_id)).toMatchObject({ counts: { success: 2, skip: 1, fail: 0 } });
    expect((await tagsOf('01 Qing Tian.mp3')).title).toBe('天晴');
    expect((await tagsOf('02 吻別.flac')).title).toBe('别吻');
  }, 60_000);
});
