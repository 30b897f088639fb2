/**
 * CUE split of a WAV image to WAV tracks as a byte copy (workers/src/plugin-runtime/capabilities/wav-cut.ts), through
 * the task engine as the batch side bar drives it (POST /apimt/split_cue/, workers, sandbox, journal; no mocks):
 * each track's decoded audio (ffmpeg's md5), sample count and tags equal what the ffmpeg cut wrote for the same
 * sheet (its very command run here), pregaps with the track before, a GBK sheet; a 24 bit 6 channel
 * WAVE_FORMAT_EXTENSIBLE image keeps its format (the ffmpeg cut wrote 16 bit); is_delete_source trashes the image
 * and sheet and undo_task brings them back and takes the tracks away; the sample rate is probed once per image,
 * in plan. Images a byte cut cannot take exactly (4 GiB and more, compressed WAV) are left to ffmpeg.
 */
import { execFile } from 'node:child_process';
import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '@tagsonic/cli';
import { call, expectOk, type Session, startActionHarness, type ActionHarness } from './api-harness.ts';
import { probeTags } from './support/audio.ts';
import { listFiles, openFileActionHost } from './support/file-actions.ts';
import { encodeLegacy } from './support/mojibake.ts';
import { taskFinished } from './support/task-wait.ts';
import { samplesOf } from '../plugins/split-cue/src/cue.ts';
import { wavLayout } from '../workers/src/plugin-runtime/capabilities/wav-cut.ts';

const run = promisify(execFile);
let harness: ActionHarness;
let home: string;
let rt: Runtime;
let app: FastifyInstance;
let admin: Session;
let media: string;
const RATE = 44_100;
/** INDEX 01 points (CD frames) of the 60 s images, odd frames, and the INDEX 00 of tracks 2 and 3. */
const POINTS = [0, 5 * 75 + 37, 31 * 75 + 74, 52 * 75 + 1];
const PREGAPS = [null, 3 * 75 + 10, 29 * 75, null];
const TITLES = ['晴天', '七里香', 'Blue Line', '夜曲'];

const cueTime = (frames: number) => `${String(Math.floor(frames / 4500)).padStart(2, '0')}:${String(Math.floor(frames / 75) % 60).padStart(2, '0')}:${String(frames % 75).padStart(2, '0')}`;
const sheet = (file: string) => ['REM DATE 2004', 'REM GENRE Pop', 'PERFORMER "周杰伦"', 'TITLE "叶惠美"', `FILE "${file}" WAVE`, ...POINTS.flatMap((p, i) => [
  `  TRACK ${String(i + 1).padStart(2, '0')} AUDIO`, `    TITLE "${TITLES[i]}"`, '    SONGWRITER "方文山"',
  ...(PREGAPS[i] ? [`    INDEX 00 ${cueTime(PREGAPS[i]!)}`] : []), `    INDEX 01 ${cueTime(p)}`,
]), ''].join('\r\n');

async function audioMd5(file: string, filter?: string): Promise<string> {
  const { stdout } = await run('ffmpeg', ['-nostdin', '-v', 'error', '-i', file, '-map', '0:a:0', ...(filter ? ['-af', filter] : []), '-f', 'md5', '-']);
  return stdout.trim();
}

async function stream(file: string): Promise<{ duration_ts: number; codec_name: string; channels: number; sample_rate: string }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=duration_ts,codec_name,channels,sample_rate', '-of', 'json', file]);
  return (JSON.parse(stdout) as { streams: Array<{ duration_ts: number; codec_name: string; channels: number; sample_rate: string }> }).streams[0]!;
}

const trim = (i: number, total: number) => {
  const start = samplesOf(POINTS[i]!, RATE);
  const end = i + 1 < POINTS.length ? samplesOf(POINTS[i + 1]!, RATE) : total;
  return { start, end, filter: `atrim=start_sample=${start}${i + 1 < POINTS.length ? `:end_sample=${end}` : ''},asetpts=PTS-STARTPTS` };
};

