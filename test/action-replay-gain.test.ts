/**
 * plugins/replay-gain (回放增益) through loadPlugin on real files: one item per folder, tracks grouped into albums
 * by their album tag, ReplayGain 2.0 track gain/true peak and album gain/peak written through the journal.
 * The values are compared with `loudgain` (libebur128, the reference tool) run on the same files, read back with
 * ffprobe (an independent reader): gains within 0.1 dB. The album case mixes a loud, a very quiet and a noisy
 * track — the quiet one is gated out of the album, which a power mean of track loudness gets 0.3 dB wrong.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeTags } from './support/audio.ts';
import { openFileActionHost, type FileActionHost } from './support/file-actions.ts';
import { gatedLoudness } from '../workers/src/plugin-runtime/capabilities/loudness.ts';

const run = promisify(execFile);
let host: FileActionHost;
const at = (...parts: string[]) => path.join(host.media, ...parts);

/** A generated track: `source` is a lavfi source, `gainDb` its level, tags as given. */
async function track(file: string, source: string, gainDb: number, tags: Record<string, string>, extra: string[] = []) {
  const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-af', `volume=${gainDb}dB`, ...extra];
  for (const [k, v] of Object.entries(tags)) args.push('-metadata', `${k}=${v}`);
  if (file.endsWith('.mp3')) args.push('-id3v2_version', '3');
  await run('ffmpeg', [...args, file]);
}

/** loudgain's values (album mode, nothing written): file → { gain, peak }, plus 'Album'. */
async function loudgain(files: string[]): Promise<Record<string, { gain: number; peak: number }>> {
  const { stdout } = await run('loudgain', ['-s', 's', '-a', '-O', ...files]);
  const out: Record<string, { gain: number; peak: number }> = {};
  for (const line of stdout.trim().split('\n').slice(1)) {
    const cols = line.split('\t');
    out[cols[0] === 'Album' ? 'Album' : path.basename(cols[0]!)] = { gain: Number.parseFloat(cols[8]!), peak: Number(cols[3]) };
  }
  return out;
}

const db = (text: string | undefined) => Number.parseFloat(String(text));
const dbOf = (linear: number) => 20 * Math.log10(linear);

beforeAll(async () => {
  host = await openFileActionHost();
  await mkdir(at('Album'), { recursive: true });
  await mkdir(at('Singles'), { recursive: true });
  await track(at('Album', '01 Loud.flac'), 'sine=frequency=440:duration=6', -6, { album: 'Gate', title: 'Loud' }, ['-ac', '2']);
  await track(at('Album', '02 Quiet.flac'), 'sine=frequency=1000:duration=4', -20, { album: 'Gate', title: 'Quiet' }, ['-ac', '2']);
  await track(at('Album', '03 Noise.flac'), 'anoisesrc=d=5:c=pink:a=0.3:seed=7', 0, { album: 'Gate', title: 'Noise' }, ['-ac', '2']);
  // A folder of singles: two albums and a mono MP3 at 44.1 kHz.
  await track(at('Singles', 'a.mp3'), 'sine=frequency=300:duration=5', -3, { album: 'One' }, ['-ac', '1', '-ar', '44100']);
  await track(at('Singles', 'b.flac'), 'anoisesrc=d=4:c=white:a=0.1:seed=3', 0, { album: 'Two' }, ['-ac', '2', '-ar', '96000']);
  await track(at('Singles', 'silence.flac'), 'anullsrc=r=44100:cl=stereo', 0, { album: 'Two' }, ['-t', '2']);
}, 60_000);

afterAll(async () => host?.close());

