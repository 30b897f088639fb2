/**
 * The safe-write protocol's guarantees: the audio never changes, a bad temp file is refused, bad input
 * is refused before anything is written, and the original is untouched whenever a write fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, copyFile, mkdir, open, readdir, readFile, stat, symlink, truncate, utimes, writeFile, lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TagsonicError } from '../errors/index.ts';
import { readTags } from './read.ts';
import { safeWriteTags } from './safe-write.ts';
import { audioPayloadDigest } from './audio-payload.ts';
import { cleanupTempFiles, cleanupTempFilesUnder } from './temp-files.ts';
import type { TagEdit } from './model.ts';
import type { TagJournal } from './journal.ts';
import { SOURCE_KINDS, fileSha256, makeAudio, makeCover, openJournal, pcmMd5, tempDir, type SourceKind } from './test-fixtures.ts';

const run = promisify(execFile);

let dir: string;
let remove: () => Promise<void>;
let journal: TagJournal;
let closeJournal: () => Promise<void>;
const sources = {} as Record<SourceKind, string>;
const ctx = () => ({ journal, actor: 'test' });

beforeAll(async () => {
  ({ dir, remove } = await tempDir());
  ({ journal, close: closeJournal } = await openJournal(dir));
  await Promise.all(SOURCE_KINDS.map(async (kind, i) => (sources[kind] = await makeAudio(dir, `src-${kind}`, kind, { seed: i + 11, seconds: 2, tags: { title: 'original' } }))));
});

afterAll(async () => {
  await closeJournal();
  await remove();
});

let copies = 0;
async function copyOf(kind: SourceKind): Promise<string> {
  const file = path.join(dir, `copy-${++copies}-${path.basename(sources[kind])}`);
  await copyFile(sources[kind], file);
  return file;
}

async function expectRefused(work: Promise<unknown>, kinds: string[], code?: string): Promise<TagsonicError> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected a TagsonicError').toBeInstanceOf(TagsonicError);
  expect(kinds).toContain((err as TagsonicError).kind);
  if (code) expect((err as TagsonicError).code).toBe(code);
  return err as TagsonicError;
}

async function tempLeftovers(): Promise<string[]> {
  return (await readdir(dir)).filter((n) => n.includes('.tagsonic-'));
}

describe('audio payload', () => {
  it.each(SOURCE_KINDS)('%s: decoded audio and payload digest unchanged by a write', async (kind) => {
    const file = await copyOf(kind);
    const pcm = await pcmMd5(file);
    const format = (await readTags(file)).audio.format;
    const digest = await audioPayloadDigest(new Uint8Array(await readFile(file)), format, file);
    await safeWriteTags(file, { fields: { title: '新标题', album: 'A'.repeat(3000) }, artwork: { mime: 'image/png', data: await makeCover(dir, 'p', 'png', 64, 64) } }, ctx());
    expect(await pcmMd5(file)).toBe(pcm);
    expect(await audioPayloadDigest(new Uint8Array(await readFile(file)), format, file)).toEqual(digest);
  });

  it.each(SOURCE_KINDS)('%s: a temp file whose audio was damaged is refused, the original untouched', async (kind) => {
    const file = await copyOf(kind);
    const before = await fileSha256(file);
    const err = await expectRefused(
      safeWriteTags(file, { fields: { title: 'damaged' } }, ctx(), {
        afterTempWritten: async (temp) => {
          // Flip one byte three quarters into the file: audio data in every format here.
          const size = (await stat(temp)).size;
          const fh = await open(temp, 'r+');
          const at = Math.floor(size * 0.75);
          const b = Buffer.alloc(1);
          await fh.read(b, 0, 1, at);
          b[0] = b[0]! ^ 0x5a;
          await fh.write(b, 0, 1, at);
          await fh.close();
        },
      }),
      ['internal', 'invalid'],
    );
    // Either the digest differs or (Ogg CRC, FLAC CRC) the damaged temp no longer even parses.
    expect(['TAGSONIC_ERR_TAGS_PAYLOAD_CHANGED', 'TAGSONIC_ERR_TAGS_UNREADABLE', 'TAGSONIC_ERR_TAGS_TRUNCATED']).toContain(err.code);
    expect(await fileSha256(file)).toBe(before);
    expect(await tempLeftovers()).toEqual([]);
  });

  it('a temp file whose tags came out wrong is refused', async () => {
    const file = await copyOf('flac');
    const before = await fileSha256(file);
    const err = await expectRefused(
      safeWriteTags(file, { fields: { title: 'ABCDEFGH' } }, ctx(), {
        afterTempWritten: async (temp) => {
          const bytes = await readFile(temp);
          const at = bytes.indexOf('ABCDEFGH');
          bytes.write('ABCDEFGX', at, 'latin1');
          await writeFile(temp, bytes);
        },
      }),
      ['internal'],
      'TAGSONIC_ERR_TAGS_VERIFY_MISMATCH',
    );
    expect(err.details?.differences).toEqual([{ what: 'title', expected: 'ABCDEFGH', actual: 'ABCDEFGX' }]);
    expect(await fileSha256(file)).toBe(before);
    expect(await tempLeftovers()).toEqual([]);
  });
});

describe('files that cannot be written', () => {
  const cutKinds: SourceKind[] = ['mp3-id3v24', 'flac', 'm4a-aac', 'ogg', 'opus', 'wav', 'aiff'];
  it.each(cutKinds)('%s cut short: refused as truncated or unreadable, bytes unchanged', async (kind) => {
    const file = await copyOf(kind);
    await truncate(file, Math.floor((await stat(file)).size * 0.6) + 1);
    const before = await fileSha256(file);
    const err = await expectRefused(safeWriteTags(file, { fields: { title: 'x' } }, ctx()), ['invalid']);
    // music-metadata already fails on an MP4 whose moov is gone; the others parse and our check refuses them.
    expect(err.code).toBe(kind === 'm4a-aac' ? 'TAGSONIC_ERR_TAGS_UNREADABLE' : 'TAGSONIC_ERR_TAGS_TRUNCATED');
    expect(await fileSha256(file)).toBe(before);
    expect(await tempLeftovers()).toEqual([]);
  });

  it('zero bytes, text, random bytes, a picture, a folder, a missing file', async () => {
    const cases: Array<[string, string[]]> = [];
    await writeFile(path.join(dir, 'zero.mp3'), '');
    cases.push(['zero.mp3', ['invalid']]);
    await writeFile(path.join(dir, 'text.flac'), 'not audio at all\n'.repeat(100));
    cases.push(['text.flac', ['invalid', 'unsupported']]);
    await writeFile(path.join(dir, 'noise.m4a'), new Uint8Array(8192).map((_, i) => (i * 31 + 7) % 256));
    cases.push(['noise.m4a', ['invalid', 'unsupported']]);
    await writeFile(path.join(dir, 'image.ogg'), await makeCover(dir, 'img', 'jpeg', 32, 32));
    cases.push(['image.ogg', ['invalid', 'unsupported']]);
    for (const [name, kinds] of cases) {
      const before = await fileSha256(path.join(dir, name));
      await expectRefused(safeWriteTags(path.join(dir, name), { fields: { title: 'x' } }, ctx()), kinds);
      expect(await fileSha256(path.join(dir, name))).toBe(before);
    }
    await expectRefused(safeWriteTags(dir, { fields: { title: 'x' } }, ctx()), ['invalid'], 'TAGSONIC_ERR_TAGS_NOT_A_FILE');
    await expectRefused(safeWriteTags(path.join(dir, 'missing.mp3'), { fields: { title: 'x' } }, ctx()), ['not_found']);
    expect(await tempLeftovers()).toEqual([]);
  });

  it('a FLAC whose header was overwritten with garbage', async () => {
    const file = await copyOf('flac');
    const bytes = await readFile(file);
    bytes.fill(0x41, 8, 60); // inside STREAMINFO
    await writeFile(file, bytes);
    const before = await fileSha256(file);
    await expectRefused(safeWriteTags(file, { fields: { title: 'x' } }, ctx()), ['invalid', 'unsupported']);
    expect(await fileSha256(file)).toBe(before);
  });
});

describe('edits that are refused before anything is written', () => {
  const bad: Array<[string, TagEdit]> = [
    ['year not a year', { fields: { year: 'last summer' } }],
    ['track number not a number', { fields: { tracknumber: 'three' } }],
    ['track number too large for MP4', { fields: { tracknumber: '70000' } }],
    ['NUL in a value', { fields: { title: 'a\u0000b' } }],
    ['unknown field', { fields: { mood: 'happy' } as never }],
    ['gain without a number', { fields: { replaygain_track_gain: 'loud' } }],
    ['cover that is not an image', { artwork: { mime: 'image/jpeg', data: new TextEncoder().encode('not a jpeg') } }],
    ['empty cover', { artwork: { mime: 'image/jpeg', data: new Uint8Array(0) } }],
  ];
  it.each(bad)('%s', async (_, edit) => {
    const file = await copyOf('mp3-id3v24');
    const before = await fileSha256(file);
    await expectRefused(safeWriteTags(file, edit, ctx()), ['invalid']);
    expect(await fileSha256(file)).toBe(before);
  });

  it('a field the format cannot hold, and covers for formats we do not write them to', async () => {
    const wma = path.join(dir, 'song.wma');
    await run('ffmpeg', ['-v', 'error', '-y', '-i', sources.flac, '-c:a', 'wmav2', wma]);
    await expectRefused(safeWriteTags(wma, { fields: { description: 'x' } }, ctx()), ['unsupported'], 'TAGSONIC_ERR_TAGS_FIELD_UNSUPPORTED');
    await expectRefused(safeWriteTags(wma, { artwork: { mime: 'image/png', data: await makeCover(dir, 'w', 'png', 8, 8) } }, ctx()), ['unsupported'], 'TAGSONIC_ERR_TAGS_ARTWORK_UNSUPPORTED');
    // …while the fields WMA does hold are written (and verified through the ffmpeg stream hash).
    await safeWriteTags(wma, { fields: { title: '标题', artist: 'A', tracknumber: '2', totaltracks: '9' } }, ctx());
    expect((await readTags(wma)).tags.fields).toMatchObject({ title: '标题', artist: 'A', tracknumber: '2', totaltracks: '9' });
  });
});

describe('behaviour of a successful write', () => {
  it('a write that changes nothing does not touch the file', async () => {
    const file = await copyOf('flac');
    await safeWriteTags(file, { fields: { title: 'same', artist: 'me' } }, ctx());
    const st = await stat(file);
    const sha = await fileSha256(file);
    const result = await safeWriteTags(file, { fields: { title: 'same', artist: ' me ' } }, ctx());
    expect(result.changed).toEqual([]);
    expect(result.artworkChanged).toBe(false);
    expect(await journal.get(result.writeId)).toBeNull();
    expect((await stat(file)).mtimeMs).toBe(st.mtimeMs);
    expect(await fileSha256(file)).toBe(sha);
  });

  it('keeps permission bits, advances the modification time, journals the write', async () => {
    const file = await copyOf('m4a-aac');
    await chmod(file, 0o640);
    await utimes(file, new Date('2020-01-01'), new Date('2020-01-01'));
    const result = await safeWriteTags(file, { fields: { title: 'perm' } }, { journal, actor: 'alice', taskId: 'task-perm', reason: 'test' });
    const st = await stat(file);
    expect(st.mode & 0o777).toBe(0o640);
    expect(st.mtimeMs).toBeGreaterThan(new Date('2021-01-01').getTime());
    const entry = await journal.get(result.writeId);
    expect(entry).toMatchObject({ state: 'committed', path: file, actor: 'alice', taskId: 'task-perm', reason: 'test', changed: ['title'], format: 'm4a' });
    expect(entry!.before.fields.title).toBe('original');
    expect(entry!.after.fields.title).toBe('perm');
  });

  it('writes through a symlink to its target and keeps the link', async () => {
    const file = await copyOf('ogg');
    const link = path.join(dir, 'link.ogg');
    await symlink(file, link);
    await safeWriteTags(link, { fields: { title: 'via link' } }, ctx());
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await realpath(link)).toBe(await realpath(file));
    expect((await readTags(file)).tags.fields.title).toBe('via link');
  });

  it('serialises concurrent writes to one file so none is lost', async () => {
    const file = await copyOf('opus');
    await Promise.all([
      safeWriteTags(file, { fields: { title: 'one' } }, ctx()),
      safeWriteTags(file, { fields: { album: 'two' } }, ctx()),
      safeWriteTags(file, { fields: { genre: 'three' } }, ctx()),
    ]);
    expect((await readTags(file)).tags.fields).toMatchObject({ title: 'one', album: 'two', genre: 'three' });
  });

  it('refuses to replace a file that changed while it was being written', async () => {
    const file = await copyOf('wav');
    // Another program saves its own version of the file in the middle of our write.
    const theirs = await makeAudio(dir, 'theirs', 'wav', { seed: 99, tags: { title: 'theirs' } });
    const err = await expectRefused(
      safeWriteTags(file, { fields: { title: 'late' } }, ctx(), { afterTempWritten: () => copyFile(theirs, file) }),
      ['conflict'],
      'TAGSONIC_ERR_TAGS_FILE_CHANGED',
    );
    expect(err.message).toContain('changed while');
    expect(await fileSha256(file)).toBe(await fileSha256(theirs));
    expect(await tempLeftovers()).toEqual([]);
    const [entry] = await journal.listByPath(file);
    expect(entry).toMatchObject({ state: 'failed' });
  });

  it('keeps an ID3v2.3 file\'s "A / B" artist when only the title changes', async () => {
    const file = path.join(dir, 'legacy.mp3');
    await run('ffmpeg', ['-v', 'error', '-y', '-i', sources['mp3-id3v23'], '-c', 'copy', '-id3v2_version', '3', '-metadata', 'artist=王菲 / 那英', '-metadata', 'composer=A/B', file]);
    const before = await readTags(file);
    expect(before.tags.fields.artist).toBe('王菲/那英');
    expect(before.tags.artists).toEqual(['王菲', '那英']);
    await safeWriteTags(file, { fields: { title: '相约一九九八' } }, ctx());
    const after = await readTags(file);
    // Upgraded to ID3v2.4, the stored text reads back whole.
    expect(after.tags.fields).toMatchObject({ title: '相约一九九八', artist: '王菲 / 那英', composer: 'A/B' });
  });
});

describe('temp file clean-up', () => {
  it('removes only Tagsonic temp files, in one folder or below several roots', async () => {
    const { dir: root, remove: removeRoot } = await tempDir('tagsonic-cleanup-');
    try {
      const nested = path.join(root, 'Artist', 'Album');
      await mkdir(nested, { recursive: true });
      const temps = [path.join(root, `.a.flac.tagsonic-${'0'.repeat(24)}.tmp`), path.join(nested, `.晴天.mp3.tagsonic-${'a1'.repeat(12)}.tmp`)];
      const keep = [path.join(root, 'a.flac'), path.join(nested, '.hidden.tmp'), path.join(nested, '.x.tagsonic-123.tmp')];
      for (const f of [...temps, ...keep]) await writeFile(f, 'x');
      expect(await cleanupTempFiles(nested, { olderThanMs: 60_000 })).toEqual([]);
      expect((await cleanupTempFilesUnder([root])).sort()).toEqual([...temps].sort());
      for (const f of keep) expect((await stat(f)).isFile()).toBe(true);
    } finally {
      await removeRoot();
    }
  });
});
