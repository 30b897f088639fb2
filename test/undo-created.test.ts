/**
 * undo_task of the files a task CREATES, through the routes as the batch side bar drives them: format conversion
 * (source kept, and source trashed with the cover put into the new Ogg by a tag write), CUE split with the image
 * and sheet trashed, .strm files (one replacing an older .strm), and the batch edit's saved .lrc and cover.jpg
 * (replacing the user's own). After undo_task each folder holds exactly what it held before — names, sizes and
 * SHA-256 of every file outside the trash — and a created file changed since the task is left alone (skipped).
 * Real store, bus, workers, sandbox, ffmpeg and files; no mocks.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '@tagsonic/cli';
import { call, expectOk, type Session, startActionHarness, type ActionHarness } from './api-harness.ts';
import { makeAudio } from './support/audio.ts';
import { taskFinished } from './support/task-wait.ts';

const run = promisify(execFile);
let harness: ActionHarness;
let home: string;
let rt: Runtime;
let app: FastifyInstance;
let admin: Session;
let media: string;
const at = (...parts: string[]) => path.join(media, ...parts);

beforeAll(async () => {
  harness = await startActionHarness({ name: 'undo-created', plugins: ['format-music', 'split-cue', 'generate-strm', 'batch-update-id3', 'remove-null-folder'], setup: async (r) => {
    await r.users.setRole('admin', 'V2'); // generate strm is V2
  } });
  ({ home, rt, app, admin, media } = harness);
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=red:s=16x16', '-frames:v', '1', path.join(home, 'red.jpg')]);
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

const finished = (taskId: string) => taskFinished(rt.tasks, taskId, 60_000);

/** Every file under `dir` outside the trash: relative name → size and SHA-256. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(e.parentPath, e.name);
    const rel = path.relative(dir, full);
    if (!e.isFile() || rel.split(path.sep).includes('.tagsonic-trash')) continue;
    const data = await readFile(full);
    out[rel] = `${data.byteLength} ${createHash('sha256').update(data).digest('hex')}`;
  }
  return out;
}

/** An audio file with an embedded cover picture (and lyrics, for FLAC), made by ffmpeg. */
async function withCover(file: string, tags: Record<string, string>): Promise<void> {
  const args = ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=440:d=2:sample_rate=44100', '-i', path.join(home, 'red.jpg'),
    '-map', '0:a', '-map', '1:v', '-c:v', 'copy', '-disposition:v', 'attached_pic'];
  for (const [k, v] of Object.entries(tags)) args.push('-metadata', `${k}=${v}`);
  if (file.endsWith('.mp3')) args.push('-id3v2_version', '3');
  await run('ffmpeg', [...args, file]);
}

async function undo(taskId: string) {
  return expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: taskId })).data as { undone: number; skipped: number; failed: unknown[]; kept: unknown[] };
}

