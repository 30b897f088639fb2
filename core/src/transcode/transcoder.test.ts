/** The transcoder with real ffmpeg: output followed while it grows, cache hits, sharing, failures, the cap. */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILES } from './profiles.ts';
import { Transcoder, type TranscodeSource } from './transcoder.ts';

const run = promisify(execFile);

describe('transcoder', () => {
  let dir: string;
  let short: TranscodeSource;
  let long: TranscodeSource;

  const source = async (name: string, seconds: number): Promise<TranscodeSource> => {
    const file = path.join(dir, name);
    await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-f', 'lavfi', '-i', `anoisesrc=d=${seconds}:a=0.1`, '-filter_complex', 'amix=inputs=2', '-ac', '2', '-c:a', 'flac', file]);
    const st = await stat(file);
    return { id: name, path: file, mtimeMs: st.mtimeMs, size: st.size, duration: seconds, bitRate: Math.round((st.size * 8) / seconds / 1000) };
  };
  const seconds = async (data: Buffer, suffix: string) => {
    const file = path.join(dir, `out-${Math.random().toString(36).slice(2)}.${suffix}`);
    await writeFile(file, data);
    const pcm = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', '8000', '-'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
    await rm(file);
    return pcm.stdout.length / 16000;
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-transcoder-'));
    short = await source('short.flac', 3);
    long = await source('long.flac', 240);
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('streams while encoding, then serves the finished file from the cache with ranges', async () => {
    const t = new Transcoder({ dir: path.join(dir, 'cache-a'), maxConcurrent: 2 });
    const first = await t.transcode(short, { kind: 'profile', profile: PROFILES.mp3, maxBitRate: 128 });
    expect(first).toMatchObject({ cached: false, contentType: 'audio/mpeg', bitRate: 128, estimatedSize: 3 * 128 * 125 });
    const bytes = await buffer(first.open());
    expect(await seconds(bytes, 'mp3')).toBeCloseTo(3, 0);
    await t.settle();
    const second = await t.transcode(short, { kind: 'profile', profile: PROFILES.mp3, maxBitRate: 128 });
    expect(second).toMatchObject({ cached: true, size: bytes.length });
    expect(t.started).toBe(1);
    expect((await buffer(second.open({ start: 10, end: 19 }))).equals(bytes.subarray(10, 20))).toBe(true);
    // An offset is another rendition, shorter.
    const later = await t.transcode(short, { kind: 'profile', profile: PROFILES.mp3, maxBitRate: 128 }, { offset: 2 });
    expect(await seconds(await buffer(later.open()), 'mp3')).toBeLessThan(1.3);
    expect(t.started).toBe(2);
  });

  it('shares one ffmpeg between identical requests; followers read the same bytes', async () => {
    const t = new Transcoder({ dir: path.join(dir, 'cache-b'), maxConcurrent: 1, queueTimeoutMs: 0 });
    const [a, b] = await Promise.all([
      t.transcode(long, { kind: 'profile', profile: PROFILES.opus, maxBitRate: 64 }),
      t.transcode(long, { kind: 'profile', profile: PROFILES.opus, maxBitRate: 64 }),
    ]);
    expect(t.started).toBe(1);
    // While it runs, a different rendition finds no free transcoder.
    await expect(t.transcode(short, { kind: 'profile', profile: PROFILES.ogg })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_TRANSCODE_BUSY' });
    const [x, y] = await Promise.all([buffer(a.open()), buffer(b.open())]);
    expect(x.equals(y)).toBe(true);
    expect(await seconds(x, 'opus')).toBeGreaterThan(239);
    expect(t.active).toBe(0);
  }, 60_000);

  it('fails before the first byte for an unreadable file, frees the slot and caches nothing', async () => {
    const bad = path.join(dir, 'bad.flac');
    await writeFile(bad, Buffer.alloc(4096, 7));
    const t = new Transcoder({ dir: path.join(dir, 'cache-c'), maxConcurrent: 1, queueTimeoutMs: 0 });
    await expect(t.transcode({ ...short, id: 'bad', path: bad, size: 4096 }, { kind: 'profile', profile: PROFILES.mp3 })).rejects.toMatchObject({
      code: 'TAGSONIC_ERR_TRANSCODE_FAILED',
    });
    expect(t.active).toBe(0);
    expect(await readdir(path.join(dir, 'cache-c'))).toEqual([]);
    const ok = await t.transcode(short, { kind: 'profile', profile: PROFILES.aac });
    expect((await buffer(ok.open())).length).toBeGreaterThan(1000);
  });

  it('keeps at most cacheEntries finished files, least recently used first out', async () => {
    const t = new Transcoder({ dir: path.join(dir, 'cache-d'), cacheEntries: () => 2 });
    for (const kbps of [64, 96, 128]) {
      await buffer((await t.transcode(short, { kind: 'profile', profile: PROFILES.mp3, maxBitRate: kbps })).open());
      await t.settle();
    }
    expect((await readdir(path.join(dir, 'cache-d'))).length).toBe(2);
    // The oldest (64 kbps) went: asking for it runs ffmpeg again.
    const before = t.started;
    await buffer((await t.transcode(short, { kind: 'profile', profile: PROFILES.mp3, maxBitRate: 64 })).open());
    expect(t.started).toBe(before + 1);
  });

  it('runs decode_command templates', async () => {
    const t = new Transcoder({ dir: path.join(dir, 'cache-e') });
    const out = await t.transcode(short, { kind: 'template', template: 'ffmpeg -i %s -ss %t -map 0:a:0 -c:a libvorbis -b:a %bk -f ogg -', maxBitRate: 96 });
    expect(out.contentType).toBe('audio/ogg');
    expect(await seconds(await buffer(out.open()), 'ogg')).toBeCloseTo(3, 0);
  });
});
