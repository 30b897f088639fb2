/**
 * plugins/check-duplicate (重复检查) through loadPlugin on real files: plan lists and groups (size groups, song
 * names, one voiceprint item), runItem hashes with the host's streamed SHA-256 and fingerprints with fpcalc. The
 * hash section finds byte-identical copies only (equal size, other bytes: no); the name section ignores copy
 * markers, track numbers and "Artist - " prefixes; the voiceprint section finds one recording in FLAC, MP3 and
 * Ogg at another sample rate and volume, and not a different melody of the same length. Nothing is touched.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles, openFileActionHost, type FileActionHost } from './support/file-actions.ts';
import { decodeFingerprint, similarity } from '../plugins/check-duplicate/src/fingerprint.ts';
import { songKey } from '../plugins/check-duplicate/src/groups.ts';

const run = promisify(execFile);
let host: FileActionHost;
const at = (...parts: string[]) => path.join(host.media, ...parts);

/** A 12 s melody whose notes depend on `seed` (chromaprint needs changing pitches to tell recordings apart). */
async function melody(file: string, seed: number, extra: string[] = []): Promise<void> {
  const expr = `0.3*sin(2*PI*t*(220+110*mod(floor(t*4)*${seed}*7,9)))+0.2*sin(2*PI*t*(330+55*mod(floor(t*2)*${seed}*5,7)))`;
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `aevalsrc='${expr}':s=44100:d=12`, ...extra, file]);
}

beforeAll(async () => {
  host = await openFileActionHost();
  await mkdir(at('A'), { recursive: true });
  await mkdir(at('B', 'Sub'), { recursive: true });
  await melody(at('A', '01. 周杰伦 - 晴天.flac'), 1);
  await copyFile(at('A', '01. 周杰伦 - 晴天.flac'), at('B', 'Sub', '晴天 (1).flac')); // byte-identical copy
  await melody(at('B', 'sunny.mp3'), 1, ['-b:a', '128k']); // same melody, another format
  await melody(at('B', 'sunny-quiet.ogg'), 1, ['-af', 'volume=0.7', '-ar', '22050']);
  await melody(at('B', 'other.flac'), 2); // another melody, same length
  // Same size as each other, different bytes: not a hash duplicate.
  await writeFile(at('A', 'x.wav'), Buffer.alloc(5000, 1));
  await writeFile(at('B', 'y.wav'), Buffer.alloc(5000, 2));
  await writeFile(at('B', 'cover.jpg'), 'not audio');
  // Deleted copies wait in the hidden trash: not part of the library, never reported.
  await mkdir(at('B', '.tagsonic-trash', 't1'), { recursive: true });
  await copyFile(at('A', '01. 周杰伦 - 晴天.flac'), at('B', '.tagsonic-trash', 't1', '晴天.flac'));
  // C: 300 KiB files of one size. Equal at both 64 KiB edges but one byte apart in the middle is NOT a duplicate;
  // the byte-identical copy is. Two small equal files (hashed whole in the edge pass) are.
  await mkdir(at('C'), { recursive: true });
  const big = Buffer.alloc(300 * 1024);
  for (let i = 0; i < big.length; i++) big[i] = (i * 2654435761) >>> 24;
  await writeFile(at('C', 'c1.wav'), big);
  await writeFile(at('C', 'c1 (1).wav'), big);
  const middle = Buffer.from(big);
  middle[150 * 1024] ^= 0xff;
  await writeFile(at('C', 'c2.wav'), middle);
  const tail = Buffer.from(big);
  tail[tail.length - 1] ^= 0xff;
  await writeFile(at('C', 'c3.wav'), tail);
  await writeFile(at('C', 's1.wav'), big.subarray(0, 1000));
  await writeFile(at('C', 's2.wav'), big.subarray(0, 1000));
}, 60_000);

afterAll(async () => host?.close());

