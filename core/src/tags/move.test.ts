/**
 * Journaled moves (move.ts): the entry's life, undo (and its refusals), and recovery after a crash
 * between the journal and the rename.
 */
import { copyFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../store/index.ts';
import type { TagJournal } from './journal.ts';
import { moveTrack } from './move.ts';
import { readTags } from './read.ts';
import { undoWrite } from './undo.ts';
import { makeAudio, openJournal, tempDir } from './test-fixtures.ts';

let dir: string;
let remove: () => Promise<void>;
let journal: TagJournal;
let store: Store;
let closeJournal: () => Promise<void>;

beforeEach(async () => {
  ({ dir, remove } = await tempDir('tagsonic-move-'));
  ({ journal, store, close: closeJournal } = await openJournal(dir));
});
afterEach(async () => {
  await closeJournal();
  await remove();
});

const present = (p: string) => stat(p).then(() => true, () => false);

describe('moveTrack', () => {
  it('moves the file and its .lrc, journaled as a committed move that undo reverses', async () => {
    const from = await makeAudio(dir, 'song', 'mp3-id3v24', { tags: { title: '晴天' } });
    await writeFile(from.replace(/\.mp3$/, '.lrc'), '[00:00.00]晴天');
    const to = path.join(dir, 'Renamed.mp3');
    const moved = await moveTrack(from, to, { journal, actor: 'alice', taskId: 't1', reason: 'rename' });
    expect(moved).toMatchObject({ path: to, movedFrom: from, changed: [] });
    expect(await present(from)).toBe(false);
    expect((await readTags(to)).tags.fields.title).toBe('晴天');
    expect(await present(path.join(dir, 'Renamed.lrc'))).toBe(true);
    expect(await journal.get(moved.writeId)).toMatchObject({ kind: 'move', from, path: to, state: 'committed', taskId: 't1', actor: 'alice' });
    expect((await journal.listByTask('t1')).map((e) => e._id)).toEqual([moved.writeId]);

    const back = await undoWrite(moved.writeId, { journal, actor: 'alice' });
    expect(back).toMatchObject({ path: from, movedFrom: to });
    expect(await present(from)).toBe(true);
    expect(await present(to)).toBe(false);
    expect(await present(from.replace(/\.mp3$/, '.lrc'))).toBe(true);
    expect(await journal.get(moved.writeId)).toMatchObject({ state: 'undone', undoneBy: back.writeId });
    expect(await journal.get(back.writeId)).toMatchObject({ kind: 'move', from: to, path: from, undoOf: moved.writeId, state: 'committed' });
  });

  it('never replaces a file: a taken name fails the move (journaled as failed), and undo refuses a re-taken old name', async () => {
    const from = await makeAudio(dir, 'a', 'flac');
    const taken = await makeAudio(dir, 'b', 'flac');
    await expect(moveTrack(from, taken, { journal, actor: 'alice', taskId: 't2' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_FILES_NAME_TAKEN' });
    expect(await present(from)).toBe(true);
    expect((await journal.listByTask('t2')).map((e) => e.state)).toEqual(['failed']);

    const to = path.join(dir, 'c.flac');
    const moved = await moveTrack(from, to, { journal, actor: 'alice' });
    await copyFile(taken, from); // something else took the old name meanwhile
    await expect(undoWrite(moved.writeId, { journal, actor: 'alice' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_TAGS_UNDO_CONFLICT' });
    expect(await journal.get(moved.writeId)).toMatchObject({ state: 'committed' });
    expect(await present(to)).toBe(true);
  });

  it('recovery settles a move interrupted by a crash by which name the file has', async () => {
    const a = await makeAudio(dir, 'a', 'mp3-id3v24');
    const b = await makeAudio(dir, 'b', 'mp3-id3v24');
    const { tags } = await readTags(a);
    const entry = (id: string, from: string, to: string) => ({
      _id: id, kind: 'move' as const, path: to, from, format: 'mp3', actor: 'alice', taskId: null, reason: null, undoOf: null,
      at: new Date().toISOString(), before: tags, after: tags, changed: [], artworkChanged: false,
    });
    // Crash after the rename, before the commit; and crash before the rename.
    await journal.begin(entry('done', a, path.join(dir, 'a2.mp3')));
    await rename(a, path.join(dir, 'a2.mp3'));
    await journal.begin(entry('lost', b, path.join(dir, 'b2.mp3')));
    const report = await journal.recover();
    expect(report.committed).toEqual(['done']);
    expect(report.failed).toEqual(['lost']);
    expect(await journal.get('lost')).toMatchObject({ state: 'failed' });
    // Crash in the middle of undoing a move: the file already back → undone; not back → undoable again.
    await store.collection('tag_journal').updateOne({ _id: 'done' }, { $set: { state: 'undoing' } });
    await rename(path.join(dir, 'a2.mp3'), a);
    expect((await journal.recover()).undone).toEqual(['done']);
    await journal.begin(entry('again', a, path.join(dir, 'a3.mp3')));
    await journal.commit('again');
    await rename(a, path.join(dir, 'a3.mp3'));
    await store.collection('tag_journal').updateOne({ _id: 'again' }, { $set: { state: 'undoing' } });
    expect((await journal.recover()).reopened).toEqual(['again']);
    expect(await journal.get('again')).toMatchObject({ state: 'committed' });
  });
});
