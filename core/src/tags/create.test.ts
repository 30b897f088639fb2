/**
 * Files a task creates (create.ts): the journal entry, undo into the task's trash (and the replaced file put
 * back), the changed-since refusal (skipped in a task's undo, done with force), a failed placing, and recovery
 * after a crash between the journal and the file system.
 */
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TagJournal } from './journal.ts';
import { bytesDigest, createFile, type CreateResult, type NewFile } from './create.ts';
import { undoTask, undoWrite } from './undo.ts';
import { openJournal, tempDir } from './test-fixtures.ts';

let dir: string;
let remove: () => Promise<void>;
let journal: TagJournal;
let closeJournal: () => Promise<void>;
let media: string;
let trashDir: string;

beforeEach(async () => {
  ({ dir, remove } = await tempDir('tagsonic-create-'));
  ({ journal, close: closeJournal } = await openJournal(dir));
  media = path.join(dir, 'media');
  trashDir = path.join(media, '.tagsonic-trash', 't1');
  await mkdir(path.join(media, 'A'), { recursive: true });
});
afterEach(async () => {
  await closeJournal();
  await remove();
});

const present = (p: string) => stat(p).then(() => true, () => false);
const context = (j: TagJournal = journal) => ({ journal: j, actor: 'plugin:test', taskId: 't1' });

/** A create of `text` at A/<name>, written through a temp sibling as the host does. */
async function create(name: string, text: string, options: { replace?: boolean; j?: TagJournal } = {}) {
  const file = path.join(media, 'A', name);
  const spec: NewFile = { path: file, file: bytesDigest(Buffer.from(text)), trashDir, relative: path.join('A', name), source: '/src', replace: options.replace };
  const temp = `${file}.tmp`;
  await writeFile(temp, text);
  return createFile(spec, () => rename(temp, file), context(options.j));
}

