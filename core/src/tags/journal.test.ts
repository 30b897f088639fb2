/**
 * Journal and undo against the real embedded store: one write undone (fields and cover bit-exact,
 * checked with ffprobe/ffmpeg), a whole task undone, conflicts, double undo, and crash recovery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFile, writeFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { TagsonicError } from '../errors/index.ts';
import type { Store } from '../store/index.ts';
import { newId } from '../ids.ts';
import { readTags } from './read.ts';
import { safeWriteTags } from './safe-write.ts';
import { undoTask, undoWrite } from './undo.ts';
import { TAG_JOURNAL_COLLECTION, type JournalEntry, type TagJournal } from './journal.ts';
import { ffmpegCoverSha256, ffprobe, makeAudio, makeCover, openJournal, pcmMd5, probeTags, sha256, tempDir, type SourceKind } from './test-fixtures.ts';

const run = promisify(execFile);

let dir: string;
let remove: () => Promise<void>;
let journal: TagJournal;
let store: Store;
let closeJournal: () => Promise<void>;
let coverA: Uint8Array;
let coverB: Uint8Array;
const ctx = (taskId?: string) => ({ journal, actor: 'tester', ...(taskId ? { taskId } : {}) });

beforeAll(async () => {
  ({ dir, remove } = await tempDir());
  ({ journal, store, close: closeJournal } = await openJournal(dir));
  coverA = await makeCover(dir, 'cover-a', 'jpeg', 300, 300);
  coverB = await makeCover(dir, 'cover-b', 'png', 120, 90);
});

afterAll(async () => {
  await closeJournal();
  await remove();
});

/** A file as a user would have it before Tagsonic: tags and a cover put there by ffmpeg. */
async function userFile(kind: SourceKind, name: string): Promise<string> {
  const plain = await makeAudio(dir, `${name}-plain`, kind, { seed: name.length + 5, tags: { title: '原标题', artist: '原歌手', album: '原专辑', track: '4/10' } });
  if (kind === 'opus' || kind === 'ogg' || kind === 'wav' || kind === 'aiff') {
    // ffmpeg cannot attach covers to these; the starting cover is put there outside any task.
    await safeWriteTags(plain, { artwork: { mime: 'image/jpeg', data: coverA } }, { journal, actor: 'setup' });
    return plain;
  }
  const file = path.join(dir, `${name}${path.extname(plain)}`);
  await run('ffmpeg', ['-v', 'error', '-y', '-i', plain, '-i', path.join(dir, 'cover-a.jpg'), '-map', '0:a', '-map', '1', '-c', 'copy', '-disposition:v', 'attached_pic', ...(kind.startsWith('mp3') ? ['-id3v2_version', '3'] : []), file]);
  return file;
}

describe('undo of one write', () => {
  it.each(['mp3-id3v23', 'flac', 'm4a-aac', 'opus', 'wav'] as const)('%s: fields and cover restored exactly', async (kind) => {
    const file = await userFile(kind, `undo-${kind}`);
    const original = await readTags(file);
    expect(original.tags.artwork?.sha256).toBe(sha256(coverA));
    const pcm = await pcmMd5(file);

    const write = await safeWriteTags(file, { fields: { title: '新标题', artist: '甲 / 乙', tracknumber: '5', lyrics: '新歌词' }, artwork: { mime: 'image/png', data: coverB } }, ctx());
    expect(await ffmpegCoverSha256(file)).toBe(sha256(coverB));

    const undo = await undoWrite(write.writeId, ctx());
    const restored = await readTags(file);
    expect(restored.tags.fields).toEqual(original.tags.fields);
    expect(restored.tags.artists).toEqual(original.tags.artists);
    expect(restored.tags.artwork).toEqual(original.tags.artwork);
    // Independent checks: ffprobe sees the old title, ffmpeg extracts the very same cover bytes.
    expect(probeTags(await ffprobe(file)).title).toBe('原标题');
    expect(await ffmpegCoverSha256(file)).toBe(sha256(coverA));
    expect(await pcmMd5(file)).toBe(pcm);

    expect(await journal.get(write.writeId)).toMatchObject({ state: 'undone', undoneBy: undo.writeId });
    expect(await journal.get(undo.writeId)).toMatchObject({ state: 'committed', undoOf: write.writeId });
    // Both covers were kept, content-addressed, before the entries were committed.
    for (const cover of [coverA, coverB]) expect(sha256(await readFile(path.join(dir, 'blobs', sha256(cover))))).toBe(sha256(cover));
  });

  it('undoing a cover removal puts the exact picture back', async () => {
    const file = await userFile('flac', 'removal');
    const write = await safeWriteTags(file, { artwork: null }, ctx());
    expect(await ffmpegCoverSha256(file)).toBeNull();
    await undoWrite(write.writeId, ctx());
    expect(await ffmpegCoverSha256(file)).toBe(sha256(coverA));
  });

  it('refuses a second undo clearly', async () => {
    const file = await userFile('mp3-id3v24', 'twice');
    const write = await safeWriteTags(file, { fields: { title: 'once' } }, ctx());
    await undoWrite(write.writeId, ctx());
    const err = await undoWrite(write.writeId, ctx()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TagsonicError);
    expect(err).toMatchObject({ kind: 'conflict', code: 'TAGSONIC_ERR_TAGS_ALREADY_UNDONE' });
    expect((err as TagsonicError).message).toContain('already undone');
  });

  it('refuses to undo a write the file has moved on from, unless forced', async () => {
    const file = await userFile('m4a-alac', 'moved-on');
    const write = await safeWriteTags(file, { fields: { title: 'ours', album: 'ours' } }, ctx());
    await safeWriteTags(file, { fields: { album: 'someone else' } }, { journal, actor: 'other' });
    const bytes = await readFile(file);

    const err = await undoWrite(write.writeId, ctx()).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'conflict', code: 'TAGSONIC_ERR_TAGS_UNDO_CONFLICT' });
    expect((err as TagsonicError).details?.differences).toEqual([{ what: 'album', expected: 'ours', actual: 'someone else' }]);
    expect(Buffer.compare(await readFile(file), bytes)).toBe(0);
    expect(await journal.get(write.writeId)).toMatchObject({ state: 'committed' });

    await undoWrite(write.writeId, ctx(), { force: true });
    expect((await readTags(file)).tags.fields).toMatchObject({ title: '原标题', album: '原专辑' });
    expect(await journal.get(write.writeId)).toMatchObject({ state: 'undone' });
  });

  it('tells apart an unknown write', async () => {
    const err = await undoWrite(newId(), ctx()).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'not_found', code: 'TAGSONIC_ERR_TAGS_JOURNAL_NOT_FOUND' });
  });
});

