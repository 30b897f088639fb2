/**
 * batch_update_id3 through the task engine as the batch side bar drives it (spec doc 1 §7 batchUpdateId3): with
 * `is_regainer: true` it is 回放增益 (plugin replay-gain), otherwise 手动修改 (plugin batch-update-id3). POST →
 * plan on a worker → items run by the workers' plugin pool → tags read back with ffprobe → the report
 * (audit_log_detail) → undo_task puts every tag back. Real store, bus, workers, sandbox and files; no mocks.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '@tagsonic/cli';
import { call, expectOk, type Session, startActionHarness, type ActionHarness } from './api-harness.ts';
import { makeAudio, probeTags } from './support/audio.ts';
import { taskFinished } from './support/task-wait.ts';

const run = promisify(execFile);
let harness: ActionHarness;
let rt: Runtime;
let app: FastifyInstance;
let admin: Session;
let media: string;
const at = (...parts: string[]) => path.join(media, ...parts);

beforeAll(async () => {
  harness = await startActionHarness({ name: 'manual-actions', plugins: ['replay-gain', 'batch-update-id3'] });
  ({ rt, app, admin, media } = harness);
  await mkdir(at('Gain', 'A'), { recursive: true });
  await mkdir(at('Gain', 'B'), { recursive: true });
  await makeAudio(at('Gain', 'A', '01.flac'), { seconds: 3, tags: { title: 'One', album: 'A' } });
  await makeAudio(at('Gain', 'A', '02.mp3'), { seconds: 3, freq: 880, tags: { title: 'Two', album: 'A' } });
  await makeAudio(at('Gain', 'B', '01.flac'), { seconds: 3, freq: 220, tags: { title: 'Three', album: 'B' } });
  await mkdir(at('Edit', '叶惠美'), { recursive: true });
  await makeAudio(at('Edit', '叶惠美', '01 周杰伦 - 以父之名.flac'), { tags: { title: 'a', artist: '周杰伦' } });
  await makeAudio(at('Edit', '叶惠美', '02. 晴天.mp3'), { tags: { title: 'b', artist: '周杰伦' } });
  await writeFile(at('Edit', '叶惠美', 'cover.jpg'), 'the user\'s own cover bytes');
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=blue:s=16x16', '-frames:v', '1', at('blue.jpg')]);
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

const finished = (taskId: string, timeoutMs = 30_000) => taskFinished(rt.tasks, taskId, timeoutMs);

/** loudgain's album-mode values for these files (nothing written). */
async function loudgain(files: string[]): Promise<Map<string, number>> {
  const { stdout } = await run('loudgain', ['-s', 's', '-a', '-O', ...files]);
  const out = new Map<string, number>();
  for (const line of stdout.trim().split('\n').slice(1)) {
    const cols = line.split('\t');
    out.set(cols[0] === 'Album' ? 'Album' : cols[0]!, Number.parseFloat(cols[8]!));
  }
  return out;
}

describe('batch_update_id3', () => {
  it('is_regainer: replay gain per folder album, as the side bar sends it; undo_task removes the tags again', async () => {
    const payload = { file_full_path: media, select_data: [{ icon: 'icon-folder', name: 'Gain', title: 'Gain' }], music_info: {}, is_regainer: true };
    const res = expectOk(await call(app, admin, 'POST', '/apimt/batch_update_id3/', payload));
    expect(res.message).toBe('创建成功！ 任务在后台努力运行中');
    expect(res.data.total).toBe(2); // one item per folder
    const task = await finished(res.data.task_id);
    expect(task).toMatchObject({ kind: 'action:replay-gain', action: '回放增益', status: 'success', counts: { success: 2 } });

    const albumA = [at('Gain', 'A', '01.flac'), at('Gain', 'A', '02.mp3')];
    const ref = await loudgain(albumA);
    for (const file of albumA) {
      const tags = await probeTags(file);
      expect(Math.abs(Number.parseFloat(tags.replaygain_track_gain!) - ref.get(file)!)).toBeLessThanOrEqual(0.1);
      expect(Math.abs(Number.parseFloat(tags.replaygain_album_gain!) - ref.get('Album')!)).toBeLessThanOrEqual(0.1);
      expect(tags.replaygain_track_peak).toMatch(/^\d\.\d{6}$/);
    }
    const b = await probeTags(at('Gain', 'B', '01.flac'));
    expect(b.replaygain_album_gain).toBe(b.replaygain_track_gain);

    const detail = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data;
    expect(detail.success_count).toBe(2);
    expect(detail.success.flatMap((row: { changes: Array<{ field: string }> }) => row.changes.map((c) => c.field))).toContain('replaygain_album_gain');

    const undo = expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: res.data.task_id }));
    expect(undo.data.undone).toBe(3);
    for (const file of [...albumA, at('Gain', 'B', '01.flac')]) expect((await probeTags(file)).replaygain_track_gain).toBeUndefined();
  }, 60_000);

  it('manual edit: templates per track as the side bar sends them, the folder cover saved (the old one to the trash); undo_task puts the tags back', async () => {
    const jpeg = await readFile(at('blue.jpg'));
    const music_info = {
      title: '${file_song_name}', album: '${parent_path}', year: '2003', album_img: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
      is_save_lyrics_file: false, is_import_lyrics_file: false, is_translate_lyrics: false, is_save_album_cover: true, is_import_album_cover: false,
    };
    const payload = { file_full_path: at('Edit'), select_data: [{ icon: 'icon-folder', name: '叶惠美', title: '叶惠美' }], music_info, is_regainer: false };
    const res = expectOk(await call(app, admin, 'POST', '/apimt/batch_update_id3/', payload));
    expect(res.data.total).toBe(2);
    const task = await finished(res.data.task_id);
    expect(task).toMatchObject({ kind: 'action:batch-update-id3', action: '手动修改', status: 'success', counts: { success: 2 } });
    const one = await probeTags(at('Edit', '叶惠美', '01 周杰伦 - 以父之名.flac'));
    const two = await probeTags(at('Edit', '叶惠美', '02. 晴天.mp3'));
    expect([one.title, one.album, one.date]).toEqual(['以父之名', '叶惠美', '2003']);
    expect([two.title, two.album, two.date]).toEqual(['晴天', '叶惠美', '2003']);
    expect(await readFile(at('Edit', '叶惠美', 'cover.jpg'))).toEqual(jpeg);
    // The user's own cover.jpg was not lost: it is in the task's trash.
    expect(await readFile(path.join(media, '.tagsonic-trash', res.data.task_id, 'Edit', '叶惠美', 'cover.jpg'), 'utf8')).toBe("the user's own cover bytes");

    const detail = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data;
    expect(detail.success.flatMap((row: { changes: Array<{ field: string; after: string }> }) => row.changes.filter((c) => c.field === 'title').map((c) => c.after)).sort())
      .toEqual(['以父之名', '晴天']);

    // A bad dialog refuses the task; nothing is queued.
    const bad = await call(app, admin, 'POST', '/apimt/batch_update_id3/', { ...payload, music_info: { title: 'x', is_translate_lyrics: true } });
    expect(bad.statusCode).toBe(409);
    expect(bad.json()).toMatchObject({ data: { error: 'TAGSONIC_ERR_LLM_NOT_CONFIGURED' }, message: expect.stringContaining('llm_model_name') });

    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: res.data.task_id }));
    expect((await probeTags(at('Edit', '叶惠美', '01 周杰伦 - 以父之名.flac'))).title).toBe('a');
    expect((await probeTags(at('Edit', '叶惠美', '02. 晴天.mp3'))).title).toBe('b');
  }, 60_000);
});
