/**
 * Checks the generated library with readers independent of Tagsonic: ffprobe for tags, durations and
 * covers, iconv-lite for the GBK cue, ffmpeg for the audio itself.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTagsonicError } from '@tagsonic/core/errors';
import { AUDIO_FORMATS, FORMAT_CODEC, generateLibrary, type LibraryFile, type LibraryManifest } from './library.ts';
import { ARTIST_SEPARATORS } from './library-names.ts';

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

const run = (command: string, args: string[]): Promise<RunResult> =>
  new Promise((resolve) => {
    execFile(command, args, { maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });

interface ProbeStream {
  codec_type: string;
  codec_name: string;
  sample_rate?: string;
  channels?: number;
  width?: number;
  height?: number;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
}

interface Probe {
  format: { duration?: string; tags?: Record<string, string> };
  streams: ProbeStream[];
}

const probe = async (path: string): Promise<Probe> => {
  const result = await run('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', path]);
  expect(result.code, `ffprobe ${path}: ${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as Probe;
};

/** Tags as ffprobe shows them, keys lower-cased; Ogg keeps its comments on the stream. */
const probedTags = (file: LibraryFile, info: Probe): Record<string, string> => {
  const out: Record<string, string> = {};
  const add = (tags: Record<string, string> | undefined) => {
    for (const [key, value] of Object.entries(tags ?? {})) out[key.toLowerCase()] = value;
  };
  add(info.format.tags);
  if (file.format === 'ogg' || file.format === 'opus') add(info.streams.find((s) => s.codec_type === 'audio')?.tags);
  return out;
};

// Container and encoder bookkeeping that is not a tag we wrote.
const TECHNICAL_KEYS = new Set(['encoder', 'major_brand', 'minor_version', 'compatible_brands', 'vendor_id', 'handler_name']);

/** What ffprobe must show for the manifest's tags: its key names differ per container and per writer. */
const expectedProbe = (file: LibraryFile): Record<string, string> => {
  const tags = file.tags ?? {};
  const format = file.format;
  const vorbis = format === 'flac' || format === 'ogg' || format === 'opus';
  const m4a = format === 'm4a-aac' || format === 'm4a-alac';
  const byTaglib = file.writer === 'taglib-wasm';
  const out: Record<string, string> = {};
  const set = (key: string, value: string | number | boolean | undefined) => {
    if (value !== undefined) out[key] = String(value);
  };
  const pair = (n: number | undefined, total: number | undefined) => (n === undefined ? undefined : total === undefined ? `${n}` : `${n}/${total}`);
  const genre = Array.isArray(tags.genre) ? (vorbis ? tags.genre.join(';') : tags.genre[0]) : tags.genre;

  set('title', tags.title);
  set('artist', tags.artist);
  set('album', tags.album);
  set('genre', genre);
  set('date', tags.year);
  set('comment', tags.comment);
  set('language', tags.language);
  if (format === 'wav') {
    // ffprobe shows RIFF INFO only; taglib-wasm's id3 chunk copies are not visible to it.
    set('track', tags.track);
    if (byTaglib) {
      set('imus', tags.composer);
      set('iwri', tags.lyricist);
    }
    return out;
  }
  set('album_artist', tags.albumartist);
  set('composer', tags.composer);
  set('lyrics', tags.lyrics);
  if (tags.compilation) set('compilation', 1);
  if (vorbis) {
    set('track', tags.track);
    set('tracktotal', tags.trackTotal);
    set('disc', tags.disc);
    set('disctotal', tags.discTotal);
    set('lyricist', tags.lyricist);
  } else {
    set('track', pair(tags.track, tags.trackTotal));
    set('disc', pair(tags.disc, tags.discTotal));
    set(format === 'mp3' ? 'text' : 'lyricist', tags.lyricist);
  }
  if (m4a && !byTaglib) delete out.language;
  return out;
};

/** taglib-wasm stores MP3 lyrics in a USLT frame with a description, which ffprobe names `lyrics-<desc>-<lang>`. */
const lookup = (probed: Record<string, string>, key: string): string | undefined =>
  key === 'lyrics' ? (probed.lyrics ?? Object.entries(probed).find(([k]) => k.startsWith('lyrics'))?.[1]) : probed[key];

