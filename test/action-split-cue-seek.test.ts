/**
 * plugins/split-cue's tracks cut from a seek (extract-seek.ts): from WAV, FLAC, WavPack, TTA and AIFF images every
 * track decodes to the very samples a full decode of the image cut with the same `atrim` gives (ffmpeg's md5 of the
 * decoded audio), with the sheet's sample counts and the image's cover kept; and the last track of a 40 min image
 * costs its own length of decoding, not the whole image's (ffmpeg's CPU time, read from this process's reaped
 * children, so the machine's load does not move it): it was ~1.2 s of CPU, the whole image decoded to keep 2 s.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileActionHost, type FileActionHost } from './support/file-actions.ts';
import { samplesOf } from '../plugins/split-cue/src/cue.ts';

const run = promisify(execFile);
let host: FileActionHost;
const at = (...parts: string[]) => path.join(host.media, ...parts);
const RATE = 44_100;
const CODECS = { wav: 'pcm_s16le', flac: 'flac', wv: 'wavpack', tta: 'tta', aiff: 'pcm_s16be' } as const;
/** INDEX 01 points (CD frames) of the 100 s images: frame offsets, cuts 5–72 s in, the last track to the end. */
const POINTS = [0, 5 * 75 + 37, 47 * 75 + 74, 72 * 75 + 1];

const cueTime = (frames: number) => `${String(Math.floor(frames / 4500)).padStart(2, '0')}:${String(Math.floor(frames / 75) % 60).padStart(2, '0')}:${String(frames % 75).padStart(2, '0')}`;
const sheet = (file: string, points: number[]) => [`FILE "${file}" WAVE`, ...points.flatMap((p, i) => [
  `  TRACK ${String(i + 1).padStart(2, '0')} AUDIO`, `    TITLE "T${i + 1}"`, ...(i > 0 ? [`    INDEX 00 ${cueTime(p - 40)}`] : []), `    INDEX 01 ${cueTime(p)}`,
])].join('\n');

/** ffmpeg's md5 of the decoded audio of `file`, after `filter` when given. */
async function audioMd5(file: string, filter?: string): Promise<string> {
  const { stdout } = await run('ffmpeg', ['-nostdin', '-v', 'error', '-i', file, '-map', '0:a:0', ...(filter ? ['-af', filter] : []), '-f', 'md5', '-']);
  return stdout.trim();
}

async function streams(file: string): Promise<Array<{ codec_type: string; duration_ts?: number }>> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,duration_ts', '-of', 'json', file]);
  return (JSON.parse(stdout) as { streams: Array<{ codec_type: string; duration_ts?: number }> }).streams;
}

/** CPU seconds of this process's reaped children (ffmpeg, ffprobe): /proc/self/stat cutime + cstime. */
function childCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

beforeAll(async () => {
  host = await openFileActionHost();
  await mkdir(at('cover'), { recursive: true });
  const cover = at('cover', 'cover.png');
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=red:s=64x64:d=1', '-frames:v', '1', cover]);
  for (const [ext, codec] of Object.entries(CODECS)) {
    await mkdir(at(ext), { recursive: true });
    const image = at(ext, `image.${ext}`);
    // Pink noise on one channel, a tone on the other; the FLAC image with an embedded cover.
    const picture = ext === 'flac' ? { input: ['-i', cover], map: ['-map', '2:v', '-c:v', 'png', '-disposition:v', 'attached_pic'] } : { input: [], map: [] };
    await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `anoisesrc=c=pink:a=0.2:r=${RATE}:d=100:s=5`, '-f', 'lavfi', '-i', `sine=f=310:r=${RATE}:d=100`,
      ...picture.input, '-filter_complex', '[0][1]amerge=inputs=2,aformat=sample_fmts=s16|s16p[a]', '-map', '[a]', ...picture.map, '-c:a', codec, image]);
    await writeFile(at(ext, 'image.cue'), sheet(`image.${ext}`, POINTS));
  }
  // 40 min of a tone as FLAC (small), its last track the final 2 s.
  await mkdir(at('long'), { recursive: true });
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `sine=f=300:r=${RATE}:d=2400`, '-ac', '2', '-c:a', 'flac', at('long', 'image.flac')]);
  await writeFile(at('long', 'image.cue'), sheet('image.flac', [0, 2 * 75, (2400 - 2) * 75]));
}, 180_000);

afterAll(async () => host?.close());

describe('split-cue cuts from a seek', () => {
  it.each(Object.keys(CODECS))('a %s image: each track is the samples a full decode gives', async (ext) => {
    const action = await host.action('split-cue');
    const results = await action.runAll([at(ext)], { target_format: 'flac', is_delete_source: false });
    expect(results.map((r) => r.result.status)).toEqual(['success', 'success', 'success', 'success']);
    const total = 100 * RATE;
    for (const [i, point] of POINTS.entries()) {
      const start = samplesOf(point, RATE);
      const end = i + 1 < POINTS.length ? samplesOf(POINTS[i + 1]!, RATE) : total;
      const track = at(ext, `0${i + 1} - T${i + 1}.flac`);
      const reference = await audioMd5(at(ext, `image.${ext}`), `atrim=start_sample=${start}${i + 1 < POINTS.length ? `:end_sample=${end}` : ''},asetpts=PTS-STARTPTS`);
      expect(await audioMd5(track), `${ext} track ${i + 1}`).toBe(reference);
      const info = await streams(track);
      expect(info.find((s) => s.codec_type === 'audio')?.duration_ts).toBe(end - start);
      // The FLAC image's cover is carried over as before.
      if (ext === 'flac') expect(info.some((s) => s.codec_type === 'video')).toBe(true);
    }
  }, 120_000);

  it('the last 2 s of a 40 min image decode about 2 s, not 40 min', async () => {
    const action = await host.action('split-cue');
    const { items } = await action.plan([at('long')], { target_format: 'wav' });
    expect(items).toHaveLength(3);
    const cpu = childCpuSeconds();
    const result = await action.runItem(items[2]!, { target_format: 'wav' });
    const used = childCpuSeconds() - cpu;
    expect(result.status).toBe('success');
    expect((await streams(at('long', '03 - T3.wav')))[0]?.duration_ts).toBe(2 * RATE);
    // A full decode of the image is ~1.2 s of CPU here; the seek, two ffprobes and 2 s of audio stay far under it.
    expect(used).toBeLessThan(0.4);
  }, 120_000);
});