describe('createFile', () => {
  it('journals the new file; undo moves it into the task\'s trash, nothing unlinked', async () => {
    const made = await create('a.strm', '/music/a.flac');
    const entry = await journal.get(made.writeId);
    expect(entry).toMatchObject({ kind: 'create', state: 'committed', path: path.join(media, 'A', 'a.strm'), source: '/src', taskId: 't1', replaced: null });
    expect(entry!.file).toEqual(bytesDigest(Buffer.from('/music/a.flac')));

    const undone = (await undoWrite(made.writeId, { journal, actor: 'admin' })) as CreateResult;
    expect(await present(path.join(media, 'A', 'a.strm'))).toBe(false);
    expect(undone.trashedTo).toBe(path.join(trashDir, '.undone', made.writeId, 'A', 'a.strm'));
    expect(await readFile(undone.trashedTo!, 'utf8')).toBe('/music/a.flac');
    expect(await journal.get(made.writeId)).toMatchObject({ state: 'undone' });
    await expect(undoWrite(made.writeId, { journal, actor: 'admin' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_TAGS_ALREADY_UNDONE' });
  });

  it('a replaced file goes to the trash first and comes back on undo, through several replacements by one task', async () => {
    const file = path.join(media, 'A', 'cover.jpg');
    await writeFile(file, 'the user\'s own');
    const first = await create('cover.jpg', 'one', { replace: true });
    expect(first.replacedTo).toBe(path.join(trashDir, 'A', 'cover.jpg'));
    const second = await create('cover.jpg', 'two', { replace: true });
    expect(second.replacedTo).toBe(path.join(trashDir, '.replaced', second.writeId, 'A', 'cover.jpg'));
    expect(await readFile(file, 'utf8')).toBe('two');

    const report = await undoTask('t1', { journal, actor: 'admin' });
    expect(report).toMatchObject({ undone: 2, skipped: 0, failed: 0 });
    expect(await readFile(file, 'utf8')).toBe('the user\'s own');
  });

  it('a file changed since is left alone: a conflict alone, skipped in the task\'s undo; force moves it to the trash', async () => {
    const made = await create('b.lrc', 'mine');
    await writeFile(path.join(media, 'A', 'b.lrc'), 'edited since');
    await expect(undoWrite(made.writeId, { journal, actor: 'admin' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_TAGS_UNDO_CONFLICT' });
    const report = await undoTask('t1', { journal, actor: 'admin' });
    expect(report).toMatchObject({ undone: 0, skipped: 1, failed: 0 });
    expect(report.items[0]!.note).toMatch(/changed since/);
    expect(await readFile(path.join(media, 'A', 'b.lrc'), 'utf8')).toBe('edited since');

    const forced = (await undoWrite(made.writeId, { journal, actor: 'admin' }, { force: true })) as CreateResult;
    expect(await readFile(forced.trashedTo!, 'utf8')).toBe('edited since');
    expect(await present(path.join(media, 'A', 'b.lrc'))).toBe(false);
  });

  it('a file-system refusal on one file fails that entry; the task\'s other files are still undone', async () => {
    const blocked = await create('h.strm', 'h');
    await create('i.strm', 'i');
    // A file where the undo's folder in the trash would go: mkdir fails with ENOTDIR for that entry only.
    await mkdir(path.join(trashDir, '.undone'), { recursive: true });
    await writeFile(path.join(trashDir, '.undone', blocked.writeId), 'in the way');
    const report = await undoTask('t1', { journal, actor: 'admin' });
    expect(report).toMatchObject({ undone: 1, failed: 1 });
    expect(report.items.find((i) => i.status === 'failed')).toMatchObject({ writeId: blocked.writeId, error: { code: 'TAGSONIC_ERR_TAGS_NOT_FOUND' } });
    expect(await present(path.join(media, 'A', 'h.strm'))).toBe(true);
    expect(await present(path.join(media, 'A', 'i.strm'))).toBe(false);
    expect(await journal.get(blocked.writeId)).toMatchObject({ state: 'committed' });
  });

  it('a placing that fails journals the failure and puts the replaced file back', async () => {
    const file = path.join(media, 'A', 'c.strm');
    await writeFile(file, 'old');
    const spec: NewFile = { path: file, file: bytesDigest(Buffer.from('new')), trashDir, relative: path.join('A', 'c.strm'), replace: true };
    await expect(createFile(spec, () => Promise.reject(new Error('disk full')), context())).rejects.toThrow('disk full');
    expect(await readFile(file, 'utf8')).toBe('old');
    expect((await journal.listByTask('t1')).map((e) => [e.state, e.error])).toEqual([['failed', 'disk full']]);
  });
});

describe('recovery of creates', () => {
  /** A journal whose commit "crashes": the entry stays pending, as after a kill between the rename and the commit. */
  const crashing = (): TagJournal =>
    new Proxy(journal, {
      get: (target, key) => {
        if (key === 'commit') return () => Promise.reject(new Error('killed'));
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });

  it('a pending create whose file landed is committed; one whose file did not is failed, the replaced file back in place', async () => {
    await expect(create('d.strm', 'landed', { j: crashing() })).rejects.toThrow('killed');
    const file = path.join(media, 'A', 'e.strm');
    await writeFile(file, 'old e');
    await expect(create('e.strm', 'new e', { replace: true, j: crashing() })).rejects.toThrow('killed');
    // The crash came before the new file landed: simulate by taking it away again.
    await rename(file, path.join(dir, 'lost'));

    const report = await journal.recover();
    const [d, e] = await journal.listByTask('t1');
    expect(report.committed).toEqual([d!._id]);
    expect(report.failed).toEqual([e!._id]);
    expect(await readFile(file, 'utf8')).toBe('old e');
    expect(await journal.get(d!._id)).toMatchObject({ state: 'committed', recovered: true });
  });

  it('an undo cut short between its two renames is finished: the replaced file goes back, the entry is undone', async () => {
    const file = path.join(media, 'A', 'f.lrc');
    await writeFile(file, 'old f');
    const made = await create('f.lrc', 'new f', { replace: true });
    const entry = await journal.claimForUndo(made.writeId);
    await mkdir(path.dirname(entry.trashTo!), { recursive: true });
    await rename(file, entry.trashTo!); // the first rename, then the crash

    const report = await journal.recover();
    expect(report.undone).toEqual([made.writeId]);
    expect(await readFile(file, 'utf8')).toBe('old f');
    expect(await readFile(entry.trashTo!, 'utf8')).toBe('new f');
  });

  it('an undo claimed but not begun is reopened, and undoes later', async () => {
    const made = await create('g.strm', 'g');
    await journal.claimForUndo(made.writeId);
    expect((await journal.recover()).reopened).toEqual([made.writeId]);
    await undoWrite(made.writeId, { journal, actor: 'admin' });
    expect(await present(path.join(media, 'A', 'g.strm'))).toBe(false);
  });
});
