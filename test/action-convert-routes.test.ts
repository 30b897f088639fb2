/**
 * Format conversion and CUE split through the task engine as the batch side bar drives them: POST
 * /apimt/format_music_type/ (dry run, then apply_task) and /apimt/split_cue/ → items run by the workers' plugin
 * pool → files on disk (listing, ffprobe) and the report; a trashed source (is_keep_source off, is_delete_source)
 * lands in the media folder's trash through the journal and undo_task brings it back (and takes the written files away). Real store, bus, workers,
 * sandbox and files; no mocks.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '@tagsonic/cli';
import { call, expectOk, type Session, startActionHarness, type ActionHarness } from './api-harness.ts';
import { makeAudio, probeTags } from './support/audio.ts';
import { listFiles } from './support/file-actions.ts';
import { taskFinished } from './support/task-wait.ts';

const run = promisify(execFile);
let harness: ActionHarness;
let rt: Runtime;
let app: FastifyInstance;
let admin: Session;
let media: string;

beforeAll(async () => {
  harness = await startActionHarness({ name: 'convert-actions', plugins: ['format-music', 'split-cue'] });
  ({ rt, app, admin, media } = harness);
  await mkdir(path.join(media, 'Mp3s'), { recursive: true });
  await makeAudio(path.join(media, 'Mp3s', '01.mp3'), { seconds: 2, tags: { title: '晴天', artist: '周杰伦', album: '叶惠美', track: '1' } });
  await makeAudio(path.join(media, 'Mp3s', '02.mp3'), { seconds: 2, freq: 660, tags: { title: 'Two', artist: 'Band' } });
  await mkdir(path.join(media, 'Image'), { recursive: true });
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=330:d=5:sample_rate=44100', '-ac', '2', '-c:a', 'flac', path.join(media, 'Image', 'CD.flac')]);
  await writeFile(path.join(media, 'Image', 'CD.cue'), [
    'PERFORMER "Tester"', 'TITLE "Alpha"', 'FILE "CD.flac" WAVE',
    '  TRACK 01 AUDIO', '    TITLE "One"', '    INDEX 01 00:00:00',
    '  TRACK 02 AUDIO', '    TITLE "Two"', '    INDEX 00 00:01:00', '    INDEX 01 00:02:37', '',
  ].join('\n'));
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

const finished = (taskId: string, timeoutMs = 60_000) => taskFinished(rt.tasks, taskId, timeoutMs);

async function samples(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=duration_ts', '-of', 'csv=p=0', file]);
  return Number(stdout.trim());
}

describe('conversion actions through the routes', () => {
  it('format_music_type: dry run touches nothing; apply_task converts to flac and trashes the mp3s; undo_task brings them back', async () => {
    const before = await listFiles(media);
    const payload = { file_full_path: media, select_data: [{ icon: 'icon-folder', name: 'Mp3s', title: 'Mp3s' }], music_type: 'flac', bit_rate: -1, bit_rate_custom: null,
      sample_rate: 48000, sample_rate_custom: null, is_keep_source: false };
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/format_music_type/', { ...payload, dry_run: true }));
    expect(dry.message).toBe('创建成功！ 任务在后台努力运行中');
    expect(await finished(dry.data.task_id)).toMatchObject({ kind: 'action:format-music', status: 'success', counts: { success: 2 } });
    expect(await listFiles(media)).toEqual(before);

    const applied = expectOk(await call(app, admin, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }));
    expect(await finished(applied.data.task_id)).toMatchObject({ status: 'success', counts: { success: 2, fail: 0 } });
    const trash = `.tagsonic-trash/${applied.data.task_id}`;
    expect((await listFiles(media)).filter((f) => !f.startsWith('Image/'))).toEqual([`${trash}/Mp3s/01.mp3`, `${trash}/Mp3s/02.mp3`, 'Mp3s/01.flac', 'Mp3s/02.flac']);
    expect(await probeTags(path.join(media, 'Mp3s', '01.flac'))).toMatchObject({ title: '晴天', artist: '周杰伦', album: '叶惠美' });
    const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=codec_name,sample_rate', '-of', 'csv=p=0', path.join(media, 'Mp3s', '02.flac')]);
    expect(stdout.trim()).toBe('flac,48000');
    const detail = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${applied.data.task_id}`)).data;
    expect(detail.name).toBe('格式转换');

    // The mp3s come back from the trash and the flacs the task wrote go into it.
    const undo = expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: applied.data.task_id }));
    expect(undo.data).toMatchObject({ undone: 4, failed: [] });
    expect((await listFiles(media)).filter((f) => f.startsWith('Mp3s/'))).toEqual(['Mp3s/01.mp3', 'Mp3s/02.mp3']);
  }, 120_000);

  it('split_cue: one item per track, sample-exact, the image and sheet trashed once both tracks are cut', async () => {
    const res = expectOk(await call(app, admin, 'POST', '/apimt/split_cue/', { file_full_path: media, select_data: ['Image'], target_format: 'flac', is_delete_source: true }));
    expect(res.data.total).toBe(2);
    const task = await finished(res.data.task_id);
    const report = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data;
    expect(report.fail).toEqual([]);
    expect(task).toMatchObject({ kind: 'action:split-cue', status: 'success', counts: { success: 2, fail: 0 } });
    const trash = `.tagsonic-trash/${res.data.task_id}`;
    expect((await listFiles(media)).filter((f) => f.includes('Image'))).toEqual([`${trash}/Image/CD.cue`, `${trash}/Image/CD.flac`, 'Image/01 - One.flac', 'Image/02 - Two.flac']);
    // Track 2 starts at INDEX 01 = 00:02:37 = 187 frames = 109956 samples; its pregap stays with track 1.
    expect(await samples(path.join(media, 'Image', '01 - One.flac'))).toBe(187 * 588);
    expect(await samples(path.join(media, 'Image', '02 - Two.flac'))).toBe(5 * 44100 - 187 * 588);
    expect(await probeTags(path.join(media, 'Image', '02 - Two.flac'))).toMatchObject({ title: 'Two', artist: 'Tester', album: 'Alpha', track: '2' });
    const detail = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data;
    expect(detail.name).toBe('切割音轨');

    const undo = expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: res.data.task_id }));
    // Both sources back (the sheet too), both cut tracks into the trash.
    expect(undo.data).toMatchObject({ undone: 4, failed: [] });
    expect(await listFiles(path.join(media, 'Image'))).toEqual(['CD.cue', 'CD.flac']);
  }, 120_000);
});
