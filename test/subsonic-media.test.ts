/**
 * Media retrieval over the scanned small library: stream (original bytes, byte ranges, content types,
 * transcoding checked with ffprobe, timeOffset, estimateContentLength, the transcode cache, the
 * concurrency cap, decode_command settings), download, getCoverArt (sizes, cache, ETag, default
 * cover), lyrics from .lrc sidecars and tags, getAvatar — in JSON and XML, with auth failures and
 * unknown ids.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '@tagsonic/gateway';
import { sniffImage } from '@tagsonic/core/tags';
import type { TrackDoc } from '@tagsonic/core/library';
import { Scanner } from '@tagsonic/workers/scanner';
import { asAlice, fails, ok, rest, startSubsonic, xml, type SubsonicHarness } from './subsonic-harness.ts';
import { gatewayDeps } from '@tagsonic/cli';
import { validateResponse } from './subsonic-schemas.ts';

const run = promisify(execFile);

const strict = (props: Parameters<typeof Type.Object>[0]) => Type.Object(props, { additionalProperties: false });
const LYRICS_ELEMENTS = {
  lyrics: strict({ artist: Type.Optional(Type.String()), title: Type.Optional(Type.String()), value: Type.Optional(Type.String()) }),
  lyricsList: strict({
    structuredLyrics: Type.Optional(
      Type.Array(
        strict({
          displayArtist: Type.Optional(Type.String()),
          displayTitle: Type.Optional(Type.String()),
          lang: Type.String(),
          offset: Type.Optional(Type.Number()),
          synced: Type.Boolean(),
          line: Type.Array(strict({ start: Type.Optional(Type.Integer()), value: Type.String() })),
        }),
      ),
    ),
  }),
};

interface Probe {
  format: string;
  codec: string;
  duration: number;
  bitRate: number;
  sampleRate: number;
}

let scratch: string;

async function probe(data: Buffer, suffix: string): Promise<Probe> {
  const file = path.join(scratch, `probe-${Math.random().toString(36).slice(2)}.${suffix}`);
  await writeFile(file, data);
  try {
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=format_name,duration,bit_rate:stream=codec_name,sample_rate,bit_rate', '-of', 'json', file]);
    const j = JSON.parse(stdout) as { format: Record<string, string>; streams: Array<Record<string, string>> };
    const s = j.streams[0]!;
    // Decoded length, not the header's claim: streamed FLAC and Ogg carry no total in their headers.
    const pcm = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', '8000', '-'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
    return {
      format: j.format.format_name!,
      codec: s.codec_name!,
      duration: pcm.stdout.length / 16000,
      bitRate: Number(s.bit_rate ?? j.format.bit_rate),
      sampleRate: Number(s.sample_rate),
    };
  } finally {
    await rm(file, { force: true });
  }
}

describe('subsonic media retrieval', () => {
  let h: SubsonicHarness;
  const tracks = () => [...h.rt.library.catalog.tracks.values()];
  const byRel = (rel: string): TrackDoc => {
    const t = tracks().find((x) => x.relPath === rel);
    if (!t) throw new Error(`no track ${rel}`);
    return t;
  };
  const albumOf = (rel: string) => byRel(rel).albumId;
  const get = (app: FastifyInstance, method: string, params: Record<string, string | number | boolean>, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: `/rest/${method}?${new URLSearchParams({ u: 'admin', p: 'admin-sub-pässword', v: '1.16.1', c: 'vitest', ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) })}`, headers });
  const cacheFiles = async (sub: string) => (await readdir(path.join(h.rt.config.dataDir, 'cache', sub)).catch(() => [] as string[])).filter((n) => !n.startsWith('.'));

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'tagsonic-media-test-'));
    h = await startSubsonic();
  });
  afterAll(async () => {
    await h?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  describe('stream and download of the original file', () => {
    const CONTENT_TYPES: Record<string, string[]> = {
      mp3: ['audio/mpeg'],
      flac: ['audio/flac'],
      ogg: ['audio/ogg'],
      opus: ['audio/ogg', 'audio/opus'],
      m4a: ['audio/mp4'],
      wav: ['audio/wav', 'audio/x-wav', 'audio/wave'],
    };

    it('sends every format with its content type, length and the exact bytes', async () => {
      const seen = new Set<string>();
      for (const t of tracks()) {
        if (seen.has(t.suffix)) continue;
        seen.add(t.suffix);
        const res = await get(h.app, 'stream', { id: t._id });
        expect(res.statusCode, t.relPath).toBe(200);
        expect(CONTENT_TYPES[t.suffix], t.suffix).toContain(res.headers['content-type']);
        expect(res.headers['accept-ranges']).toBe('bytes');
        const file = await readFile(t.path);
        expect(Number(res.headers['content-length'])).toBe(file.length);
        expect(res.rawPayload.equals(file)).toBe(true);
      }
      expect([...seen].sort()).toEqual(['flac', 'm4a', 'mp3', 'ogg', 'opus', 'wav']);
    });

    it('answers byte ranges: first, middle, last, open-ended, suffix, clamped; 416 past the end', async () => {
      const t = byRel('Silver Pines/Velvet Highway/01 Broken Skyline.mp3');
      const file = await readFile(t.path);
      const size = file.length;
      const cases: Array<[string, number, number]> = [
        ['bytes=0-99', 0, 99],
        ['bytes=1000-1999', 1000, 1999],
        [`bytes=${size - 10}-${size - 1}`, size - 10, size - 1],
        ['bytes=5000-', 5000, size - 1],
        ['bytes=-50', size - 50, size - 1],
        [`bytes=${size - 5}-${size + 100}`, size - 5, size - 1],
        [`bytes=-${size + 10}`, 0, size - 1],
      ];
      for (const method of ['stream', 'download']) {
        for (const [range, start, end] of cases) {
          const res = await get(h.app, method, { id: t._id }, { range });
          expect(res.statusCode, `${method} ${range}`).toBe(206);
          expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
          expect(Number(res.headers['content-length'])).toBe(end - start + 1);
          expect(res.rawPayload.equals(file.subarray(start, end + 1)), range).toBe(true);
        }
        for (const range of [`bytes=${size}-`, `bytes=${size + 5}-${size + 9}`, 'bytes=-0']) {
          const res = await get(h.app, method, { id: t._id }, { range });
          expect(res.statusCode, range).toBe(416);
          expect(res.headers['content-range']).toBe(`bytes */${size}`);
        }
        // Several ranges, other units or a reversed range: the whole file.
        for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=9-3']) {
          const res = await get(h.app, method, { id: t._id }, { range });
          expect(res.statusCode, range).toBe(200);
          expect(res.rawPayload.length).toBe(size);
        }
      }
    });

    it('download names the file (albums come as a zip: test/subsonic-radio-download.test.ts); stream and download fail cleanly for unknown ids and without credentials', async () => {
      const t = byRel('赵长青/爱情里的青春/01 再见远方.mp3');
      const res = await get(h.app, 'download', { id: t._id });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="01 ____.mp3"; filename*=UTF-8''${encodeURIComponent('01 再见远方.mp3')}`);
      expect((await get(h.app, 'download', { id: t.albumId })).headers['content-type']).toBe('application/zip');
      for (const method of ['stream', 'download']) {
        await fails(h.app, method, { id: '0123456789abcdef01234567' }, 70);
        await fails(h.app, method, {}, 10);
        await fails(h.app, method, { id: t._id }, 40, { auth: { u: 'admin', p: 'wrong' } });
        const x = await xml(h.app, method, { id: 'nope' });
        expect(x.status).toBe('failed');
        expect(x.error[0].code).toBe('70');
      }
    });

    it('streaming does not count a play; scrobbling does', async () => {
      const t = byRel('Silver Pines/Velvet Highway/03 Silent Ocean.mp3');
      await get(h.app, 'stream', { id: t._id });
      await get(h.app, 'stream', { id: t._id, format: 'opus' });
      expect((await ok(h.app, 'getSong', { id: t._id })).song.playCount ?? 0).toBe(0);
      await ok(h.app, 'scrobble', { id: t._id, submission: true });
      expect((await ok(h.app, 'getSong', { id: t._id })).song.playCount).toBe(1);
    });
  });

  describe('transcoding', () => {
    const source = () => byRel('林语嫣/时光的晚风/Disc 1/01 再见声音.flac');

    it('transcodes to every format with the right content type, codec and bit rate', async () => {
      const expected: Record<string, { type: string; codec: string; format: RegExp; kbps?: number; suffix: string }> = {
        mp3: { type: 'audio/mpeg', codec: 'mp3', format: /^mp3$/, kbps: 96, suffix: 'mp3' },
        opus: { type: 'audio/ogg', codec: 'opus', format: /^ogg$/, suffix: 'opus' },
        ogg: { type: 'audio/ogg', codec: 'vorbis', format: /^ogg$/, suffix: 'ogg' },
        aac: { type: 'audio/aac', codec: 'aac', format: /^aac$/, suffix: 'aac' },
        m4a: { type: 'audio/mp4', codec: 'aac', format: /mp4/, suffix: 'm4a' },
        flac: { type: 'audio/flac', codec: 'flac', format: /^flac$/, suffix: 'flac' },
      };
      for (const [format, want] of Object.entries(expected)) {
        const res = await get(h.app, 'stream', { id: source()._id, format, maxBitRate: 96 });
        expect(res.statusCode, format).toBe(200);
        expect(res.headers['content-type'], format).toBe(want.type);
        const p = await probe(res.rawPayload, want.suffix);
        expect(p.codec, format).toBe(want.codec);
        expect(p.format, format).toMatch(want.format);
        expect(p.duration, format).toBeGreaterThan(4.5);
        expect(p.duration, format).toBeLessThan(5.5);
        if (want.kbps) expect(Math.round(p.bitRate / 1000)).toBe(want.kbps);
      }
    });

    it('a raw request, or the same format within the bit-rate limit, gets the original file', async () => {
      const t = byRel('Silver Pines/Velvet Highway/02 Endless Ocean.mp3');
      const file = await readFile(t.path);
      const cases: Array<Record<string, string | number>> = [{ format: 'raw' }, { format: 'mp3' }, { format: 'mp3', maxBitRate: 320 }, { maxBitRate: 320 }, {}];
      for (const params of cases) {
        const res = await get(h.app, 'stream', { id: t._id, ...params });
        expect(res.rawPayload.equals(file), JSON.stringify(params)).toBe(true);
      }
    });

    it('maxBitRate below the source transcodes to MP3 at that rate; unknown formats are refused', async () => {
      const res = await get(h.app, 'stream', { id: source()._id, maxBitRate: 64 });
      expect(res.headers['content-type']).toBe('audio/mpeg');
      const p = await probe(res.rawPayload, 'mp3');
      expect(p.codec).toBe('mp3');
      expect(Math.round(p.bitRate / 1000)).toBe(64);
      expect((await fails(h.app, 'stream', { id: source()._id, format: 'wma' }, 0)).message).toMatch(/Cannot stream as "wma"/);
      await fails(h.app, 'stream', { id: source()._id, timeOffset: 'soon' }, 0);
    });

    it('timeOffset starts later (shorter output)', async () => {
      const full = await probe((await get(h.app, 'stream', { id: source()._id, format: 'opus' })).rawPayload, 'opus');
      const res = await get(h.app, 'stream', { id: source()._id, format: 'opus', timeOffset: 2 });
      expect(res.headers['x-content-duration']).toBe('3.00');
      const cut = await probe(res.rawPayload, 'opus');
      expect(cut.duration).toBeGreaterThan(full.duration - 2.3);
      expect(cut.duration).toBeLessThan(full.duration - 1.7);
      // With no format, an offset needs a decoder: MP3.
      const mp3 = await get(h.app, 'stream', { id: source()._id, timeOffset: 3 });
      expect(mp3.headers['content-type']).toBe('audio/mpeg');
      expect((await probe(mp3.rawPayload, 'mp3')).duration).toBeLessThan(2.3);
    });

    it('keeps finished transcodes: the second request is served from the cache with ranges', async () => {
      const t = byRel('ミドリノソラ/夏の終わりに/01 ひだまり.m4a');
      const before = await cacheFiles('transcode');
      const first = await get(h.app, 'stream', { id: t._id, format: 'ogg', maxBitRate: 112 });
      expect(first.headers['accept-ranges']).toBe('none');
      expect(first.headers['content-length']).toBeUndefined();
      const after = await cacheFiles('transcode');
      expect(after.length).toBe(before.length + 1);
      const entry = after.find((n) => !before.includes(n))!;
      expect(entry).toMatch(/^[0-9a-f]{40}\.ogg$/);
      const second = await get(h.app, 'stream', { id: t._id, format: 'ogg', maxBitRate: 112 });
      expect(second.headers['accept-ranges']).toBe('bytes');
      expect(Number(second.headers['content-length'])).toBe(first.rawPayload.length);
      expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(await cacheFiles('transcode')).toEqual(after);
      const part = await get(h.app, 'stream', { id: t._id, format: 'ogg', maxBitRate: 112 }, { range: 'bytes=100-199' });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.equals(first.rawPayload.subarray(100, 200))).toBe(true);
      // Another bit rate is another entry.
      await get(h.app, 'stream', { id: t._id, format: 'ogg', maxBitRate: 128 });
      expect((await cacheFiles('transcode')).length).toBe(after.length + 1);
    });

    it('estimateContentLength announces duration × bit rate and sends exactly that many bytes', async () => {
      const t = byRel('城市漫遊者/致故事/03 致飛鳥.flac');
      const res = await get(h.app, 'stream', { id: t._id, format: 'mp3', maxBitRate: 128, estimateContentLength: true });
      const expected = Math.ceil(t.duration * 128 * 125);
      expect(Number(res.headers['content-length'])).toBe(expected);
      expect(res.rawPayload.length).toBe(expected);
      expect((await probe(res.rawPayload, 'mp3')).codec).toBe('mp3');
    });
  });

  describe('limits and settings (a second gateway on the same runtime)', () => {
    let app: FastifyInstance;
    let long: TrackDoc;

    beforeAll(async () => {
      // A 10-minute track: transcoding it takes long enough to hold the only transcoder.
      const file = path.join(h.rt.config.mediaDir, 'Unsorted', 'long tone.flac');
      await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=600', '-f', 'lavfi', '-i', 'anoisesrc=d=600:a=0.05', '-filter_complex', 'amix=inputs=2', '-ac', '2', '-c:a', 'flac', file]);
      const scanner = new Scanner({ roots: h.rt.roots, library: h.rt.library.store, catalog: h.rt.library.catalog, bus: h.rt.bus, readerThreads: 1 });
      await scanner.scan();
      await h.rt.library.catalog.sync();
      long = byRel('Unsorted/long tone.flac');
      app = await buildApp(gatewayDeps(h.rt, {
        buildId: 'test',
        dashboardDir: path.join(h.home, 'no-dashboard'),
        media: { maxConcurrent: 1, queueTimeoutMs: 0, settingsTtlMs: 0, coverCacheBytes: 12_000 },
      }));
      await app.ready();
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await h.rt.store.collection('settings').deleteOne({ _id: 'system' });
    });

    it('caps concurrent transcodes: a request beyond the cap gets error 0 "busy"; the same rendition is shared', async () => {
      const slow = app.inject({ method: 'GET', url: `/rest/stream?u=admin&p=${encodeURIComponent('admin-sub-pässword')}&v=1.16.1&c=vitest&id=${long._id}&format=opus` });
      // Wait until the slow transcode holds the transcoder (its first bytes are in the cache folder).
      for (let i = 0; i < 200 && !(await readdir(path.join(h.rt.config.dataDir, 'cache', 'transcode'))).some((n) => n.endsWith('.part')); i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      const busy = await fails(app, 'stream', { id: byRel('Unsorted/燈火裡的青春.flac')._id, format: 'aac' }, 0);
      expect(busy.message).toMatch(/busy: all 1 transcoders are in use/);
      // An identical request joins the running transcode instead of needing a slot.
      const joined = await get(app, 'stream', { id: long._id, format: 'opus' });
      const first = await slow;
      expect(first.statusCode).toBe(200);
      expect(joined.rawPayload.equals(first.rawPayload)).toBe(true);
      expect((await probe(first.rawPayload, 'opus')).duration).toBeGreaterThan(599);
      // Free again.
      const after = await get(app, 'stream', { id: byRel('Unsorted/燈火裡的青春.flac')._id, format: 'aac' });
      expect(after.headers['content-type']).toBe('audio/aac');
    }, 120_000);

    it('is_play_decode applies decode_command to streams without a format; decode_cache_num 0 keeps nothing', async () => {
      await h.rt.store.collection('settings').updateOne(
        { _id: 'system' },
        { $set: { is_play_decode: '1', decode_cache_num: '0', decode_command: 'ffmpeg -i %s -ss %t -map 0:a:0 -c:a libvorbis -b:a %bk -v 0 -f ogg -' } },
        { upsert: true },
      );
      const t = byRel('Silver Pines/Velvet Highway/01 Broken Skyline.mp3');
      const before = await cacheFiles('transcode');
      const res = await get(app, 'stream', { id: t._id, maxBitRate: 80 });
      expect(res.headers['content-type']).toBe('audio/ogg');
      const p = await probe(res.rawPayload, 'ogg');
      expect(p.codec).toBe('vorbis');
      // decode_cache_num 0: the cache keeps nothing (older entries are pruned too).
      expect(before.length).toBeGreaterThan(0);
      expect(await cacheFiles('transcode')).toEqual([]);
      // An explicit format still wins over the setting.
      expect((await get(app, 'stream', { id: t._id, format: 'raw' })).rawPayload.equals(await readFile(t.path))).toBe(true);
      await h.rt.store.collection('settings').updateOne({ _id: 'system' }, { $set: { decode_command: 'sh -c "echo hi" %s -' } });
      expect((await fails(app, 'stream', { id: t._id }, 0)).message).toMatch(/must start with ffmpeg/);
      await h.rt.store.collection('settings').updateOne({ _id: 'system' }, { $set: { is_play_decode: '0' } });
      expect((await get(app, 'stream', { id: t._id })).rawPayload.equals(await readFile(t.path))).toBe(true);
    });

    it('keeps the scaled-cover cache within its byte budget (least recently used go first)', async () => {
      const dir = path.join(h.rt.config.dataDir, 'cache', 'covers');
      const bytes = async () => {
        let n = 0;
        for (const f of await readdir(dir)) n += (await stat(path.join(dir, f))).size;
        return n;
      };
      const album = albumOf('赵长青/爱情里的青春/01 再见远方.mp3');
      for (const size of [300, 310, 320, 330, 340]) {
        const res = await get(app, 'getCoverArt', { id: album, size });
        expect(res.statusCode).toBe(200);
        expect(await bytes()).toBeLessThanOrEqual(12_000);
      }
      // The newest stays.
      expect((await readdir(dir)).length).toBeGreaterThan(0);
    });
  });

  describe('getCoverArt', () => {
    it('serves the folder image as is, and scaled to JPEG at the asked size, cached with an ETag', async () => {
      const album = albumOf('赵长青/爱情里的青春/01 再见远方.mp3');
      const folderImage = await readFile(path.join(h.rt.config.mediaDir, '赵长青/爱情里的青春/cover.jpg'));
      const original = await get(h.app, 'getCoverArt', { id: album });
      expect(original.statusCode).toBe(200);
      expect(original.headers['content-type']).toBe('image/jpeg');
      expect(original.rawPayload.equals(folderImage)).toBe(true);

      const scaledBefore = (await cacheFiles('covers')).length;
      const small = await get(h.app, 'getCoverArt', { id: album, size: 120 });
      const info = sniffImage(small.rawPayload)!;
      expect(info.mime).toBe('image/jpeg');
      expect(Math.max(info.width, info.height)).toBe(120);
      expect(small.headers['cache-control']).toBe('private, max-age=86400');
      const etag = small.headers.etag as string;
      expect(etag).toMatch(/^"[0-9a-f]{24}"$/);
      expect((await cacheFiles('covers')).length).toBe(scaledBefore + 1);
      const again = await get(h.app, 'getCoverArt', { id: album, size: 120 });
      expect(again.rawPayload.equals(small.rawPayload)).toBe(true);
      expect(again.headers.etag).toBe(etag);
      expect((await cacheFiles('covers')).length).toBe(scaledBefore + 1);
      const notModified = await get(h.app, 'getCoverArt', { id: album, size: 120 }, { 'if-none-match': etag });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.rawPayload.length).toBe(0);
      // Never enlarged.
      const huge = sniffImage((await get(h.app, 'getCoverArt', { id: album, size: 5000 })).rawPayload)!;
      expect(Math.max(huge.width, huge.height)).toBe(Math.max(sniffImage(folderImage)!.width, sniffImage(folderImage)!.height));
    });

    it('takes song (embedded PNG → JPEG), artist, folder and playlist ids; draws the default cover when none', async () => {
      const song = byRel('ミドリノソラ/夏の終わりに/01 ひだまり.m4a');
      const embedded = await get(h.app, 'getCoverArt', { id: song.hasArt ? song._id : song.albumId, size: 64 });
      expect(sniffImage(embedded.rawPayload)?.mime).toBe('image/jpeg');
      const pngOriginal = await get(h.app, 'getCoverArt', { id: song._id });
      expect(['image/png', 'image/jpeg']).toContain(pngOriginal.headers['content-type']);
      const artist = await get(h.app, 'getCoverArt', { id: song.artistIds[0]!, size: 50 });
      expect(sniffImage(artist.rawPayload)?.mime).toBe('image/jpeg');
      const folder = await get(h.app, 'getCoverArt', { id: song.folderId });
      expect(folder.statusCode).toBe(200);
      const noCover = byRel('José Álvarez/Été Indien/01 Smörgåsbord à Paris.wav');
      const dflt = await get(h.app, 'getCoverArt', { id: noCover.albumId });
      expect(sniffImage(dflt.rawPayload)).toMatchObject({ mime: 'image/jpeg', width: 600, height: 600 });
      const dfltSmall = sniffImage((await get(h.app, 'getCoverArt', { id: noCover._id, size: 100 })).rawPayload)!;
      expect([dfltSmall.width, dfltSmall.height]).toEqual([100, 100]);
      const pl = (await ok(h.app, 'createPlaylist', { name: 'covers', songId: [song._id] })).playlist;
      expect(pl.coverArt).toBe(song.hasArt ? song._id : song.albumId);
      expect(sniffImage((await get(h.app, 'getCoverArt', { id: pl.id, size: 40 })).rawPayload)?.mime).toBe('image/jpeg');
      await fails(h.app, 'getCoverArt', { id: pl.id }, 70, { auth: asAlice });
    });

    it('fails cleanly for unknown ids, bad sizes and missing credentials, in JSON and XML', async () => {
      await fails(h.app, 'getCoverArt', { id: 'al-00000000000000000000' }, 70);
      await fails(h.app, 'getCoverArt', { id: 'whatever' }, 70);
      await fails(h.app, 'getCoverArt', {}, 10);
      await fails(h.app, 'getCoverArt', { id: albumOf('赵长青/爱情里的青春/01 再见远方.mp3'), size: 0 }, 0);
      await fails(h.app, 'getCoverArt', { id: albumOf('赵长青/爱情里的青春/01 再见远方.mp3') }, 40, { auth: { u: 'nobody', p: 'x' } });
      const x = await xml(h.app, 'getCoverArt', { id: 'al-00000000000000000000' });
      expect(x.error[0].code).toBe('70');
    });
  });

  describe('lyrics', () => {
    const lrcFile = (rel: string) => h.manifest.files.find((f) => f.kind === 'lyrics' && f.sidecarOf === rel)!;

    it('getLyricsBySongId gives synced lines from an .lrc sidecar, in JSON and XML', async () => {
      const rel = '城市漫遊者/致故事/02 春天與回憶.flac';
      const t = byRel(rel);
      const body = await ok(h.app, 'getLyricsBySongId', { id: t._id });
      validateResponse(body, LYRICS_ELEMENTS);
      const [sl] = body.lyricsList.structuredLyrics;
      expect(sl).toMatchObject({ displayTitle: t.title, displayArtist: t.artist, synced: true, offset: 0 });
      expect(sl.lang).toMatch(/^([a-z]{2,3})$/);
      const lrc = lrcFile(rel).lrc!;
      expect(sl.line).toEqual(lrc.map((l) => ({ start: Math.round(l.timeSec * 1000), value: l.text })));
      const x = await xml(h.app, 'getLyricsBySongId', { id: t._id });
      const xl = x.lyricsList[0].structuredLyrics[0];
      expect(xl.synced).toBe('true');
      expect(xl.line.map((l: { start: string; value: string }) => [Number(l.start), l.value])).toEqual(sl.line.map((l: { start: number; value: string }) => [l.start, l.value]));
    });

    it('gives unsynced embedded lyrics without start times, and an empty list when there are none', async () => {
      const withText = byRel('Sinéad Ó Móráin/Café Noir à Paris/03 Ça Va.m4a');
      const body = await ok(h.app, 'getLyricsBySongId', { id: withText._id });
      validateResponse(body, LYRICS_ELEMENTS);
      const [sl] = body.lyricsList.structuredLyrics;
      expect(sl.synced).toBe(false);
      expect(sl.line.length).toBeGreaterThan(0);
      for (const l of sl.line) expect(l.start).toBeUndefined();
      const expected = h.manifest.files.find((f) => f.path === 'Sinéad Ó Móráin/Café Noir à Paris/03 Ça Va.m4a')!.tags!.lyrics!;
      expect(sl.line.map((l: { value: string }) => l.value).join('\n').trim()).toBe(expected.trim());
      const none = await ok(h.app, 'getLyricsBySongId', { id: byRel('Silver Pines/Velvet Highway/01 Broken Skyline.mp3')._id });
      expect(none.lyricsList.structuredLyrics).toEqual([]);
      await fails(h.app, 'getLyricsBySongId', { id: '0123456789abcdef01234567' }, 70);
      await fails(h.app, 'getLyricsBySongId', {}, 10);
    });

    it('getLyrics finds a song by artist and title (folded), in JSON and XML', async () => {
      const t = byRel('赵长青/爱情里的青春/03 星空与故事.mp3');
      const body = await ok(h.app, 'getLyrics', { artist: t.artist.toUpperCase(), title: t.title });
      validateResponse(body, LYRICS_ELEMENTS);
      expect(body.lyrics).toMatchObject({ artist: t.artist, title: t.title });
      expect(body.lyrics.value).toBe(lrcFile('赵长青/爱情里的青春/03 星空与故事.mp3').lrc!.map((l) => l.text).join('\n'));
      const x = await xml(h.app, 'getLyrics', { artist: t.artist, title: t.title });
      expect(x.lyrics[0].value).toBe(body.lyrics.value);
      const missing = await ok(h.app, 'getLyrics', { artist: 'Nobody', title: 'Nothing' });
      expect(missing.lyrics).toEqual({ value: '' });
      await fails(h.app, 'getLyrics', { artist: 'x' }, 40, { auth: { u: 'alice', p: 'wrong' } });
    });
  });

  describe('getAvatar', () => {
    it('draws a stable PNG per user; others only for admins', async () => {
      const own = await rest(h.app, 'getAvatar', { username: 'alice' }, { auth: asAlice });
      expect(own.statusCode).toBe(200);
      expect(own.headers['content-type']).toBe('image/png');
      expect(sniffImage(own.rawPayload)).toMatchObject({ mime: 'image/png', width: 152, height: 152 });
      const byAdmin = await get(h.app, 'getAvatar', { username: 'alice' });
      expect(byAdmin.rawPayload.equals(own.rawPayload)).toBe(true);
      const adminOwn = await get(h.app, 'getAvatar', { username: 'admin' });
      expect(adminOwn.rawPayload.equals(own.rawPayload)).toBe(false);
      await fails(h.app, 'getAvatar', { username: 'admin' }, 50, { auth: asAlice });
      await fails(h.app, 'getAvatar', { username: 'nobody' }, 70);
      await fails(h.app, 'getAvatar', {}, 10);
      // The avatar is valid PNG for other tools too.
      const file = path.join(scratch, 'avatar.png');
      await writeFile(file, own.rawPayload);
      const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'csv=p=0', file]);
      expect(stdout.trim()).toBe('png,152,152');
    });
  });

  it('lists the media extensions it implements', async () => {
    const res = await rest(h.app, 'getOpenSubsonicExtensions', {}, { auth: 'none', format: 'json' });
    const names = res.json()['subsonic-response'].openSubsonicExtensions.map((e: { name: string }) => e.name);
    expect(names).toEqual(expect.arrayContaining(['transcodeOffset', 'songLyrics']));
  });

});
