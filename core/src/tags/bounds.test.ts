/**
 * Malformed media, the memory side: tags beyond the bounds of bounds.ts. Reading leaves out what is
 * beyond them (and says so) or refuses with TAGSONIC_ERR_TAGS_TAG_TOO_LARGE; writing refuses such files
 * and edits beyond the bounds before TagLib loads anything. The file of issue 10 item 4 (a 30 MB TXXX
 * frame and 50,000 TIT2 frames) is read and written through the real engine in a child process whose
 * memory is measured.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { promisify } from 'node:util';
import { TagsonicError } from '../errors/index.ts';
import { readTags } from './read.ts';
import { safeWriteTags } from './safe-write.ts';
import { MAX_EDIT_CHARS, MAX_FIELD_CHARS, MAX_FRAMES, MAX_NAMES, MAX_PICTURE_BYTES, MAX_TAG_ITEMS } from './bounds.ts';
import type { TagJournal } from './journal.ts';
import type { TagEdit } from './model.ts';
import { fileSha256, makeAudio, openJournal, tempDir } from './test-fixtures.ts';
import {
  apicFrame,
  bigJpeg,
  flacCommentBody,
  flacPictureBody,
  id3v2Tag,
  makeOversizeTagMp3,
  textFrame,
  txxxFrame,
  utf16TextFrame,
  writeMp3WithTag,
  writeMp3WithTags,
  riffInfoList,
  writeFlacWithBlocks,
  writeOggWithComments,
  writeWavWithChunks,
  writeWavWithId3Chunks,
  type OversizeKind,
} from '../../../test/support/oversize-tags.ts';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./test-oversize-child.ts', import.meta.url));
const MiB = 1024 * 1024;

let dir: string;
let remove: () => Promise<void>;
let journal: TagJournal;
let closeJournal: () => Promise<void>;
let plain: string;

beforeAll(async () => {
  ({ dir, remove } = await tempDir('tagsonic-bounds-'));
  ({ journal, close: closeJournal } = await openJournal(dir));
  plain = await makeAudio(dir, 'plain', 'mp3-id3v24', { tags: { title: 'Plain' } });
});

afterAll(async () => {
  await closeJournal();
  await remove();
});

const ctx = () => ({ journal, actor: 'test' });

async function refusal(work: Promise<unknown>): Promise<TagsonicError> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected a TagsonicError').toBeInstanceOf(TagsonicError);
  return err as TagsonicError;
}

/** Refused with `code`, the file byte for byte as it was, no temp file left, nothing journaled for it. */
async function expectWriteRefused(file: string, edit: TagEdit, code: string): Promise<TagsonicError> {
  const sha = await fileSha256(file);
  const err = await refusal(safeWriteTags(file, edit, ctx()));
  expect(err.code).toBe(code);
  expect(await fileSha256(file)).toBe(sha);
  expect((await readdir(path.dirname(file))).filter((n) => n.includes('.tagsonic-'))).toEqual([]);
  return err;
}

interface ChildReport {
  read: { ok: true; title: string | null; artwork: unknown; overflow: { frames: number; bytes: number; largest: { id: string; bytes: number } } | null } | { ok: false; code: string };
  write: { ok: true } | { ok: false; code: string; message: string };
  baselineMiB: number;
  peakMiB: number;
  afterMiB: number;
}