beforeAll(async () => {
  harness = await startActionHarness({ name: 'cue-wav', plugins: ['split-cue'] });
  ({ home, rt, app, admin, media } = harness);
  // Pink noise on one channel, a tone on the other (ffmpeg's WAV has a LIST chunk before its data); the sheet in GBK.
  await mkdir(path.join(media, 'CD'), { recursive: true });
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `anoisesrc=c=pink:a=0.2:r=${RATE}:d=60:s=5`, '-f', 'lavfi', '-i', `sine=f=310:r=${RATE}:d=60`,
    '-filter_complex', '[0][1]amerge=inputs=2[a]', '-map', '[a]', '-c:a', 'pcm_s16le', path.join(media, 'CD', 'image.wav')]);
  await writeFile(path.join(media, 'CD', 'image.cue'), encodeLegacy(sheet('image.wav'), 'gbk'));
  await mkdir(path.join(media, 'Hi'), { recursive: true });
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `anoisesrc=c=white:a=0.3:r=${RATE}:d=60:s=9`, '-ac', '6', '-c:a', 'pcm_s24le', path.join(media, 'Hi', 'image.wav')]);
  await writeFile(path.join(media, 'Hi', 'image.cue'), sheet('image.wav'));
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

describe('split_cue to wav from a WAV image', () => {
  it('each track is the ffmpeg cut\'s audio and tags; the sources are trashed, and undo_task brings them back', async () => {
    const res = expectOk(await call(app, admin, 'POST', '/apimt/split_cue/', { file_full_path: media, select_data: ['CD'], target_format: 'wav', is_delete_source: true }));
    const task = await taskFinished(rt.tasks, res.data.task_id, 60_000);
    expect(task).toMatchObject({ status: 'success', counts: { success: 4, fail: 0 } });
    const trash = `.tagsonic-trash/${res.data.task_id}`;
    expect((await listFiles(media)).filter((f) => f.includes('CD/'))).toEqual([`${trash}/CD/image.cue`, `${trash}/CD/image.wav`, ...TITLES.map((t, i) => `CD/0${i + 1} - ${t}.wav`)]);

    const source = path.join(media, trash, 'CD', 'image.wav');
    const total = 60 * RATE;
    const reference = path.join(home, 'ref');
    await mkdir(reference, { recursive: true });
    for (const [i, title] of TITLES.entries()) {
      const track = path.join(media, 'CD', `0${i + 1} - ${title}.wav`);
      const { start, end, filter } = trim(i, total);
      // The ffmpeg cut's command (ffmpeg-convert.ts extract, as before the byte cut) on the same image and sheet.
      const tags = { title, artist: '周杰伦', album: '叶惠美', album_artist: '周杰伦', composer: '方文山', date: '2004', genre: 'Pop', track: String(i + 1) };
      const ffmpegCut = path.join(reference, `${i + 1}.wav`);
      await run('ffmpeg', ['-nostdin', '-v', 'error', '-i', source, '-map', '0:a:0', '-af', filter, '-map_metadata', '-1', ...Object.entries(tags).flatMap(([k, v]) => ['-metadata', `${k}=${v}`]), '-c:a', 'pcm_s16le', '-f', 'wav', ffmpegCut]);
      expect((await stream(track)).duration_ts, `track ${i + 1} samples`).toBe(end - start);
      expect((await stream(track)).duration_ts).toBe((await stream(ffmpegCut)).duration_ts);
      expect(await audioMd5(track), `track ${i + 1} audio`).toBe(await audioMd5(ffmpegCut));
      const { encoder: _encoder, ...theirs } = await probeTags(ffmpegCut);
      expect(await probeTags(track)).toEqual(theirs);
      // The same bytes, header aside: the data chunk is the image's range.
      const ours = await readFile(track);
      expect(ours.subarray(ours.indexOf('data') + 8).equals((await readFile(ffmpegCut)).subarray((await readFile(ffmpegCut)).indexOf('data') + 8))).toBe(true);
    }

    const undo = expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: res.data.task_id }));
    expect(undo.data).toMatchObject({ undone: 6, failed: [] });
    expect(await listFiles(path.join(media, 'CD'))).toEqual(['image.cue', 'image.wav']);
  }, 120_000);

  it('a 24 bit 6 channel WAVE_FORMAT_EXTENSIBLE image keeps its format, sample-exact', async () => {
    const image = path.join(media, 'Hi', 'image.wav');
    const res = expectOk(await call(app, admin, 'POST', '/apimt/split_cue/', { file_full_path: media, select_data: ['Hi'], target_format: 'wav', is_delete_source: false }));
    expect(await taskFinished(rt.tasks, res.data.task_id, 60_000)).toMatchObject({ status: 'success', counts: { success: 4 } });
    const head = await readFile(image);
    const fmt = head.subarray(head.indexOf('fmt '), head.indexOf('fmt ') + 8 + 40);
    expect(fmt.readUInt16LE(8)).toBe(0xfffe);
    for (const [i, title] of TITLES.entries()) {
      const track = path.join(media, 'Hi', `0${i + 1} - ${title}.wav`);
      const { start, end, filter } = trim(i, 60 * RATE);
      expect(await stream(track)).toMatchObject({ duration_ts: end - start, codec_name: 'pcm_s24le', channels: 6 });
      expect(await audioMd5(track), `track ${i + 1}`).toBe(await audioMd5(image, filter));
      const bytes = await readFile(track);
      expect(bytes.subarray(12, 12 + 48).equals(fmt)).toBe(true);
      expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    }
  }, 120_000);

  it('plan probes each image once and hands its rate to the items', async () => {
    const host = await openFileActionHost();
    try {
      await mkdir(path.join(host.media, 'CD'), { recursive: true });
      await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=f=300:r=48000:d=60', '-ac', '2', '-c:a', 'pcm_s16le', path.join(host.media, 'CD', 'image.wav')]);
      await writeFile(path.join(host.media, 'CD', 'image.cue'), sheet('image.wav'));
      const action = await host.action('split-cue');
      const { items } = await action.plan([path.join(host.media, 'CD')], { target_format: 'wav' });
      expect(items.map((item) => (item.data as { rate: number }).rate)).toEqual([48_000, 48_000, 48_000, 48_000]);
      // An item planned without it (before this change) still probes for itself.
      const { rate: _rate, ...older } = items[1]!.data as Record<string, unknown>;
      const result = await action.runItem({ ...items[1]!, data: older as never }, { target_format: 'wav' });
      expect(result).toMatchObject({ status: 'success', report: { sample_rate: 48_000, start_sample: samplesOf(POINTS[1]!, 48_000) } });
      expect((await stream(path.join(host.media, 'CD', `02 - ${TITLES[1]}.wav`))).duration_ts).toBe(samplesOf(POINTS[2]!, 48_000) - samplesOf(POINTS[1]!, 48_000));
    } finally {
      await host.close();
    }
  }, 60_000);

  it('images a byte cut cannot take exactly are left to ffmpeg', async () => {
    const dir = path.join(home, 'layouts');
    await mkdir(dir, { recursive: true });
    const adpcm = path.join(dir, 'adpcm.wav');
    await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=f=300:r=44100:d=2', '-c:a', 'adpcm_ms', adpcm]);
    expect(await wavLayout(adpcm)).toBeNull();
    const plain = path.join(dir, 'plain.wav');
    await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=f=300:r=44100:d=2', '-ac', '2', '-c:a', 'pcm_s16le', plain]);
    expect(await wavLayout(plain)).toMatchObject({ frames: 2 * 44_100, blockAlign: 4 });
    // 4 GiB and more (a sparse file: the header of the plain one, then a hole): RIFF's sizes cannot say it.
    const huge = path.join(dir, 'huge.wav');
    const handle = await open(huge, 'w');
    await handle.write(await readFile(plain), 0, 4096, 0);
    await handle.truncate(2 ** 32 + 4096);
    await handle.close();
    expect(await wavLayout(huge)).toBeNull();
    // A data size past the file's end (a cut-short or streamed WAV).
    const short = path.join(dir, 'short.wav');
    await writeFile(short, (await readFile(plain)).subarray(0, 20_000));
    expect(await wavLayout(short)).toBeNull();
  }, 60_000);
});
