/**
 * plugins/split-cue (切割音轨) through loadPlugin on real files: a generated CD-quality image with a sheet that has
 * INDEX 00 pregaps and frame (1/75 s) offsets is cut into tracks whose sample counts equal shntool's `shnsplit`
 * output for the same sheet (counted by ffprobe), from a WAV and from a FLAC image; sheets in UTF-8 with BOM, GBK,
 * Big5 and Shift-JIS give the same per-track tags (ffprobe); free names beside a taken one; a dry run writes
 * nothing; a broken sheet is one failing item saying why.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeTags } from './support/audio.ts';
import { listFiles, openFileActionHost, type FileActionHost } from './support/file-actions.ts';
import { encodeLegacy } from './support/mojibake.ts';
import { framesOf, parseCue, samplesOf } from '../plugins/split-cue/src/cue.ts';

const run = promisify(execFile);
let host: FileActionHost;
const at = (...parts: string[]) => path.join(host.media, ...parts);

const sheet = (file: string, album: string, artist: string, titles: string[]) => [
  'REM GENRE Pop', 'REM DATE 2003', `PERFORMER "${artist}"`, `TITLE "${album}"`, `FILE "${file}" WAVE`,
  '  TRACK 01 AUDIO', `    TITLE "${titles[0]}"`, '    INDEX 01 00:00:00',
  '  TRACK 02 AUDIO', `    TITLE "${titles[1]}"`, `    PERFORMER "${artist}"`, '    INDEX 00 00:01:20', '    INDEX 01 00:02:05',
  '  TRACK 03 AUDIO', `    TITLE "${titles[2]}"`, '    SONGWRITER "Writer"', '    INDEX 00 00:03:50', '    INDEX 01 00:04:10', '',
].join('\r\n');

/** Samples of the first audio stream as ffprobe counts them (decoded, so any container). */
async function samples(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-count_packets', '-show_entries', 'stream=duration_ts,sample_rate', '-of', 'json', file]);
  const s = (JSON.parse(stdout) as { streams: Array<{ duration_ts?: number }> }).streams[0]!;
  return Number(s.duration_ts);
}

async function makeImage(file: string): Promise<void> {
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=330:d=6.5:sample_rate=44100', '-ac', '2', '-c:a', file.endsWith('.flac') ? 'flac' : 'pcm_s16le', file]);
}

beforeAll(async () => {
  host = await openFileActionHost();
  await mkdir(at('wav'), { recursive: true });
  await mkdir(at('flac'), { recursive: true });
  await mkdir(at('enc'), { recursive: true });
  await mkdir(at('bad'), { recursive: true });
  await makeImage(at('wav', 'image.wav'));
  await writeFile(at('wav', 'image.cue'), sheet('image.wav', 'Alpha', 'Tester', ['One', 'Two', 'Three']));
  await makeImage(at('flac', 'CDImage.flac'));
  // The sheet names the WAV the image was ripped to; the FLAC beside it is the image now.
  await writeFile(at('flac', 'CDImage.cue'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(sheet('CDImage.wav', '叶惠美', '周杰伦', ['以父之名', '懦夫', '晴天']))]));
  await writeFile(at('flac', '01 - 以父之名.flac'), 'taken');
  for (const [name, encoding, album, artist, titles] of [
    ['gbk', 'gbk', '叶惠美', '周杰伦', ['以父之名', '懦夫', '晴天']],
    ['big5', 'big5', '葉惠美', '周杰倫', ['以父之名', '懦夫', '晴天']],
    ['sjis', 'shift_jis', '初恋', '宇多田ヒカル', ['あなた', '初恋', '誓い']],
  ] as const) {
    await mkdir(at('enc', name), { recursive: true });
    await makeImage(at('enc', name, 'image.wav'));
    await writeFile(at('enc', name, 'image.cue'), encodeLegacy(sheet('image.wav', album, artist, [...titles]), encoding));
  }
  await makeImage(at('bad', 'image.wav'));
  await writeFile(at('bad', 'image.cue'), 'FILE "image.wav" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:99:00\n');
}, 60_000);

afterAll(async () => host?.close());

describe('cue sheets', () => {
  it('frames, samples and the shnsplit split points (a pregap stays with the track before)', () => {
    expect(framesOf('00:02:05')).toBe(155);
    expect(framesOf('01:00:74')).toBe(4574);
    expect(framesOf('00:60:00')).toBeNull();
    expect(samplesOf(155, 44100)).toBe(155 * 588);
    expect(samplesOf(155, 48000)).toBe(155 * 640);
    const parsed = parseCue(sheet('a.wav', 'A', 'B', ['1', '2', '3']));
    expect(parsed.tracks.map((t) => [t.number, t.start, t.end, t.pregap])).toEqual([[1, 0, 155, null], [2, 155, 310, 95], [3, 310, null, 275]]);
    expect(parsed).toMatchObject({ title: 'A', performer: 'B', date: '2003', genre: 'Pop' });
    expect(() => parseCue('TRACK 01 AUDIO\n')).toThrow(/TRACK before any FILE/);
  });
});