describe('the file of issue 10 item 4, read and written by the real engine in a child process', () => {
  it.each<[OversizeKind, 'local' | 'pool', string, number]>([
    ['frames', 'local', 'TXXX', 40_001], // the 30 MB TXXX and the TIT2 frames after the first 10,000
    ['frames', 'pool', 'TXXX', 40_001], // written on a writer thread, as the server writes
    ['picture', 'local', 'APIC', 1],
  ])('%s, written %s: read without what is beyond bounds, rewrite refused, memory stays bounded', { timeout: 120_000 }, async (kind, mode, largest, leftOut) => {
    const work = path.join(dir, `child-${kind}-${mode}`);
    await mkdir(path.join(work, 'data'), { recursive: true });
    const file = path.join(work, `${kind}.mp3`);
    await makeOversizeTagMp3(file, kind);
    const warmup = path.join(work, 'warm-up.mp3');
    await copyFile(plain, warmup);
    const sha = await fileSha256(file);

    const { stdout } = await run(process.execPath, ['--expose-gc', CHILD, file, warmup, path.join(work, 'data'), mode], { maxBuffer: 16 * MiB });
    const report = JSON.parse(stdout) as ChildReport;
    console.log(`${kind} (${mode}): baseline ${report.baselineMiB} MiB, peak ${report.peakMiB} MiB, after ${report.afterMiB} MiB`);

    expect(report.read.ok).toBe(true);
    if (report.read.ok) {
      expect(report.read.overflow).toMatchObject({ frames: leftOut, largest: { id: largest } });
      expect(report.read.artwork).toBeNull();
      if (kind === 'frames') expect(report.read.title!.split('; ')).toHaveLength(MAX_FRAMES);
      else expect(report.read.title).toBe('Big cover');
    }
    expect(report.write).toMatchObject({ ok: false, code: 'TAGSONIC_ERR_TAGS_TAG_TOO_LARGE' });
    expect(await fileSha256(file)).toBe(sha);
    // Before the bounds: +739 MiB at the peak and +707 MiB for good (frames), +241 / +141 MiB (picture).
    expect(report.peakMiB - report.baselineMiB).toBeLessThan(150);
    expect(report.afterMiB - report.baselineMiB).toBeLessThan(50);
  });
});

describe('memory a write leaves behind', () => {
  // On a writer thread the dropped heap goes at that thread's next major GC, which its next write brings
  // (a new TagLib instance): measured +202 MiB while the thread idles after the big write, +2 MiB after.
  it('a 100 MB WAV is written, and TagLib\'s heap that grew for it does not stay', { timeout: 120_000 }, async () => {
    const work = path.join(dir, 'child-wav');
    await mkdir(path.join(work, 'data'), { recursive: true });
    const file = path.join(work, 'long.wav');
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'anoisesrc=duration=600:sample_rate=44100', '-ac', '2', '-c:a', 'pcm_s16le', file]);
    const warmup = path.join(work, 'warm-up.mp3');
    await copyFile(plain, warmup);

    const { stdout } = await run(process.execPath, ['--expose-gc', CHILD, file, warmup, path.join(work, 'data'), 'local'], { maxBuffer: 16 * MiB });
    const report = JSON.parse(stdout) as ChildReport;
    console.log(`100 MB WAV: baseline ${report.baselineMiB} MiB, peak ${report.peakMiB} MiB, after ${report.afterMiB} MiB`);
    expect(report.write).toMatchObject({ ok: true, changed: ['title'] });
    expect((await readTags(file)).tags.fields.title).toBe('Edited');
    // Before: +200 MiB for good (the heap holds about twice the largest file it edited).
    expect(report.afterMiB - report.baselineMiB).toBeLessThan(50);
  });
});