describe('undo_task takes back the files a task created', () => {
  it('format conversion keeping the source: the new files go, the folder is as it was', async () => {
    await mkdir(at('Keep'), { recursive: true });
    await makeAudio(at('Keep', '01.mp3'), { tags: { title: 'One' } });
    await makeAudio(at('Keep', '02.mp3'), { freq: 660, tags: { title: 'Two' } });
    const before = await tree(at('Keep'));
    const res = expectOk(await call(app, admin, 'POST', '/apimt/format_music_type/', {
      file_full_path: media, select_data: ['Keep'], music_type: 'flac', bit_rate: -1, bit_rate_custom: null, sample_rate: -1, sample_rate_custom: null, is_keep_source: true,
    }));
    expect(await finished(res.data.task_id)).toMatchObject({ status: 'success', counts: { success: 2 } });
    expect(Object.keys(await tree(at('Keep')))).toEqual(['01.flac', '01.mp3', '02.flac', '02.mp3']);
    // The editor's undo of the new file's last write is not its creation (that is undone with the task).
    expect(expectOk(await call(app, admin, 'POST', '/apimt/music_id3/', { file_path: at('Keep', '01.flac') })).data.last_write_id).toBeNull();

    expect(await undo(res.data.task_id)).toMatchObject({ undone: 2, skipped: 0, failed: [] });
    expect(await tree(at('Keep'))).toEqual(before);
    // Moved into the task's trash, not unlinked.
    expect((await readdir(at('.tagsonic-trash', res.data.task_id), { recursive: true })).filter((f) => f.endsWith('.flac'))).toHaveLength(2);
  }, 120_000);

  it('format conversion to Ogg trashing the source: the cover the task wrote into the new file is undone, the file goes, the source is back', async () => {
    await mkdir(at('Ogg'), { recursive: true });
    await withCover(at('Ogg', 'a.mp3'), { title: 'A', artist: 'X' });
    const before = await tree(at('Ogg'));
    const res = expectOk(await call(app, admin, 'POST', '/apimt/format_music_type/', {
      file_full_path: media, select_data: ['Ogg'], music_type: 'ogg', bit_rate: -1, bit_rate_custom: null, sample_rate: -1, sample_rate_custom: null, is_keep_source: false,
    }));
    expect(await finished(res.data.task_id)).toMatchObject({ status: 'success', counts: { success: 1 } });
    expect(Object.keys(await tree(at('Ogg')))).toEqual(['a.ogg']);
    const writes = await rt.journal.listByTask(res.data.task_id);
    expect(writes.map((w) => w.kind ?? 'tags')).toEqual(['create', 'tags', 'move']);

    // create + cover write + the source's trip to the trash
    expect(await undo(res.data.task_id)).toMatchObject({ undone: 3, skipped: 0, failed: [] });
    expect(await tree(at('Ogg'))).toEqual(before);
  }, 120_000);

  it('re-encoding in place (same format, source not kept): the source is back under its name, the new file in the trash', async () => {
    await mkdir(at('Same'), { recursive: true });
    await makeAudio(at('Same', 'a.mp3'), { seconds: 2, tags: { title: 'A' } });
    const before = await tree(at('Same'));
    const res = expectOk(await call(app, admin, 'POST', '/apimt/format_music_type/', {
      file_full_path: media, select_data: ['Same'], music_type: 'mp3', bit_rate: 64, bit_rate_custom: null, sample_rate: -1, sample_rate_custom: null, is_keep_source: false,
    }));
    expect(await finished(res.data.task_id)).toMatchObject({ status: 'success', counts: { success: 1 } });
    expect(Object.keys(await tree(at('Same')))).toEqual(['a.mp3']);
    expect((await tree(at('Same')))['a.mp3']).not.toBe(before['a.mp3']);

    // created as "a (2).mp3", the source trashed, the new file renamed to a.mp3
    expect(await undo(res.data.task_id)).toMatchObject({ undone: 3, skipped: 0, failed: [] });
    expect(await tree(at('Same'))).toEqual(before);
  }, 120_000);

  it('CUE split deleting its sources: the cut tracks go, the image and the sheet are back', async () => {
    await mkdir(at('Image'), { recursive: true });
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=330:d=4:sample_rate=44100', '-ac', '2', '-c:a', 'flac', at('Image', 'CD.flac')]);
    await writeFile(at('Image', 'CD.cue'), ['TITLE "Alpha"', 'FILE "CD.flac" WAVE', '  TRACK 01 AUDIO', '    TITLE "One"', '    INDEX 01 00:00:00',
      '  TRACK 02 AUDIO', '    TITLE "Two"', '    INDEX 01 00:02:00', ''].join('\n'));
    const before = await tree(at('Image'));
    const res = expectOk(await call(app, admin, 'POST', '/apimt/split_cue/', { file_full_path: media, select_data: ['Image'], target_format: 'flac', is_delete_source: true }));
    expect(await finished(res.data.task_id)).toMatchObject({ status: 'success', counts: { success: 2 } });
    expect(Object.keys(await tree(at('Image')))).toEqual(['01 - One.flac', '02 - Two.flac']);
    const report = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data;
    expect(report.delete_count).toBe(1);

    // two tracks cut, the image and the sheet trashed
    expect(await undo(res.data.task_id)).toMatchObject({ undone: 4, skipped: 0, failed: [] });
    expect(await tree(at('Image'))).toEqual(before);
  }, 120_000);

  it('.strm files: the new ones go, one that replaced an older .strm gives it back; one edited since the task stays (skipped)', async () => {
    await mkdir(at('Strm', 'Album'), { recursive: true });
    await makeAudio(at('Strm', 'Album', '01.flac'));
    await makeAudio(at('Strm', 'Album', '02.mp3'));
    await makeAudio(at('Strm', 'Album', '03.mp3'));
    await mkdir(at('strm-out', 'Strm', 'Album'), { recursive: true });
    await writeFile(at('strm-out', 'Strm', 'Album', '02.strm'), '/an/old/place/02.mp3');
    const before = await tree(media);
    const res = expectOk(await call(app, admin, 'POST', '/apimt/generate_strm/', { file_full_path: media, select_data: ['Strm'], is_sign: false, save_dir: at('strm-out') }));
    expect(await finished(res.data.task_id)).toMatchObject({ status: 'success', counts: { success: 3 } });
    expect(await readFile(at('strm-out', 'Strm', 'Album', '02.strm'), 'utf8')).toBe(at('Strm', 'Album', '02.mp3'));
    await writeFile(at('strm-out', 'Strm', 'Album', '03.strm'), 'edited by hand since');

    const answer = await undo(res.data.task_id);
    expect(answer).toMatchObject({ undone: 2, skipped: 1, failed: [], kept: [{ path: at('strm-out', 'Strm', 'Album', '03.strm'), reason: expect.stringMatching(/changed/i) }] });
    const after = await tree(media);
    expect(after[path.join('strm-out', 'Strm', 'Album', '03.strm')]).toBeDefined();
    delete after[path.join('strm-out', 'Strm', 'Album', '03.strm')];
    expect(after).toEqual(before);
    expect(await readFile(at('strm-out', 'Strm', 'Album', '02.strm'), 'utf8')).toBe('/an/old/place/02.mp3');
  }, 120_000);

  it('batch edit saving .lrc and cover.jpg: the new .lrc goes, the replaced .lrc and the user\'s cover.jpg come back', async () => {
    await mkdir(at('Side'), { recursive: true });
    await withCover(at('Side', '01.flac'), { title: 'One', LYRICS: '[00:01.00]one' });
    await withCover(at('Side', '02.flac'), { title: 'Two', LYRICS: '[00:01.00]two' });
    await writeFile(at('Side', '02.lrc'), '[00:00.00]the user\'s own lyrics');
    await writeFile(at('Side', 'cover.jpg'), 'the user\'s own cover bytes');
    const before = await tree(at('Side'));
    const music_info = { is_save_lyrics_file: true, is_import_lyrics_file: false, is_translate_lyrics: false, is_save_album_cover: true, is_import_album_cover: false };
    const res = expectOk(await call(app, admin, 'POST', '/apimt/batch_update_id3/', { file_full_path: media, select_data: ['Side'], music_info, is_regainer: false }));
    expect(await finished(res.data.task_id)).toMatchObject({ status: 'success', counts: { success: 2 } });
    expect(await readFile(at('Side', '01.lrc'), 'utf8')).toBe('[00:01.00]one');
    expect(await readFile(at('Side', '02.lrc'), 'utf8')).toBe('[00:01.00]two');
    expect((await readFile(at('Side', 'cover.jpg'))).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // No tag changed: the task's journal holds the three files it wrote, nothing else.
    expect((await rt.journal.listByTask(res.data.task_id)).map((w) => w.kind)).toEqual(['create', 'create', 'create']);

    expect(await undo(res.data.task_id)).toMatchObject({ undone: 3, skipped: 0, failed: [] });
    expect(await tree(at('Side'))).toEqual(before);
  }, 120_000);

  it('remove_null_folder: the leftovers it trashed come back into the folders it removed', async () => {
    await mkdir(at('Leftovers', 'Sub'), { recursive: true });
    await writeFile(at('Leftovers', 'Sub', 'info.nfo'), 'nfo');
    await writeFile(at('Leftovers', 'folder.jpg'), 'jpg');
    const before = await tree(at('Leftovers'));
    const res = expectOk(await call(app, admin, 'POST', '/apimt/remove_null_folder/', { file_full_path: media, select_data: ['Leftovers'], delete_mode: 'all' }));
    expect(await finished(res.data.task_id)).toMatchObject({ status: 'success' });
    expect(await readdir(media)).not.toContain('Leftovers');

    expect(await undo(res.data.task_id)).toMatchObject({ undone: 2, skipped: 0, failed: [] });
    expect(await tree(at('Leftovers'))).toEqual(before);
  }, 60_000);
});