const checkAudio = async (root: string, file: LibraryFile): Promise<void> => {
  const info = await probe(join(root, file.path));
  const audio = info.streams.find((s) => s.codec_type === 'audio');
  expect(audio?.codec_name, file.path).toBe(FORMAT_CODEC[file.format ?? 'mp3']);
  expect(Number(audio?.sample_rate), file.path).toBe(file.sampleRate);
  expect(audio?.channels, file.path).toBe(file.channels);
  expect(Math.abs(Number(info.format.duration) - (file.durationSec ?? 0)), `${file.path} duration`).toBeLessThan(0.1);

  const probed = probedTags(file, info);
  const expected = expectedProbe(file);
  for (const [key, value] of Object.entries(expected)) expect(lookup(probed, key), `${file.path} ${key}`).toBe(value);
  if (file.tags === undefined) expect(Object.keys(probed).filter((k) => !TECHNICAL_KEYS.has(k)), `${file.path} has no tags`).toEqual([]);

  const pictures = info.streams.filter((s) => s.disposition?.attached_pic === 1);
  if (file.cover === undefined) {
    expect(pictures, `${file.path} has no cover`).toEqual([]);
  } else {
    // ffmpeg's ogg demuxer turns METADATA_BLOCK_PICTURE back into an attached picture stream.
    expect(pictures, `${file.path} cover`).toHaveLength(1);
    expect(pictures[0].codec_name).toBe(file.cover.mime === 'image/png' ? 'png' : 'mjpeg');
    expect([pictures[0].width, pictures[0].height]).toEqual([file.cover.width, file.cover.height]);
  }
};

const audioMd5 = async (path: string): Promise<string> => {
  const result = await run('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:a', '-f', 'md5', '-']);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.trim();
};

const withoutRoot = (manifest: LibraryManifest) => ({ ...manifest, root: '' });

const audioFiles = (manifest: LibraryManifest) => manifest.files.filter((f) => f.kind === 'audio');