describe('check-duplicate pure parts', () => {
  it('decodes fpcalc compressed fingerprints exactly as fpcalc -raw prints them', async () => {
    const fp = (raw: boolean) => JSON.parse(spawnSync('fpcalc', raw ? ['-json', '-raw', at('B', 'other.flac')] : ['-json', at('B', 'other.flac')], { encoding: 'utf8' }).stdout);
    const decoded = decodeFingerprint(fp(false).fingerprint as string)!;
    expect([...decoded]).toEqual((fp(true).fingerprint as number[]).map((v) => v >>> 0));
    expect(similarity(decoded, decoded)).toBe(1);
    expect(decodeFingerprint('not base64!')).toBeNull();
    expect(decodeFingerprint('AQAA')).toBeNull();
  });

  it('song names ignore copy markers, track numbers, artist prefixes, case and width', () => {
    expect(songKey('/m/01. 周杰伦 - 晴天.flac')).toBe('晴天');
    expect(songKey('/m/晴天 (1).mp3')).toBe('晴天');
    expect(songKey('/m/晴天（2）.mp3')).toBe('晴天');
    expect(songKey('/m/晴天 - 副本.mp3')).toBe('晴天');
    expect(songKey('/m/Yesterday - Copy (2).mp3')).toBe('yesterday');
    expect(songKey('/m/ＹＥＳＴＥＲＤＡＹ copy.mp3')).toBe('yesterday');
    expect(songKey('/m/Track 2.mp3')).toBe('track 2');
  });
});