describe('undo of a task', () => {
  it('undoes every write of the task, newest first, and reports each file', async () => {
    const taskId = newId();
    const files = [await userFile('flac', 'task-1'), await userFile('ogg', 'task-2'), await userFile('mp3-id3v24', 'task-3')];
    const originals = await Promise.all(files.map(async (f) => (await readTags(f)).tags));
    for (const [i, f] of files.entries()) await safeWriteTags(f, { fields: { album: `批量 ${i}`, genre: 'Batch' } }, ctx(taskId));
    // A second write of the same task on the first file must be undone before the first one.
    await safeWriteTags(files[0]!, { fields: { title: 'second pass' }, artwork: { mime: 'image/png', data: coverB } }, ctx(taskId));
    // A write outside the task stays.
    const outside = await userFile('flac', 'task-outside');
    await safeWriteTags(outside, { fields: { album: 'not in the task' } }, ctx());

    const report = await undoTask(taskId, { journal, actor: 'tester', taskId: newId() });
    expect(report).toMatchObject({ taskId, undone: 4, skipped: 0, failed: 0 });
    expect(report.items.map((i) => i.path)).toEqual([files[0], files[2], files[1], files[0]]);
    for (const [i, f] of files.entries()) expect((await readTags(f)).tags).toEqual(originals[i]);
    expect((await readTags(outside)).tags.fields.album).toBe('not in the task');

    const again = await undoTask(taskId, ctx());
    expect(again).toMatchObject({ undone: 0, skipped: 4, failed: 0 });
  });

  it('reports a file that cannot be undone and carries on with the others', async () => {
    const taskId = newId();
    const a = await userFile('flac', 'partial-a');
    const b = await userFile('flac', 'partial-b');
    await safeWriteTags(a, { fields: { title: 'A' } }, ctx(taskId));
    await safeWriteTags(b, { fields: { title: 'B' } }, ctx(taskId));
    await safeWriteTags(b, { fields: { title: 'changed later' } }, ctx());
    const report = await undoTask(taskId, ctx());
    expect(report).toMatchObject({ undone: 1, failed: 1 });
    expect(report.items.find((i) => i.path === b)).toMatchObject({ status: 'failed', error: { code: 'TAGSONIC_ERR_TAGS_UNDO_CONFLICT' } });
    expect((await readTags(a)).tags.fields.title).toBe('原标题');
  });
});

describe('recovery after a crash', () => {
  it('commits a landed write, fails one that never landed, removes temp files', async () => {
    const entries = store.collection<JournalEntry>(TAG_JOURNAL_COLLECTION);
    const landedFile = await userFile('flac', 'landed');
    const landed = await safeWriteTags(landedFile, { fields: { title: 'landed' } }, ctx());
    // As if the process died between the rename and the commit.
    await entries.updateOne({ _id: landed.writeId }, { $set: { state: 'pending' } });

    const lostFile = await userFile('flac', 'lost');
    const before = (await readTags(lostFile)).tags;
    const lostId = newId();
    await journal.begin({
      _id: lostId,
      path: lostFile,
      format: 'flac',
      actor: 'tester',
      taskId: null,
      reason: null,
      undoOf: null,
      at: new Date().toISOString(),
      before,
      after: { ...before, fields: { ...before.fields, title: 'never written' } },
      changed: ['title'],
      artworkChanged: false,
    });
    const leftover = path.join(dir, `.lost.flac.tagsonic-${lostId}.tmp`);
    await writeFile(leftover, 'half a file');

    const report = await journal.recover();
    expect(report.committed).toContain(landed.writeId);
    expect(report.failed).toContain(lostId);
    expect(report.tempFilesRemoved).toContain(leftover);
    expect((await readdir(dir)).filter((n) => n.includes('.tagsonic-'))).toEqual([]);
    expect(await journal.get(landed.writeId)).toMatchObject({ state: 'committed' });
    expect(await journal.get(lostId)).toMatchObject({ state: 'failed' });
    // The recovered write can be undone like any other.
    await undoWrite(landed.writeId, ctx());
    expect((await readTags(landedFile)).tags.fields.title).toBe('原标题');
  });
});