describe('replay gain', () => {
  it('gating: absolute −70 LUFS and relative −10 LU, as BS.1770-4', () => {
    const e = (lufs: number) => 10 ** ((lufs + 0.691) / 10);
    expect(gatedLoudness([])).toBeNull();
    expect(gatedLoudness([e(-20), e(-20)])).toBeCloseTo(-20, 6);
    // A block 20 LU below the rest is gated out.
    expect(gatedLoudness([e(-20), e(-20), e(-20), e(-40)])).toBeCloseTo(-20, 6);
  });

  it('plans one item per folder, hidden folders left out', async () => {
    const action = await host.action('replay-gain');
    const { items } = await action.plan([host.media], {});
    expect(items.map((i) => [i.key, i.paths.map((p) => path.basename(p))])).toEqual([
      [at('Album'), ['01 Loud.flac', '02 Quiet.flac', '03 Noise.flac']],
      [at('Singles'), ['a.mp3', 'b.flac', 'silence.flac']],
    ]);
  });

  it('writes track and album gain within 0.1 dB of loudgain; a dry run writes nothing', async () => {
    const action = await host.action('replay-gain');
    const files = ['01 Loud.flac', '02 Quiet.flac', '03 Noise.flac'].map((n) => at('Album', n));
    const item = { key: at('Album'), paths: files };

    const dry = await action.runItem(item, {}, true);
    expect(dry.status).toBe('success');
    expect(dry.changes).toHaveLength(12);
    expect((await probeTags(files[0]!)).replaygain_track_gain).toBeUndefined();

    const done = await action.runItem(item, {}, false);
    expect(done.status).toBe('success');
    expect(done.changes).toEqual(dry.changes);

    const reference = await loudgain(files);
    for (const file of files) {
      const tags = await probeTags(file);
      const ref = reference[path.basename(file)]!;
      expect(tags.replaygain_track_gain).toMatch(/^[+-]\d+\.\d\d dB$/);
      expect(tags.replaygain_track_peak).toMatch(/^\d\.\d{6}$/);
      expect(Math.abs(db(tags.replaygain_track_gain) - ref.gain)).toBeLessThanOrEqual(0.1);
      expect(Math.abs(db(tags.replaygain_album_gain) - reference.Album!.gain)).toBeLessThanOrEqual(0.1);
      // Peaks within 0.1 dB too (ffmpeg's true peak has three decimals, or one of dBFS below 0.1).
      expect(Math.abs(dbOf(Number(tags.replaygain_track_peak)) - dbOf(ref.peak))).toBeLessThanOrEqual(0.1);
      expect(Math.abs(dbOf(Number(tags.replaygain_album_peak)) - dbOf(reference.Album!.peak))).toBeLessThanOrEqual(0.1);
    }
    // The quiet track is gated out of the album: its album gain is the loud tracks' (loudgain: +8.34 dB).
    expect(db((await probeTags(files[1]!)).replaygain_album_gain)).toBeLessThan(9);

    // Measured again: nothing to change.
    const again = await action.runItem(item, {}, false);
    expect(again).toMatchObject({ status: 'skip', reason: expect.stringContaining('already up to date') });
    // Written through the journal (the engine binds it to the task: undo_task, test/action-manual-routes.test.ts).
    expect((await host.journal.listByPath(files[0]!)).length).toBeGreaterThan(0);
  }, 60_000);

  it('groups a folder of singles by album tag; a mono MP3 matches loudgain; a silent track is named, not written', async () => {
    const action = await host.action('replay-gain');
    const [a, b, silence] = ['a.mp3', 'b.flac', 'silence.flac'].map((n) => at('Singles', n));
    const result = await action.runItem({ key: at('Singles'), paths: [a!, b!, silence!] }, {}, false);
    expect(result).toMatchObject({ status: 'fail', reason: expect.stringContaining('silence.flac: silent') });
    const refA = (await loudgain([a!]))['a.mp3']!;
    const refB = (await loudgain([b!]))['b.flac']!;
    const tagsA = await probeTags(a!);
    const tagsB = await probeTags(b!);
    expect(Math.abs(db(tagsA.replaygain_track_gain) - refA.gain)).toBeLessThanOrEqual(0.1);
    // Album 'One' is a.mp3 alone: its album gain is its track gain.
    expect(tagsA.replaygain_album_gain).toBe(tagsA.replaygain_track_gain);
    expect(Math.abs(db(tagsB.replaygain_track_gain) - refB.gain)).toBeLessThanOrEqual(0.1);
    expect((await probeTags(silence!)).replaygain_track_gain).toBeUndefined();
  }, 60_000);
});

describe('replay gain album grouping', () => {
  it('a track without an album tag in a folder of one album is part of that album', async () => {
    await mkdir(at('OneAlbum'), { recursive: true });
    await track(at('OneAlbum', '01.flac'), 'sine=frequency=440:duration=4', -6, { album: 'Solo' }, ['-ac', '2']);
    await track(at('OneAlbum', '02.flac'), 'anoisesrc=d=4:c=pink:a=0.3:seed=5', 0, {}, ['-ac', '2']);
    const action = await host.action('replay-gain');
    const files = [at('OneAlbum', '01.flac'), at('OneAlbum', '02.flac')];
    expect(await action.runItem({ key: at('OneAlbum'), paths: files }, {}, false)).toMatchObject({ status: 'success', report: { albums: 1 } });
    const reference = await loudgain(files);
    for (const file of files) expect(Math.abs(db((await probeTags(file)).replaygain_album_gain) - reference.Album!.gain)).toBeLessThanOrEqual(0.1);
  }, 60_000);
});