describe('check-duplicate', () => {
  it('plans size groups, name groups and one voiceprint item from a listing', async () => {
    const action = await host.action('check-duplicate');
    const { items } = await action.plan([at('A'), at('B')], { is_acoustid: true });
    expect(items.map((i) => i.key)).toEqual(expect.arrayContaining(['name:晴天', 'acoustid']));
    // Both size groups (the FLAC copy's, x/y's 5000 bytes) packed in one item.
    const hashItems = items.filter((i) => i.key.startsWith('hash:'));
    expect(hashItems).toHaveLength(1);
    expect(hashItems[0]!.key).toMatch(/^hash:5000…\d+ \(2\)$/);
    expect(hashItems[0]!.paths).toEqual(expect.arrayContaining([at('A', 'x.wav'), at('B', 'y.wav'), at('B', 'Sub', '晴天 (1).flac')]));
    expect(items.find((i) => i.key === 'name:晴天')!.paths).toEqual([at('A', '01. 周杰伦 - 晴天.flac'), at('B', 'Sub', '晴天 (1).flac')]);
    expect(items.find((i) => i.key === 'acoustid')!.paths).toHaveLength(7);
    expect(items.some((i) => i.paths.includes(at('B', 'cover.jpg')))).toBe(false);
    const without = await action.plan([at('A'), at('B')], {});
    expect(without.items.some((i) => i.key === 'acoustid')).toBe(false);
  });

  it('reports the three sections with name, file 1, file 2 rows, and touches nothing', async () => {
    const action = await host.action('check-duplicate');
    const before = await listFiles(host.media);
    const results = await action.runAll([at('A'), at('B')], { is_acoustid: true });
    expect(await listFiles(host.media)).toEqual(before);
    const bySection = (section: string) => results.filter((r) => (r.result.report as { section?: string } | undefined)?.section === section).map((r) => r.result);

    const hash = bySection('hash');
    expect(hash).toHaveLength(1);
    expect(hash[0]).toMatchObject({
      status: 'success',
      report: { rows: [{ name: '01. 周杰伦 - 晴天', file_1: at('A', '01. 周杰伦 - 晴天.flac'), file_2: at('B', 'Sub', '晴天 (1).flac') }] },
    });
    expect(await action.runItem({ key: 'hash:5000', paths: [at('A', 'x.wav'), at('B', 'y.wav')], data: { section: 'hash' } }, {}))
      .toEqual({ status: 'skip', reason: 'same size, different contents' });

    expect(bySection('name')).toEqual([{
      status: 'success',
      report: { section: 'name', rows: [{ name: '01. 周杰伦 - 晴天', file_1: at('A', '01. 周杰伦 - 晴天.flac'), file_2: at('B', 'Sub', '晴天 (1).flac') }],
        groups: [{ key: '晴天', files: [at('A', '01. 周杰伦 - 晴天.flac'), at('B', 'Sub', '晴天 (1).flac')] }] },
    }]);

    const voice = bySection('acoustid');
    expect(voice).toHaveLength(1);
    const report = voice[0]!.report as { groups: Array<{ files: string[] }>; rows: Array<{ similarity: number }>; unreadable?: string[] };
    expect(report.groups.map((g) => g.files)).toEqual([[
      at('A', '01. 周杰伦 - 晴天.flac'), at('B', 'Sub', '晴天 (1).flac'), at('B', 'sunny-quiet.ogg'), at('B', 'sunny.mp3'),
    ].sort()]);
    expect(report.rows).toHaveLength(3);
    for (const row of report.rows) expect(row.similarity).toBeGreaterThanOrEqual(0.85);
    // x.wav / y.wav are not decodable audio: reported as such, not as duplicates.
    expect(report.unreadable).toEqual([at('A', 'x.wav'), at('B', 'y.wav')]);
  }, 60_000);

  it('byte-identical sets only: files equal at the edges but not in the middle are not duplicates', async () => {
    const action = await host.action('check-duplicate');
    const results = await action.runAll([at('C')], {});
    const hash = results.filter((r) => r.item.key.startsWith('hash:'));
    expect(hash.map((r) => r.item.key)).toEqual([`hash:1000…${300 * 1024} (2)`]);
    // The reported digests are the full SHA-256 of the files, not their edge digests.
    const full = async (name: string) => createHash('sha256').update(await readFile(at('C', name))).digest('hex');
    expect((hash[0]!.result.report as { groups: unknown }).groups).toEqual([
      { key: await full('c1.wav'), files: [at('C', 'c1 (1).wav'), at('C', 'c1.wav')] },
      { key: await full('s1.wav'), files: [at('C', 's1.wav'), at('C', 's2.wav')] },
    ].sort((a, b) => (a.key < b.key ? -1 : 1)));
  });

  it('packs size and name groups into items of up to 64 files, never splitting a group, and reports every group', async () => {
    await mkdir(at('D'), { recursive: true });
    // 40 pairs of equal files, each pair its own size and song: 80 files → groups of 2 packed 32 + 8.
    for (let i = 0; i < 40; i++) {
      await writeFile(at('D', `song${i}.mp3`), Buffer.alloc(100 + i, i));
      await writeFile(at('D', `song${i} (1).mp3`), Buffer.alloc(100 + i, i));
    }
    const action = await host.action('check-duplicate');
    const { items } = await action.plan([at('D')], {});
    for (const section of ['hash', 'name']) {
      expect(items.filter((i) => i.key.startsWith(`${section}:`)).map((i) => i.paths.length)).toEqual([64, 16]);
    }
    const results = await action.runAll([at('D')], {});
    for (const section of ['hash', 'name']) {
      const groups = results.filter((r) => r.item.key.startsWith(`${section}:`))
        .flatMap((r) => (r.result.report as { groups: Array<{ files: string[] }> }).groups.map((g) => g.files));
      expect(groups).toHaveLength(40);
      for (const files of groups) expect(files).toEqual([at('D', `${files[0]!.slice(files[0]!.lastIndexOf('/') + 1, -' (1).mp3'.length)} (1).mp3`), at('D', `${files[0]!.slice(files[0]!.lastIndexOf('/') + 1, -' (1).mp3'.length)}.mp3`)]);
    }
  });

  it('a file gone since planning drops out of its group', async () => {
    const action = await host.action('check-duplicate');
    const result = await action.runItem({ key: 'hash:1', paths: [at('A', '01. 周杰伦 - 晴天.flac'), at('A', 'gone.flac')], data: { section: 'hash' } }, {});
    expect(result).toEqual({ status: 'skip', reason: 'same size, different contents' });
    await expect(action.runItem({ key: 'x', paths: [] }, {})).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
  });
});