describe('small library', () => {
  let root: string;
  let library: LibraryManifest;
  const temp: string[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tagsonic-lib-'));
    temp.push(root);
    library = await generateLibrary({ root, seed: 7 });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(temp.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('covers every case the brief lists', () => {
    const audio = audioFiles(library);
    const tagged = audio.filter((f) => f.tags !== undefined);
    expect(library.files.length).toBeGreaterThanOrEqual(40);
    expect(library.files.length).toBeLessThanOrEqual(60);
    for (const format of AUDIO_FORMATS) expect(library.counts.byFormat[format], format).toBeGreaterThan(0);
    for (const format of AUDIO_FORMATS.filter((f) => f !== 'wav'))
      expect(audio.some((f) => f.format === format && f.cover !== undefined), `${format} cover`).toBe(true);
    expect(new Set(audio.filter((f) => f.format === 'mp3').map((f) => f.id3v2Version))).toEqual(new Set([3, 4, undefined]));
    expect(audio.some((f) => f.cover?.mime === 'image/jpeg') && audio.some((f) => f.cover?.mime === 'image/png')).toBe(true);
    expect(new Set(audio.map((f) => f.cover?.width).filter(Boolean)).size).toBeGreaterThan(2);

    const compilation = tagged.filter((f) => f.tags?.compilation);
    expect(compilation.length).toBeGreaterThanOrEqual(3);
    expect(compilation.every((f) => f.tags?.albumartist === 'Various Artists' && f.path.startsWith('Various Artists/'))).toBe(true);
    expect(new Set(compilation.map((f) => f.tags?.artist)).size).toBe(compilation.length);
    expect(tagged.some((f) => f.tags?.disc === 2 && f.tags.discTotal === 2 && f.path.includes('/Disc 2/'))).toBe(true);
    expect(new Set(audio.map((f) => f.separator).filter(Boolean))).toEqual(new Set(ARTIST_SEPARATORS));
    for (const f of audio.filter((x) => x.separator !== undefined)) expect(f.artists?.join(f.separator)).toBe(f.tags?.artist);
    expect(tagged.some((f) => Array.isArray(f.genres) && f.genres.length > 1)).toBe(true);

    const text = JSON.stringify(library.files.map((f) => [f.path, f.tags]));
    expect(text).toMatch(/[张刘陈杨黄赵吴孙马罗郑谢韩冯晓东鸣静轩梦洁国华丽强乐书瑶语长团电游边风车队银飞鸟时记忆远归蓝声爱灯无与见里谣摇]/); // simplified only
    expect(text).toMatch(/[張劉陳楊黃趙吳孫馬羅鄭謝韓馮曉東鳴靜軒夢潔國華麗強樂書瑤語長團電遊邊風車隊銀飛鳥時記憶遠歸藍聲愛燈無與見裡謠搖]/); // traditional only
    expect(text).toMatch(/[\u3040-\u30ff]/); // kana
    expect(text).toMatch(/[\uac00-\ud7af]/); // hangul
    expect(text).toMatch(/[éèçñøåöüł]/i);

    expect(tagged.some((f) => f.tags?.title === undefined && f.tags?.artist !== undefined)).toBe(true);
    expect(tagged.some((f) => f.tags?.artist === undefined && f.tags?.title !== undefined)).toBe(true);
    expect(audio.filter((f) => f.tags === undefined).length).toBeGreaterThanOrEqual(2);
    expect(tagged.some((f) => f.tags?.lyrics !== undefined)).toBe(true);
    expect(audio.filter((f) => f.path.startsWith('Unsorted/')).length).toBeGreaterThanOrEqual(4);

    const names = library.files.map((f) => f.path.slice(f.path.lastIndexOf('/') + 1));
    for (const name of ['cover.jpg', 'folder.jpg', 'front.png']) expect(names, name).toContain(name);
    expect(library.counts.lrc).toBeGreaterThanOrEqual(3);
    expect(library.cues.map((c) => c.encoding).sort()).toEqual(['gbk', 'utf-8']);
    const problems = library.files.filter((f) => f.kind === 'corrupt').map((f) => f.problem);
    expect(problems.sort()).toEqual(['empty', 'random-bytes', 'truncated']);
    expect(library.files.some((f) => f.kind === 'strm')).toBe(true);
    expect(names.some((n) => n.endsWith('.nfo')) && names.some((n) => n.endsWith('.txt'))).toBe(true);
    expect(library.files.some((f) => f.kind === 'image' && f.role === 'scan')).toBe(true);
    expect(library.notes.join(' ')).toMatch(/wav/);
  });

  it('ffprobe reads back every audio file: codec, rate, channels, duration, tags and cover', async () => {
    const audio = audioFiles(library);
    for (const file of audio) await checkAudio(root, file);
  }, 60_000);

  it('gives every file its own audio (distinct fingerprints need distinct audio)', async () => {
    const sample = audioFiles(library).filter((f) => f.format === 'flac').slice(0, 4);
    const sums = await Promise.all(sample.map((f) => audioMd5(join(root, f.path))));
    expect(new Set(sums).size).toBe(sample.length);
    const fingerprint = await run('fpcalc', ['-json', join(root, sample[0].path)]);
    // fpcalc exits 3 after a harmless end-of-file message (shared/NOTES.md): read its JSON only.
    expect((JSON.parse(fingerprint.stdout) as { fingerprint: string }).fingerprint.length).toBeGreaterThan(40);
  });

  it('folder covers and scans are real images of the listed size', async () => {
    for (const file of library.files.filter((f) => f.kind === 'image')) {
      const info = await probe(join(root, file.path));
      expect([info.streams[0].width, info.streams[0].height], file.path).toEqual([file.image?.width, file.image?.height]);
      expect((await stat(join(root, file.path))).size).toBe(file.image?.bytes);
    }
  });

  it('writes CUE sheets whose INDEX 01 times fall inside the image, the GBK one readable only as GBK', async () => {
    for (const sheet of library.cues) {
      const bytes = await readFile(join(root, sheet.path));
      const text = sheet.encoding === 'gbk' ? iconv.decode(bytes, 'gbk') : bytes.toString('utf8');
      const image = await probe(join(root, sheet.image));
      const imageDuration = Number(image.format.duration);
      expect(text).toContain(`FILE "${sheet.image.slice(sheet.image.lastIndexOf('/') + 1)}" WAVE`);
      expect(text).toContain(`PERFORMER "${sheet.performer}"`);
      const indexes = [...text.matchAll(/INDEX 01 (\d\d):(\d\d):(\d\d)/g)].map((m) => Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) / 75);
      expect(indexes).toHaveLength(sheet.tracks.length);
      for (const [i, track] of sheet.tracks.entries()) {
        expect(text).toContain(`TITLE "${track.title}"`);
        expect(text).toContain(`INDEX 01 ${track.index01}`);
        expect(Math.abs(indexes[i] - track.startSec)).toBeLessThan(0.02);
        expect(indexes[i]).toBeLessThan(imageDuration);
      }
      if (sheet.encoding === 'gbk') {
        expect(sheet.tracks.every((t) => /[\u4e00-\u9fff]/.test(t.title))).toBe(true);
        const asUtf8 = bytes.toString('utf8');
        for (const track of sheet.tracks) expect(asUtf8).not.toContain(track.title);
        expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
      }
    }
  });

  it('writes LRC sidecars next to their tracks with the listed timed lines', async () => {
    for (const file of library.files.filter((f) => f.kind === 'lyrics')) {
      expect(library.files.some((f) => f.path === file.sidecarOf && f.kind === 'audio')).toBe(true);
      expect(file.path.replace(/\.lrc$/, '')).toBe(file.sidecarOf?.replace(/\.[^.]+$/, ''));
      const lines = (await readFile(join(root, file.path), 'utf8')).split('\n').filter((l) => /^\[\d\d:/.test(l));
      const parsed = lines.map((l) => {
        const m = /^\[(\d\d):(\d\d)\.(\d\d)\](.*)$/.exec(l);
        expect(m, l).not.toBeNull();
        return { timeSec: Number(m?.[1]) * 60 + Number(m?.[2]) + Number(m?.[3]) / 100, text: m?.[4] };
      });
      expect(parsed).toEqual(file.lrc);
    }
  });

  it('bad files are bad: corrupt and empty fail ffprobe, the truncated FLAC decodes only partly', async () => {
    const bad = library.files.filter((f) => f.kind === 'corrupt');
    for (const file of bad.filter((f) => f.problem !== 'truncated')) {
      const result = await run('ffprobe', ['-v', 'error', '-show_format', join(root, file.path)]);
      expect(result.code, file.path).not.toBe(0);
    }
    const truncated = bad.find((f) => f.problem === 'truncated');
    expect(truncated).toBeDefined();
    const packets = await run('ffprobe', ['-v', 'error', '-select_streams', 'a', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', join(root, truncated?.path ?? '')]);
    const last = Math.max(...packets.stdout.trim().split('\n').map(Number));
    expect(last).toBeLessThan((truncated?.durationSec ?? 0) * 0.75);
    const empty = bad.find((f) => f.problem === 'empty');
    expect((await stat(join(root, empty?.path ?? ''))).size).toBe(0);
    const strm = library.files.find((f) => f.kind === 'strm');
    expect((await readFile(join(root, strm?.path ?? ''), 'utf8')).trim()).toBe(strm?.url);
  });

  it('is deterministic: the same seed gives the same manifest and the same bytes', async () => {
    const again = await mkdtemp(join(tmpdir(), 'tagsonic-lib-'));
    temp.push(again);
    const second = await generateLibrary({ root: again, seed: 7 });
    expect(withoutRoot(second)).toEqual(withoutRoot(library));
    for (const file of audioFiles(library).filter((f) => f.format === 'mp3' || f.format === 'flac').slice(0, 4))
      expect((await readFile(join(again, file.path))).equals(await readFile(join(root, file.path))), file.path).toBe(true);
  }, 120_000);

  it('returns the cached library when the options match, and refuses foreign folders', async () => {
    const started = performance.now();
    const cached = await generateLibrary({ root, seed: 7 });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(cached).toEqual(library);

    const foreign = await mkdtemp(join(tmpdir(), 'tagsonic-foreign-'));
    temp.push(foreign);
    await writeFile(join(foreign, 'keep-me.txt'), 'not a library');
    const error = await generateLibrary({ root: foreign }).catch((e: unknown) => e);
    expect(isTagsonicError(error) && error.code).toBe('TAGSONIC_ERR_TESTLIB_ROOT_NOT_EMPTY');
    expect(await readFile(join(foreign, 'keep-me.txt'), 'utf8')).toBe('not a library');
  });
});

describe('large library (taglib-wasm fast path)', () => {
  let root: string;
  let library: LibraryManifest;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tagsonic-lib-big-'));
    library = await generateLibrary({ root, size: 300, seed: 3 });
  }, 120_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('spreads N files over ~N/10 albums and ~N/40 artists in every format', () => {
    expect(library.counts.byKind.audio).toBe(300);
    expect(library.counts.albums).toBeGreaterThanOrEqual(27);
    expect(library.counts.albums).toBeLessThanOrEqual(31);
    expect(library.counts.artists).toBeGreaterThanOrEqual(6);
    expect(library.counts.artists).toBeLessThanOrEqual(10);
    expect(audioFiles(library).every((f) => f.writer === 'taglib-wasm')).toBe(true);
    expect(library.counts.embeddedCovers).toBeGreaterThan(50);
    expect(library.counts.folderCovers).toBeGreaterThan(0);
  });

  it('ffprobe reads back a sample of each format', async () => {
    const audio = audioFiles(library);
    const formats = [...new Set(audio.map((f) => f.format))];
    expect(formats.length).toBeGreaterThanOrEqual(5);
    for (const format of formats) {
      const ofFormat = audio.filter((f) => f.format === format);
      const sample = [ofFormat[0], ofFormat.find((f) => f.cover !== undefined && f !== ofFormat[0]), ofFormat.at(-1)].filter((f) => f !== undefined);
      for (const file of new Set(sample)) await checkAudio(root, file);
    }
  }, 60_000);

  it('copies leave the base audio untouched: same audioId, same decoded samples', async () => {
    const audio = audioFiles(library);
    const byId = Map.groupBy(audio, (f) => f.audioId);
    const [id, group] = [...byId.entries()].find(([, files]) => files.length >= 2) ?? [];
    expect(id).toBeDefined();
    const [a, b] = group ?? [];
    expect(await audioMd5(join(root, a.path))).toBe(await audioMd5(join(root, b.path)));
  });
});

describe('generator bookkeeping', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tagsonic-lib-tiny-'));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('serialises concurrent calls on one root, then rebuilds when the options change', async () => {
    const options = { root, size: 20, seed: 11, formats: ['mp3' as const], durationSec: 2 };
    const [a, b] = await Promise.all([generateLibrary(options), generateLibrary(options)]);
    expect(b).toEqual(a);
    expect(a.counts.byKind.audio).toBe(20);
    expect(a.counts.byFormat).toEqual({ mp3: 20 });
    const onDisk = await run('find', [root, '-name', '*.mp3']);
    expect(onDisk.stdout.trim().split('\n')).toHaveLength(20);

    const other = await generateLibrary({ ...options, seed: 12 });
    expect(other.options.seed).toBe(12);
    expect(other.files.map((f) => f.path)).not.toEqual(a.files.map((f) => f.path));
    const after = await run('find', [root, '-name', '*.mp3']);
    expect(after.stdout.trim().split('\n')).toHaveLength(20);
  }, 60_000);

  it('rejects options it cannot honour', async () => {
    for (const bad of [{ size: 0 }, { size: 2.5 }, { seed: 1.5 }, { formats: [] }, { formats: ['aiff'] }, { durationSec: 0 }]) {
      const error = await generateLibrary({ root, ...(bad as object) }).catch((e: unknown) => e);
      expect(isTagsonicError(error) && error.kind, JSON.stringify(bad)).toBe('invalid');
    }
  });
});
