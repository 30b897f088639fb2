/**
 * Journal and undo against the real embedded store: one write undone (fields and cover bit-exact,
 * checked with ffprobe/ffmpeg), a whole task undone, conflicts, double undo, and crash recovery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, readFile, realpath, utimes, writeFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { TagsonicError } from '../errors/index.ts';
import type { Store } from '../store/index.ts';
import { newId } from '../ids.ts';
import { readTags } from './read.ts';
import { safeWriteTags } from './safe-write.ts';
import { undoTask, undoWrite } from './undo.ts';
import { TAG_JOURNAL_COLLECTION, createTagJournal, type JournalEntry, type NewJournalEntry, type TagJournal } from './journal.ts';
import { tempPathFor } from './temp-files.ts';
import { TaskLeases } from '../tasks/leases.ts';
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

describe('recovery beside live writers (several processes sharing one store)', () => {
  /** A pending write of `file` changing its title; `landed`: the file already holds it (renamed, not yet committed). */
  async function pendingWrite(writer: TagJournal, file: string, landed: boolean): Promise<{ id: string; temp: string }> {
    const before = (await readTags(file)).tags;
    const id = newId();
    const entry: NewJournalEntry = {
      _id: id, path: file, format: 'flac', actor: 'tester', taskId: null, reason: null, undoOf: null, at: new Date().toISOString(),
      before, after: landed ? before : { ...before, fields: { ...before.fields, title: `never written ${id}` } }, changed: ['title'], artworkChanged: false,
    };
    await writer.begin(entry);
    const temp = tempPathFor(await realpath(file), id);
    await writeFile(temp, 'a write in flight');
    return { id, temp };
  }
  const present = (file: string) => readFile(file).then(() => true, () => false);
  const blobDir = () => path.join(dir, 'blobs');

  it('settles only the entries and temp files of writers that are gone; a live writer commits as usual', async () => {
    const folder = path.join(dir, 'shared-folder');
    await mkdir(folder, { recursive: true });
    const live = new TaskLeases(store);
    const gone = new TaskLeases(store);
    const recovering = new TaskLeases(store);
    const liveJournal = createTagJournal({ store, blobDir: blobDir(), owner: live });
    const goneJournal = createTagJournal({ store, blobDir: blobDir(), owner: gone });
    try {
      const a = await pendingWrite(liveJournal, await makeAudio(folder, 'live', 'flac'), false);
      const undone = await pendingWrite(liveJournal, await makeAudio(folder, 'live-undo', 'flac'), true);
      await liveJournal.commit(undone.id);
      await liveJournal.claimForUndo(undone.id); // the live writer is undoing it right now
      const d = await pendingWrite(goneJournal, await makeAudio(folder, 'gone', 'flac'), false);
      const old = await pendingWrite(journal, await makeAudio(folder, 'no-owner', 'flac'), true); // an entry from before owners
      expect(await journal.get(old.id)).toMatchObject({ owner: null });
      await gone.close(); // its process is gone
      // A write before its entry (fresh: maybe in flight) and one a crash left long ago.
      const fresh = tempPathFor(path.join(folder, 'fresh.flac'), newId());
      const stale = tempPathFor(path.join(folder, 'stale.flac'), newId());
      await writeFile(fresh, 'x');
      await writeFile(stale, 'x');
      await utimes(stale, new Date(Date.now() - 3600_000), new Date(Date.now() - 3600_000));

      const report = await createTagJournal({ store, blobDir: blobDir(), owner: recovering }).recover();
      expect(report.inFlight).toEqual(expect.arrayContaining([a.id, undone.id]));
      expect(report.failed).toContain(d.id);
      expect(report.committed).toContain(old.id);
      expect([...report.committed, ...report.failed, ...report.undone, ...report.reopened]).not.toContain(a.id);
      expect(report.reopened).not.toContain(undone.id);
      expect(report.tempFilesRemoved.sort()).toEqual([d.temp, old.temp, stale].sort());
      expect({ a: await present(a.temp), fresh: await present(fresh) }).toEqual({ a: true, fresh: true });
      expect(await journal.get(a.id)).toMatchObject({ state: 'pending', owner: live.ownerId });
      expect(await journal.get(undone.id)).toMatchObject({ state: 'undoing', undoOwner: live.ownerId });
      expect(await journal.get(d.id)).toMatchObject({ state: 'failed', owner: gone.ownerId, recovered: true });

      // The live writer finishes its write and its undo as if nothing had happened.
      await liveJournal.commit(a.id);
      await liveJournal.releaseUndo(undone.id);
      expect(await journal.get(a.id)).toMatchObject({ state: 'committed' });
      expect(await journal.get(undone.id)).toMatchObject({ state: 'committed' });
    } finally {
      await live.close();
      await recovering.close();
    }
  });

  it('never throws when writers settle their entries while it runs, and a write it gave up on commits when its rename lands', async () => {
    const folder = path.join(dir, 'race-folder');
    await mkdir(folder, { recursive: true });
    // Entries without an owner are settled as a crash's, so they race with their writer (older workers, mixed versions).
    const writes = [];
    for (let i = 0; i < 12; i++) writes.push(await pendingWrite(journal, await makeAudio(folder, `race-${i}`, 'flac', { seed: i + 1 }), true));
    const recovering = new TaskLeases(store);
    try {
      const recovery = createTagJournal({ store, blobDir: blobDir(), owner: recovering }).recover();
      // The writer commits from the newest, recovery settles from the oldest: they meet in the middle.
      for (const w of [...writes].reverse()) {
        await journal.commit(w.id);
        await new Promise((r) => setTimeout(r, 3));
      }
      const report = await recovery;
      for (const w of writes) expect(await journal.get(w.id)).toMatchObject({ state: 'committed' });
      expect(report.failed).toEqual([]);

      // Recovery fails a write whose file does not hold it yet; the writer's rename then lands and it commits.
      const late = await pendingWrite(journal, await makeAudio(folder, 'late', 'flac'), false);
      expect((await createTagJournal({ store, blobDir: blobDir(), owner: recovering }).recover()).failed).toEqual([late.id]);
      await journal.commit(late.id);
      expect(await journal.get(late.id)).toMatchObject({ state: 'committed', error: null });
      // A writer's own failure is not turned into a commit.
      const own = await pendingWrite(journal, await makeAudio(folder, 'own-fail', 'flac'), false);
      await journal.fail(own.id, 'verification failed');
      await expect(journal.commit(own.id)).rejects.toMatchObject({ code: 'TAGSONIC_ERR_TAGS_NOT_UNDOABLE' });
    } finally {
      await recovering.close();
    }
  });
});