describe('reading a tag beyond bounds', () => {
  it('leaves out a frame bigger than a frame may be and reads the rest', async () => {
    const file = path.join(dir, 'big-frame.mp3');
    await writeMp3WithTag(file, [textFrame('TIT2', 'Kept'), txxxFrame('JUNK', 5 * MiB), textFrame('TPE1', 'Still here')]);
    const { tags, overflow } = await readTags(file);
    expect(tags.fields.title).toBe('Kept');
    expect(tags.fields.artist).toBe('Still here');
    expect(overflow).toEqual({ frames: 1, bytes: 5 * MiB + 16, largest: { id: 'TXXX', bytes: 5 * MiB + 16 } });
  });

  it(`reads the first ${MAX_FRAMES} frames of a tag with more`, async () => {
    const file = path.join(dir, 'many-frames.mp3');
    await writeMp3WithTag(file, Array.from({ length: MAX_FRAMES + 5 }, (_, i) => textFrame('TIT2', `T${i}`)));
    const { tags, overflow } = await readTags(file);
    expect(tags.fields.title!.split('; ')).toHaveLength(MAX_FRAMES);
    expect(overflow).toMatchObject({ frames: 5, largest: { id: 'TIT2' } });
  });

  it('counts the values of a text frame: one frame of 10,001 artists is left out, long UTF-16 text is not', async () => {
    const file = path.join(dir, 'many-values.mp3');
    await writeMp3WithTag(file, [
      textFrame('TIT2', 'Title'),
      textFrame('TPE1', Array.from({ length: MAX_FRAMES + 1 }, (_, i) => `A${i}`).join('\0')),
      utf16TextFrame('TXXX', 'NOTES\0' + 'la la la\n'.repeat(20_000)),
      utf16TextFrame('TCOM', 'Composer'),
    ]);
    const { tags, overflow } = await readTags(file);
    expect(tags.fields.title).toBe('Title');
    expect(tags.fields.artist).toBeNull();
    expect(tags.fields.composer).toBe('Composer');
    expect(overflow).toMatchObject({ frames: 1, largest: { id: 'TPE1' } });
  });

  it('measures every ID3v2 tag in a row, as music-metadata reads them all', async () => {
    const file = path.join(dir, 'two-tags.mp3');
    await writeMp3WithTags(file, [id3v2Tag([textFrame('TIT2', 'First')]), id3v2Tag([textFrame('TPE1', 'Second'), txxxFrame('JUNK', 5 * MiB)])]);
    const { tags, overflow } = await readTags(file);
    expect(tags.fields.title).toBe('First');
    expect(tags.fields.artist).toBe('Second');
    expect(overflow).toMatchObject({ frames: 1, largest: { id: 'TXXX' } });
    expect((await readTags(file)).audio.duration).toBeGreaterThan(1.5);
  });

  it('reads a big cover within bounds in full, with nothing left out', async () => {
    const file = path.join(dir, 'big-cover.mp3');
    await writeMp3WithTag(file, [textFrame('TIT2', 'Cover'), apicFrame('image/jpeg', bigJpeg(12 * MiB, 3000, 3000))]);
    const result = await readTags(file, { artwork: true });
    expect(result.tags.artwork).toMatchObject({ mime: 'image/jpeg', width: 3000, height: 3000, size: 12 * MiB });
    expect(result.artwork!.data.byteLength).toBe(12 * MiB);
    expect(result.overflow).toBeUndefined();
  });

  it('leaves out FLAC pictures past the tag bound, and a comment block with too many comments', async () => {
    const file = path.join(dir, 'pictures.flac');
    const comments = { type: 4, body: flacCommentBody(['TITLE=Three covers', 'ARTIST=Scanner']) };
    const picture = (seed: number) => ({ type: 6, body: flacPictureBody('image/jpeg', bigJpeg(10 * MiB, 1000 + seed, 1000)) });
    await writeFlacWithBlocks(file, [comments, picture(1), picture(2), picture(3)]);
    const pictures = await readTags(file);
    expect(pictures.tags.fields.title).toBe('Three covers');
    expect(pictures.tags.artwork).toMatchObject({ width: 1001, size: 10 * MiB });
    expect(pictures.overflow).toMatchObject({ frames: 1, largest: { id: 'PICTURE' } });
    expect(pictures.audio).toMatchObject({ format: 'flac', sampleRate: 44100 });
    await expectWriteRefused(file, { fields: { title: 'x' } }, 'TAGSONIC_ERR_TAGS_TAG_TOO_LARGE');

    const many = path.join(dir, 'comments.flac');
    await writeFlacWithBlocks(many, [{ type: 4, body: flacCommentBody(Array.from({ length: MAX_FRAMES + 1 }, (_, i) => `C${i}=x`)) }]);
    const read = await readTags(many);
    expect(read.overflow).toMatchObject({ frames: 1, largest: { id: 'VORBIS_COMMENT' } });
    expect(read.audio.sampleRate).toBe(44100);
  });

  it('refuses tags it cannot cut: a WAV id3 chunk and an unsynchronised ID3v2.3 tag of 30 MB', async () => {
    const wav = path.join(dir, 'big-chunk.wav');
    await writeWavWithId3Chunks(wav, [id3v2Tag([textFrame('TIT2', 'wav'), txxxFrame('JUNK', 30 * MiB)])]);
    const mp3 = path.join(dir, 'unsync.mp3');
    await writeMp3WithTag(mp3, [textFrame('TIT2', 'unsync'), txxxFrame('JUNK', 30 * MiB)], { major: 3, flags: 0x80 });
    for (const file of [wav, mp3]) {
      const err = await refusal(readTags(file));
      expect(err.code).toBe('TAGSONIC_ERR_TAGS_TAG_TOO_LARGE');
      expect(err.message).toContain(path.basename(file));
      await expectWriteRefused(file, { fields: { title: 'x' } }, 'TAGSONIC_ERR_TAGS_TAG_TOO_LARGE');
    }
  });

  it('refuses a WAV whose id3 chunk holds more values than a tag may (it cannot be cut inside the chunk)', async () => {
    const wav = path.join(dir, 'chunk-values.wav');
    const artists = textFrame('TPE1', Array.from({ length: MAX_FRAMES + 1 }, (_, i) => `A${i}`).join('\0'));
    await writeWavWithId3Chunks(wav, [id3v2Tag([textFrame('TIT2', 'wav'), artists, txxxFrame('FILL', 200 * 1024)])]);
    const err = await refusal(readTags(wav));
    expect(err.code).toBe('TAGSONIC_ERR_TAGS_TAG_TOO_LARGE');
    expect(err.message).toMatch(/TPE1 frame.*cannot leave them out/);
  });

  it('refuses a file whose tags are each within bounds but not all together (four 20 MiB WAV id3 chunks)', async () => {
    const wav = path.join(dir, 'many-chunks.wav');
    const chunk = id3v2Tag([textFrame('TIT2', 'chunk'), apicFrame('image/jpeg', bigJpeg(15 * MiB)), txxxFrame('MORE', 4 * MiB)]);
    await writeWavWithId3Chunks(wav, [chunk, chunk, chunk, chunk]);
    const err = await refusal(readTags(wav));
    expect(err.code).toBe('TAGSONIC_ERR_TAGS_TAG_TOO_LARGE');
    expect(err.message).toMatch(/in all/);
  });

  it('refuses tags of too many tiny items: RIFF INFO items past the item bound, Ogg comments past the frame bound', async () => {
    const wav = path.join(dir, 'many-items.wav');
    await writeWavWithChunks(wav, [riffInfoList(Array.from({ length: MAX_TAG_ITEMS + 1 }, () => ['ICMT', 'x'] as const))]);
    const ogg = path.join(dir, 'many-comments.ogg');
    await writeOggWithComments(ogg, MAX_FRAMES + 1);
    for (const file of [wav, ogg]) {
      const err = await refusal(readTags(file));
      expect(err.code).toBe('TAGSONIC_ERR_TAGS_TAG_TOO_LARGE');
      expect(err.message).toMatch(/items or more/);
    }
    const fine = path.join(dir, 'some-comments.ogg');
    await writeOggWithComments(fine, 50);
    expect((await readTags(fine)).tags.fields.title).toBe('Many');
  });
});

