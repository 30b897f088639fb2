/**
 * The reader on files tagged by ffmpeg (an independent writer): field mapping per family, track and
 * disc pairs, UTF-8 in RIFF INFO, audio facts, covers, and clear errors for what is not audio.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { readArtwork, readTags } from './read.ts';
import { TagsonicError } from '../errors/index.ts';
import { parseBuffer, parseFile, selectCover } from 'music-metadata';
import { safeWriteTags } from './safe-write.ts';
import { SOURCE_KINDS, makeAudio, makeCover, openJournal, sha256, tempDir, type SourceKind } from './test-fixtures.ts';

const run = promisify(execFile);

const FFMPEG_TAGS = {
  title: '七里香',
  artist: '周杰伦/Lara',
  album: '七里香 (Deluxe)',
  album_artist: '周杰伦',
  genre: 'Mandopop',
  date: '2004',
  track: '3/12',
  disc: '1/2',
  comment: '备注',
  composer: '周杰伦',
};

/** What ffmpeg can put into each container, read back through Picard's mapping. */
const EXPECTED: Record<SourceKind, Record<string, string | null>> = Object.fromEntries(
  SOURCE_KINDS.map((kind) => {
    const all = {
      title: '七里香',
      artist: '周杰伦/Lara',
      album: '七里香 (Deluxe)',
      albumartist: '周杰伦',
      genre: 'Mandopop',
      year: '2004',
      tracknumber: '3',
      totaltracks: '12',
      discnumber: '1',
      totaldiscs: '2',
      comment: '备注',
      composer: '周杰伦',
    };
    // RIFF INFO (ffmpeg's WAV tags) has no album artist, disc or composer.
    if (kind === 'wav') return [kind, { ...all, albumartist: null, discnumber: null, totaldiscs: null, composer: null }];
    // ffmpeg stores "comment" as Vorbis DESCRIPTION, and as TXXX:comment (not COMM) in ID3 — which we read
    // as the comment, the way TagLib does (otherwise editing any other field of such a file fails to verify).
    if (kind === 'flac' || kind === 'ogg' || kind === 'opus') return [kind, { ...all, comment: null, description: '备注' }];
    if (kind.startsWith('mp3') || kind === 'aiff') return [kind, { ...all, comment: '备注', description: null }];
    return [kind, all];
  }),
) as Record<SourceKind, Record<string, string | null>>;

let dir: string;
let remove: () => Promise<void>;
const files = {} as Record<SourceKind, string>;

beforeAll(async () => {
  ({ dir, remove } = await tempDir());
  await Promise.all(SOURCE_KINDS.map(async (kind, i) => (files[kind] = await makeAudio(dir, kind, kind, { seed: i + 3, tags: FFMPEG_TAGS }))));
});

afterAll(() => remove());

describe('fields written by ffmpeg', () => {
  it.each(SOURCE_KINDS)('%s', async (kind) => {
    const { tags } = await readTags(files[kind]);
    for (const [field, value] of Object.entries(EXPECTED[kind])) expect(tags.fields[field as keyof typeof tags.fields], `${kind} ${field}`).toBe(value);
    expect(tags.fields.lyrics).toBeNull();
    expect(tags.fields.replaygain_track_gain).toBeNull();
    // No Picard ARTISTS tag: the individual artists are the values of the artist tag — one, except in
    // ID3v2.3, where "/" separates values.
    expect(tags.artists).toEqual(kind === 'mp3-id3v23' ? ['周杰伦', 'Lara'] : ['周杰伦/Lara']);
    expect(tags.genres).toEqual(['Mandopop']);
    expect(tags.artwork).toBeNull();
  });
});

describe('audio facts', () => {
  it.each(SOURCE_KINDS)('%s', async (kind) => {
    const { audio } = await readTags(files[kind]);
    const format = kind.startsWith('mp3') ? 'mp3' : kind.startsWith('m4a') ? 'm4a' : kind;
    expect(audio.format).toBe(format);
    expect(audio.sampleRate).toBe(kind === 'opus' ? 48000 : 44100); // Opus always decodes at 48 kHz
    expect(audio.channels).toBe(2);
    expect(audio.duration).toBeGreaterThan(1.3);
    expect(audio.duration).toBeLessThan(1.7);
    expect(audio.bitRate).toBeGreaterThan(0);
    expect(audio.size).toBe((await readFile(files[kind])).byteLength);
    const lossless = ['flac', 'm4a-alac', 'wav', 'aiff'].includes(kind);
    expect(audio.lossless).toBe(lossless);
    if (kind === 'wav' || kind === 'aiff') expect(audio.bitDepth).toBe(16);
    expect(audio.codec.length).toBeGreaterThan(0);
  });
});