describe('split-cue', () => {
  it('cuts a WAV image into the sample counts shnsplit gives, tagged from the sheet', async () => {
    const action = await host.action('split-cue');
    const out = path.join(host.dir, 'shn');
    await mkdir(out, { recursive: true });
    await run('shnsplit', ['-q', '-f', at('wav', 'image.cue'), '-o', 'wav', '-d', out, at('wav', 'image.wav')]);
    const reference = await Promise.all(['split-track01.wav', 'split-track02.wav', 'split-track03.wav'].map((f) => samples(path.join(out, f))));
    expect(reference.reduce((a, b) => a + b, 0)).toBe(6.5 * 44100);

    const results = await action.runAll([at('wav')], { target_format: 'wav', is_delete_source: false });
    expect(results.map((r) => r.result.status)).toEqual(['success', 'success', 'success']);
    const ours = await Promise.all(['01 - One.wav', '02 - Two.wav', '03 - Three.wav'].map((f) => samples(at('wav', f))));
    expect(ours).toEqual(reference);
    const flacs = await action.runAll([at('wav', 'image.cue')], { target_format: 'flac' });
    expect(flacs.every((r) => r.result.status === 'success')).toBe(true);
    expect(await Promise.all(['01 - One.flac', '02 - Two.flac', '03 - Three.flac'].map((f) => samples(at('wav', f))))).toEqual(reference);
    expect(await probeTags(at('wav', '03 - Three.flac'))).toMatchObject({ title: 'Three', artist: 'Tester', album: 'Alpha', album_artist: 'Tester', composer: 'Writer', date: '2003', genre: 'Pop', track: '3' });
  }, 120_000);

  it('a FLAC image whose sheet names its WAV, a UTF-8 BOM sheet, a taken name; dry run first', async () => {
    const action = await host.action('split-cue');
    const before = await listFiles(host.media);
    const dry = await action.runAll([at('flac', 'CDImage.flac')], { target_format: 'flac', is_delete_source: true }, true);
    expect(await listFiles(host.media)).toEqual(before);
    expect(dry.map((r) => r.result.changes?.[0]?.after)).toEqual([at('flac', '01 - 以父之名 (2).flac'), at('flac', '02 - 懦夫.flac'), at('flac', '03 - 晴天.flac')]);
    expect(dry[2]!.result.changes?.slice(1).map((c) => [c.kind, c.path])).toEqual([['delete', at('flac', 'CDImage.flac')], ['delete', at('flac', 'CDImage.cue')]]);

    const results = await action.runAll([at('flac', 'CDImage.flac')], { target_format: 'flac', is_delete_source: false });
    expect(results.map((r) => r.result.status)).toEqual(['success', 'success', 'success']);
    expect(await readFile(at('flac', '01 - 以父之名.flac'), 'utf8')).toBe('taken');
    expect(await probeTags(at('flac', '01 - 以父之名 (2).flac'))).toMatchObject({ title: '以父之名', artist: '周杰伦', album: '叶惠美', track: '1' });
    expect(await samples(at('flac', '03 - 晴天.flac'))).toBe(6.5 * 44100 - samplesOf(310, 44100));
  }, 120_000);

  it('reads GBK, Big5 and Shift-JIS sheets', async () => {
    const action = await host.action('split-cue');
    const results = await action.runAll([at('enc')], { target_format: 'mp3' });
    expect(results.map((r) => r.result.status)).toEqual(Array(9).fill('success'));
    expect(results.map((r) => (r.result.report as { cue_encoding: string }).cue_encoding)).toEqual([...Array(3).fill('big5'), ...Array(3).fill('gbk'), ...Array(3).fill('shift_jis')]);
    expect(await probeTags(at('enc', 'gbk', '03 - 晴天.mp3'))).toMatchObject({ title: '晴天', artist: '周杰伦', album: '叶惠美' });
    expect(await probeTags(at('enc', 'big5', '03 - 晴天.mp3'))).toMatchObject({ title: '晴天', artist: '周杰倫', album: '葉惠美' });
    expect(await probeTags(at('enc', 'sjis', '01 - あなた.mp3'))).toMatchObject({ title: 'あなた', artist: '宇多田ヒカル', album: '初恋' });
  }, 120_000);

  it('a broken sheet is one failing item saying which line', async () => {
    const action = await host.action('split-cue');
    const results = await action.runAll([at('bad')], { target_format: 'flac' });
    expect(results).toHaveLength(1);
    expect(results[0]!.result).toMatchObject({ status: 'fail', reason: expect.stringContaining('line 3: bad INDEX time 00:99:00') });
    await expect(action.plan([at('bad', 'image.wav')], { target_format: 'flac' })).resolves.toMatchObject({ items: [{ key: at('bad', 'image.cue') }] });
    await mkdir(at('nocue'), { recursive: true });
    await expect(action.plan([at('nocue')], { target_format: 'flac' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('no .cue sheet in the selection') });
    await expect(action.plan([at('bad')], { target_format: 'aiff' })).rejects.toMatchObject({ message: expect.stringContaining('target_format must be one of') });
  });
});
