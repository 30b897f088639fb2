/**
 * `caps.files.hash` and `caps.files.removeDir` through the real loadPlugin and sandbox on real files: the hash
 * is the file's SHA-256 as sha256sum computes it; removeDir removes an empty folder only, never a media folder
 * itself, never a folder out of the roots, and only with the write grant. `files.move` of an audio file for a
 * task is journaled under the task (its .lrc along) and undone by core's undoTask; without a task it is not.
 * `files.delete` for a task moves the file into its root's trash: audio journaled (undoTask brings it back),
 * other files renamed there; without a task it is an unlink.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { createTagJournal, TAG_JOURNAL_COLLECTION, undoTask, type TagJournal } from '@tagsonic/core/tags';
import { makeAudio } from './support/audio.ts';
import { loadPlugin, type LoadedPlugin } from '@tagsonic/workers/plugin-runtime';

const run = promisify(execFile);

const CODE = `
exports.call = async ({ name, options }, caps) => {
  const fn = caps.files && caps.files[name];
  if (typeof fn !== 'function') return { absent: true };
  try { return { value: await fn(options) }; } catch (e) { return { code: e.code ?? null, message: e.message }; }
};
`;

let dir: string;
let media: string;
let store: Store;
let roots: MediaRoots;
let journal: TagJournal;
const loaded: LoadedPlugin[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-files-extra-'));
  media = path.join(dir, 'media');
  await mkdir(path.join(media, 'Empty'), { recursive: true });
  await mkdir(path.join(media, 'Full'), { recursive: true });
  await mkdir(path.join(dir, 'outside', 'empty'), { recursive: true });
  await writeFile(path.join(media, 'Full', 'a.bin'), Buffer.alloc(3 * 1024 * 1024 + 17, 7));
  await symlink(path.join(dir, 'outside', 'empty'), path.join(media, 'dir-out'));
  roots = await MediaRoots.open({ media });
  store = await openEmbeddedStore({ dir: path.join(dir, 'store') });
  journal = createTagJournal({ store, blobDir: path.join(dir, 'blobs') });
}, 30_000);

afterEach(() => {
  for (const plugin of loaded.splice(0)) plugin.close();
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

function load(access: 'read' | 'write') {
  const manifest = { id: 'filesprobe', name: 'Files probe', version: '1.0.0', description: 'Calls files.', kind: 'batch-action', entry: 'index.js',
    permissions: { files: { access, reason: 'test' } } };
  const plugin = loadPlugin({ manifest, code: CODE, env: {}, host: { roots, journal, store } });
  loaded.push(plugin);
  return (name: string, options: unknown, task?: { taskId: string; actor: string }) =>
    plugin.invoke('call', { name, options }, task) as Promise<{ value?: any; code?: string; message?: string; absent?: true }>;
}

describe('files.hash', () => {
  it('is the SHA-256 sha256sum computes, streamed, with the size', async () => {
    const file = path.join(media, 'Full', 'a.bin');
    const { stdout } = await run('sha256sum', [file]);
    const result = await load('read')('hash', { path: 'Full/a.bin' });
    expect(result.value).toEqual({ path: file, sha256: stdout.split(' ')[0], size: 3 * 1024 * 1024 + 17, complete: true });
  });

  it("range 'edges' hashes the size and the first and last 64 KiB only; a small file whole", async () => {
    const call = load('read');
    const bytes = await readFile(path.join(media, 'Full', 'a.bin'));
    const edge = 64 * 1024;
    const size = Buffer.alloc(8);
    size.writeBigUInt64BE(BigInt(bytes.length));
    const expected = createHash('sha256').update(size).update(bytes.subarray(0, edge)).update(bytes.subarray(bytes.length - edge)).digest('hex');
    const edges = await call('hash', { path: 'Full/a.bin', range: 'edges' });
    expect(edges.value).toEqual({ path: path.join(media, 'Full', 'a.bin'), sha256: expected, size: bytes.length, complete: false });
    // Same edges, another middle: the edge digests collide, the full ones do not.
    const middle = Buffer.from(bytes);
    middle[bytes.length >> 1] ^= 0xff;
    await writeFile(path.join(media, 'Full', 'mid.bin'), middle);
    expect((await call('hash', { path: 'Full/mid.bin', range: 'edges' })).value.sha256).toBe(expected);
    expect((await call('hash', { path: 'Full/mid.bin' })).value.sha256).not.toBe((await call('hash', { path: 'Full/a.bin' })).value.sha256);
    // No bigger than both edges: hashed whole, the full digest.
    await writeFile(path.join(media, 'Full', 'small.bin'), bytes.subarray(0, 2 * edge));
    const { stdout } = await run('sha256sum', [path.join(media, 'Full', 'small.bin')]);
    expect((await call('hash', { path: 'Full/small.bin', range: 'edges' })).value).toMatchObject({ sha256: stdout.split(' ')[0], complete: true });
    expect((await call('hash', { path: 'Full/a.bin', range: 'middle' })).code).toBe('TAGSONIC_ERR_PLUGIN_INVALID');
  });

  it('refuses folders, missing files and paths out of the roots', async () => {
    const call = load('read');
    expect((await call('hash', { path: 'Full' })).code).toBe('TAGSONIC_ERR_PLUGIN_INVALID');
    expect((await call('hash', { path: 'Full/missing.bin' })).code).toBe('TAGSONIC_ERR_PLUGIN_NOT_FOUND');
    expect((await call('hash', { path: '../../etc/passwd' })).code).toBe('TAGSONIC_ERR_PLUGIN_DENIED');
    expect((await call('hash', { path: '/etc/passwd' })).code).toBe('TAGSONIC_ERR_PLUGIN_DENIED');
  });
});

describe('files.removeDir', () => {
  it('is absent with the read grant', async () => {
    expect(await load('read')('removeDir', { path: 'Empty' })).toEqual({ absent: true });
  });

  it('removes an empty folder; a non-empty one is a conflict and stays with its file', async () => {
    const call = load('write');
    expect((await call('removeDir', { path: 'Full' })).code).toBe('TAGSONIC_ERR_PLUGIN_CONFLICT');
    expect((await stat(path.join(media, 'Full', 'a.bin'))).isFile()).toBe(true);
    expect((await call('removeDir', { path: 'Full/a.bin' })).code).toBe('TAGSONIC_ERR_PLUGIN_INVALID');
    expect((await call('removeDir', { path: 'Empty' })).value).toEqual({ path: path.join(media, 'Empty') });
    await expect(stat(path.join(media, 'Empty'))).rejects.toThrow();
  });

  it('never removes a media folder itself nor a folder out of the roots', async () => {
    const call = load('write');
    expect((await call('removeDir', { path: media })).code).toBe('TAGSONIC_ERR_PLUGIN_DENIED');
    expect((await call('removeDir', { path: 'dir-out' })).code).toBe('TAGSONIC_ERR_PLUGIN_DENIED');
    expect((await call('removeDir', { path: path.join(dir, 'outside', 'empty') })).code).toBe('TAGSONIC_ERR_PLUGIN_DENIED');
    expect((await stat(path.join(dir, 'outside', 'empty'))).isDirectory()).toBe(true);
  });
});

describe('files.move for a task', () => {
  it('journals an audio move under the task, carries its .lrc, journals the plain move of a cover, and undo_task puts all back', async () => {
    await mkdir(path.join(media, 'Src'), { recursive: true });
    await makeAudio(path.join(media, 'Src', 'a.flac'), { tags: { title: 'A' } });
    await writeFile(path.join(media, 'Src', 'a.lrc'), '[00:00.00]a');
    await writeFile(path.join(media, 'Src', 'cover.jpg'), 'jpeg');
    const call = load('write');
    const task = { taskId: 'task-move', actor: 'admin' };
    expect((await call('move', { from: 'Src/a.flac', to: 'Dst/Sub/a.flac' }, task)).value).toEqual({ path: path.join(media, 'Dst', 'Sub', 'a.flac') });
    expect(await readFile(path.join(media, 'Dst', 'Sub', 'a.lrc'), 'utf8')).toBe('[00:00.00]a');
    // Not audio: journaled too, as a plain move (no tags, nothing carried along).
    expect((await call('move', { from: 'Src/cover.jpg', to: 'Dst/Sub/cover.jpg' }, task)).value).toEqual({ path: path.join(media, 'Dst', 'Sub', 'cover.jpg') });
    const entries = await store.collection(TAG_JOURNAL_COLLECTION).find({ taskId: 'task-move' }, { sort: { at: 1, _id: 1 } });
    expect(entries).toEqual([
      expect.objectContaining({ kind: 'move', state: 'committed', actor: 'plugin:filesprobe', from: path.join(media, 'Src', 'a.flac'), path: path.join(media, 'Dst', 'Sub', 'a.flac') }),
      expect.objectContaining({ kind: 'move', plain: true, state: 'committed', from: path.join(media, 'Src', 'cover.jpg'), path: path.join(media, 'Dst', 'Sub', 'cover.jpg') }),
    ]);
    // An existing target is refused, never replaced.
    await makeAudio(path.join(media, 'Src', 'b.flac'));
    expect((await call('move', { from: 'Src/b.flac', to: 'Dst/Sub/a.flac' }, task)).code).toBe('TAGSONIC_ERR_PLUGIN_CONFLICT');

    const report = await undoTask('task-move', { journal, actor: 'admin' });
    expect(report.items.map((i) => i.status)).toEqual(['undone', 'undone']);
    expect((await stat(path.join(media, 'Src', 'a.flac'))).isFile()).toBe(true);
    expect(await readFile(path.join(media, 'Src', 'cover.jpg'), 'utf8')).toBe('jpeg');
    expect(await readFile(path.join(media, 'Src', 'a.lrc'), 'utf8')).toBe('[00:00.00]a');
    await expect(stat(path.join(media, 'Dst', 'Sub', 'a.flac'))).rejects.toThrow();
  });

  it('without a task the move is not journaled', async () => {
    await makeAudio(path.join(media, 'Src', 'c.flac'));
    expect((await load('write')('move', { from: 'Src/c.flac', to: 'Dst/c.flac' })).value).toEqual({ path: path.join(media, 'Dst', 'c.flac') });
    expect(await store.collection(TAG_JOURNAL_COLLECTION).find({ path: path.join(media, 'Dst', 'c.flac') })).toEqual([]);
  });
});

describe('files.delete for a task', () => {
  it('moves an audio file (with its .lrc) and any other file into the trash through the journal; undo_task brings them back', async () => {
    await mkdir(path.join(media, 'Del'), { recursive: true });
    await makeAudio(path.join(media, 'Del', 'd.flac'), { tags: { title: 'D' } });
    await writeFile(path.join(media, 'Del', 'd.lrc'), '[00:00.00]d');
    await writeFile(path.join(media, 'Del', 'd.nfo'), 'nfo');
    const call = load('write');
    const task = { taskId: 'task-del', actor: 'admin' };
    expect((await call('delete', { path: 'Del/d.flac' }, task)).value).toEqual({ path: path.join(media, 'Del', 'd.flac') });
    expect((await call('delete', { path: 'Del/d.nfo' }, task)).value).toEqual({ path: path.join(media, 'Del', 'd.nfo') });
    const trash = path.join(media, '.tagsonic-trash', 'task-del', 'Del');
    expect((await readFile(path.join(trash, 'd.nfo'), 'utf8'))).toBe('nfo');
    expect((await readFile(path.join(trash, 'd.lrc'), 'utf8'))).toBe('[00:00.00]d');
    expect((await stat(path.join(trash, 'd.flac'))).isFile()).toBe(true);
    await expect(stat(path.join(media, 'Del', 'd.flac'))).rejects.toThrow();
    expect((await call('delete', { path: path.join(trash, 'd.nfo') }, task)).code).toBe('TAGSONIC_ERR_PLUGIN_INVALID');
    const entries = await store.collection(TAG_JOURNAL_COLLECTION).find({ taskId: 'task-del' });
    expect(entries).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'move', state: 'committed', from: path.join(media, 'Del', 'd.flac'), path: path.join(trash, 'd.flac') }),
      expect.objectContaining({ kind: 'move', plain: true, state: 'committed', from: path.join(media, 'Del', 'd.nfo'), path: path.join(trash, 'd.nfo') }),
    ]));
    expect(entries).toHaveLength(2);

    await undoTask('task-del', { journal, actor: 'admin' });
    expect((await stat(path.join(media, 'Del', 'd.flac'))).isFile()).toBe(true);
    expect(await readFile(path.join(media, 'Del', 'd.nfo'), 'utf8')).toBe('nfo');
    expect(await readFile(path.join(media, 'Del', 'd.lrc'), 'utf8')).toBe('[00:00.00]d');
  });

  it('without a task a delete is an unlink', async () => {
    await writeFile(path.join(media, 'Del', 'e.txt'), 'e');
    expect((await load('write')('delete', { path: 'Del/e.txt' })).value).toEqual({ path: path.join(media, 'Del', 'e.txt') });
    await expect(stat(path.join(media, '.tagsonic-trash', 'task-del', 'Del', 'e.txt'))).rejects.toThrow();
    await expect(stat(path.join(media, 'Del', 'e.txt'))).rejects.toThrow();
  });
});