describe('length of a whole song in Ogg (music-metadata stops before the last page)', () => {
  it.each([
    ['vorbis', 'ogg', ['-c:a', 'libvorbis', '-q:a', '2']],
    ['opus', 'opus', ['-c:a', 'libopus', '-b:a', '96k']],
  ] as const)('%s: 60 s from the last page, with a bit rate', async (_codec, ext, codec) => {
    const file = path.join(dir, `long-song.${ext}`);
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anoisesrc=d=60:a=0.1:r=48000', ...codec, '-metadata', 'title=Long', file]);
    const { audio, tags } = await readTags(file);
    expect(tags.fields.title).toBe('Long');
    expect(Math.abs(audio.duration - 60)).toBeLessThan(0.05);
    expect(audio.bitRate).toBeGreaterThan(20);
    // A cut-off file has no end page of its stream left: still read, and no made-up length.
    const cut = path.join(dir, `long-song-cut.${ext}`);
    await writeFile(cut, (await readFile(file)).subarray(0, 4096));
    expect((await readTags(cut)).audio.duration).toBeLessThan(1);
  });
});

describe('formats outside the editing set', () => {
  it('WMA written by ffmpeg (Author in both ASF objects) reads one artist', async () => {
    const file = path.join(dir, 'two-objects.wma');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anoisesrc=d=3:a=0.1', '-c:a', 'wmav2', '-metadata', 'title=标题', '-metadata', 'artist=周杰伦', file]);
    const { tags, audio } = await readTags(file);
    expect(audio.format).toBe('wma');
    expect(tags.fields.title).toBe('标题');
    expect(tags.fields.artist).toBe('周杰伦');
    expect(tags.artists).toEqual(['周杰伦']);
  });

  it('raw AAC (ADTS) is read — its ID3 tag, a length from the bit rate — and refused for writing', async () => {
    const file = path.join(dir, 'raw.aac');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anoisesrc=d=30:a=0.1:r=44100', '-c:a', 'aac', '-b:a', '128k', '-write_id3v2', '1', '-metadata', 'title=原始 AAC', '-f', 'adts', file]);
    const { audio, tags } = await readTags(file);
    expect(audio).toMatchObject({ format: 'aac', lossless: false });
    expect(tags.fields.title).toBe('原始 AAC');
    expect(Math.abs(audio.duration - 30)).toBeLessThan(3);
    const { journal, close } = await openJournal(path.join(dir, 'aac-journal'));
    try {
      await expect(safeWriteTags(file, { fields: { title: 'x' } }, { journal, actor: 'test' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_TAGS_UNSUPPORTED_FORMAT' });
    } finally {
      await close();
    }
  });
});

describe('covers attached by ffmpeg', () => {
  let cover: Uint8Array;
  beforeAll(async () => {
    cover = await makeCover(dir, 'cover', 'png', 200, 150);
  });

  it.each(['mp3-id3v24', 'flac', 'm4a-aac'] as const)('%s', async (kind) => {
    const out = path.join(dir, `covered-${path.basename(files[kind])}`);
    await run('ffmpeg', ['-v', 'error', '-y', '-i', files[kind], '-i', path.join(dir, 'cover.png'), '-map', '0:a', '-map', '1', '-c', 'copy', '-disposition:v', 'attached_pic', out]);
    const plain = await readTags(out);
    expect(plain.tags.artwork).toEqual({ mime: 'image/png', width: 200, height: 150, size: cover.byteLength, sha256: sha256(cover) });
    expect(plain.artwork).toBeUndefined();
    const withBytes = await readTags(out, { artwork: true });
    expect(sha256(withBytes.artwork!.data)).toBe(sha256(cover));
    const art = await readArtwork(out);
    expect(art?.mime).toBe('image/png');
    expect(sha256(art!.data)).toBe(sha256(cover));
    expect(await readArtwork(files[kind])).toBeNull();
  });
});

describe('Ogg covers (read by our METADATA_BLOCK_PICTURE decoder)', () => {
  it.each(['ogg', 'opus'] as const)('%s: same picture as music-metadata decodes', async (kind) => {
    const { journal, close } = await openJournal(path.join(dir, `journal-${kind}`));
    try {
      const cover = await makeCover(dir, `ogg-cover-${kind}`, 'jpeg', 160, 120);
      const file = path.join(dir, `covered.${kind}`);
      await writeFile(file, await readFile(files[kind]));
      await safeWriteTags(file, { artwork: { mime: 'image/jpeg', data: cover } }, { journal, actor: 'test' });
      const theirs = selectCover((await parseFile(file)).common.picture);
      const ours = await readTags(file, { artwork: true });
      expect(sha256(theirs!.data)).toBe(sha256(cover));
      expect(sha256(ours.artwork!.data)).toBe(sha256(cover));
      expect(ours.tags.artwork).toEqual({ mime: 'image/jpeg', width: 160, height: 120, size: cover.byteLength, sha256: sha256(cover) });
    } finally {
      await close();
    }
  });
});

describe('what is not (readable) audio', () => {
  const expectError = async (file: string, kinds: string[], code?: string) => {
    const err = await readTags(file).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TagsonicError);
    expect(kinds).toContain((err as TagsonicError).kind);
    if (code) expect((err as TagsonicError).code).toBe(code);
    expect((err as TagsonicError).message).toContain(path.basename(file));
    return err as TagsonicError;
  };

  it('missing file', () => expectError(path.join(dir, 'nope.mp3'), ['not_found'], 'TAGSONIC_ERR_TAGS_NOT_FOUND'));

  it('a folder', async () => {
    await mkdir(path.join(dir, 'folder.mp3'));
    await expectError(path.join(dir, 'folder.mp3'), ['invalid'], 'TAGSONIC_ERR_TAGS_NOT_A_FILE');
  });

  it('zero bytes', async () => {
    await writeFile(path.join(dir, 'empty.flac'), '');
    await expectError(path.join(dir, 'empty.flac'), ['invalid'], 'TAGSONIC_ERR_TAGS_EMPTY_FILE');
  });

  it('text named .mp3', async () => {
    await writeFile(path.join(dir, 'notes.mp3'), 'these are my notes, not a song\n'.repeat(50));
    await expectError(path.join(dir, 'notes.mp3'), ['invalid', 'unsupported']);
  });

  it('random bytes named .flac, .m4a, .ogg, .wav', async () => {
    const noise = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 251);
    for (const ext of ['flac', 'm4a', 'ogg', 'wav']) {
      await writeFile(path.join(dir, `noise.${ext}`), noise);
      await expectError(path.join(dir, `noise.${ext}`), ['invalid', 'unsupported']);
    }
  });

  it('a PNG named .mp3', async () => {
    await writeFile(path.join(dir, 'picture.mp3'), await makeCover(dir, 'pic', 'png', 16, 16));
    await expectError(path.join(dir, 'picture.mp3'), ['invalid', 'unsupported'], 'TAGSONIC_ERR_TAGS_UNSUPPORTED_FORMAT');
  });

  it.each(['flac', 'm4a-aac', 'ogg', 'wav'] as const)('%s cut inside its header', async (kind) => {
    const cut = path.join(dir, `cut-${path.basename(files[kind])}`);
    await writeFile(cut, (await readFile(files[kind])).subarray(0, 30));
    await expectError(cut, ['invalid', 'unsupported']);
  });

  it('reads a file whose audio is cut short (the tags are intact)', async () => {
    const cut = path.join(dir, `short-${path.basename(files.flac)}`);
    await writeFile(cut, await readFile(files.flac));
    await truncate(cut, Math.floor((await readFile(files.flac)).byteLength * 0.6));
    expect((await readTags(cut)).tags.fields.title).toBe('七里香');
  });
});

describe('music-metadata patch (patches/music-metadata+12.1.0.patch)', () => {
  // music-metadata 12.1 rebuilt upper-cased copies of its tag maps on every parse (a fifth of the CPU of
  // a scan read); the patch builds them once. It also adds `commonPicturesOnly`: mapping every native tag
  // to a common one was another fifth of the parser's CPU, and we only use common pictures. `npm ci`
  // applies it (postinstall: patch-package). It also stops ID3v2 parsing at padding, and makes the Ogg and
  // ASF tokens read at the array's own offset (our tokenizer hands out views into shared slabs).
  it('builds the case-insensitive tag maps once, not per parse', async () => {
    const url = new URL('./common/CombinedTagMapper.js', import.meta.resolve('music-metadata'));
    const { CombinedTagMapper } = (await import(url.href)) as { CombinedTagMapper: new () => { tagMappers: Record<string, { tagMap: object }> } };
    const a = new CombinedTagMapper().tagMappers;
    const b = new CombinedTagMapper().tagMappers;
    for (const type of ['ID3v2.4', 'iTunes', 'APEv2', 'matroska']) {
      expect(a[type]?.tagMap, type).toBeDefined();
      expect(a[type]!.tagMap, type).toBe(b[type]!.tagMap);
    }
  });

  it('commonPicturesOnly maps pictures to common tags and nothing else; native tags are all there', async () => {
    const file = files['mp3-id3v24'];
    const cover = await makeCover(dir, 'patch-cover', 'png', 8, 8);
    const withCover = path.join(dir, 'patch-cover.mp3');
    await run('ffmpeg', ['-v', 'error', '-y', '-i', file, '-i', path.join(dir, 'patch-cover.png'), '-map', '0:a', '-map', '1', '-c', 'copy', '-disposition:v', 'attached_pic', '-id3v2_version', '4', withCover]);
    const full = await parseFile(withCover, { duration: false });
    const lean = await parseFile(withCover, { duration: false, commonPicturesOnly: true } as never);
    expect(full.common.title).toBe(FFMPEG_TAGS.title);
    expect(lean.common.title).toBeUndefined();
    expect(lean.common.picture?.[0]?.data).toEqual(cover);
    expect(lean.native).toEqual(full.native);
    expect(lean.format).toEqual(full.format);
  });

  it('builds debug messages only when debugging is on', async () => {
    // Parsers format a debug message per atom, frame or page (BigInt lengths included) even with
    // debugging off: 7 % of the parse. The patch puts every statement-level call behind debug.enabled.
    const lib = path.dirname(new URL(import.meta.resolve('music-metadata')).pathname);
    const sources = await Promise.all(
      (await readdir(lib, { recursive: true })).filter((f) => f.endsWith('.js')).map((f) => readFile(path.join(lib, f), 'utf8')),
    );
    const lines = sources.flatMap((s) => s.split('\n'));
    expect(lines.filter((l) => /^\s*if \(debug\.enabled\) debug\(/.test(l)).length).toBeGreaterThan(100);
    expect(lines.filter((l) => /^\s*debug\(/.test(l))).toEqual(['            debug(`tag ${tagType}.${tagId} = ${value}`);']);
  });

  it('imports each parser module once, not at every parse', async () => {
    // A dynamic import() resolves its specifier at every call: 4 % of a parse. The loaders keep the class.
    const lib = path.dirname(new URL(import.meta.resolve('music-metadata')).pathname);
    const loaders = (await readdir(lib, { recursive: true })).filter((f) => f.endsWith('Loader.js'));
    expect(loaders.length).toBeGreaterThanOrEqual(13);
    for (const f of loaders) expect(await readFile(path.join(lib, f), 'utf8'), f).toMatch(/return \(loaded \?\?= \(await import\(/);
  });

  it('stops at ID3v2 padding instead of parsing it as frames', async () => {
    // Taggers leave padding after the frames (TagLib 1 KiB); the parser read every 10 bytes of it as a
    // frame, with a warning each — a tenth of a scan's reading CPU.
    const mp3 = new Uint8Array(await readFile(files['mp3-id3v24']));
    const syncsafe = (n: number) => [(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f];
    const audio = mp3.subarray(10 + ((mp3[6]! << 21) | (mp3[7]! << 14) | (mp3[8]! << 7) | mp3[9]!));
    const text = new TextEncoder().encode('Padded');
    const frame = [...new TextEncoder().encode('TIT2'), ...syncsafe(text.length + 1), 0, 0, 3, ...text];
    const padding = 1024;
    const tagged = Uint8Array.from([...new TextEncoder().encode('ID3'), 4, 0, 0, ...syncsafe(frame.length + padding), ...frame, ...new Uint8Array(padding), ...audio]);
    const parsed = await parseBuffer(tagged, { mimeType: 'audio/mpeg' }, { duration: false });
    expect(parsed.native['ID3v2.4']).toEqual([{ id: 'TIT2', value: 'Padded' }]);
    expect(parsed.quality.warnings.filter((w) => /frame-header-ID/.test(w.message))).toEqual([]);
  });
});