describe('writing beyond bounds', () => {
  it('refuses to rewrite a file whose tag holds a frame beyond bounds, saying which', async () => {
    const file = path.join(dir, 'refuse-frame.mp3');
    await writeMp3WithTag(file, [textFrame('TIT2', 'Kept'), txxxFrame('JUNK', 5 * MiB)]);
    const err = await expectWriteRefused(file, { fields: { title: 'New' } }, 'TAGSONIC_ERR_TAGS_TAG_TOO_LARGE');
    expect(err.message).toMatch(/5\.0 MiB TXXX frame/);
    expect(err.details).toMatchObject({ overflow: { frames: 1, largest: { id: 'TXXX' } } });
  });

  it.each<[string, TagEdit]>([
    ['a field longer than a field may be', { fields: { lyrics: 'x'.repeat(MAX_FIELD_CHARS + 1) } }],
    ['more text in one edit than a tag holds', { fields: { lyrics: 'x'.repeat(MAX_FIELD_CHARS), comment: 'y'.repeat(MAX_EDIT_CHARS - MAX_FIELD_CHARS + 1) } }],
    ['too many names', { fields: { artist: 'Many' }, artists: Array.from({ length: MAX_NAMES + 1 }, (_, i) => `A${i}`) }],
    ['a cover bigger than any format holds', { artwork: { mime: 'image/jpeg', data: bigJpeg(MAX_PICTURE_BYTES + 1) } }],
  ])('refuses an edit with %s before the file is read', async (_what, edit) => {
    const file = path.join(dir, `edit-${Math.random().toString(36).slice(2)}.mp3`);
    await copyFile(plain, file);
    await expectWriteRefused(file, edit, 'TAGSONIC_ERR_TAGS_EDIT_TOO_LARGE');
  });
});
