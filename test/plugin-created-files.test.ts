/**
 * The files a plugin's capabilities create for a task, through the real loadPlugin and sandbox on real files:
 * `files.copy` (new, and over a file with `overwrite`), ffmpeg's generic `convert` and `cut` presets and
 * `files.writeStrm` are journaled under the task (kind `create`, actor `plugin:<id>`), and core's undoTask takes
 * them back into the task's trash and puts the overwritten file back — the folder as it was, byte for byte.
 * Without a task nothing is journaled.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { createTagJournal, TAG_JOURNAL_COLLECTION, undoTask, type TagJournal } from '@tagsonic/core/tags';
import { loadPlugin, type LoadedPlugin } from '@tagsonic/workers/plugin-runtime';
import { makeAudio } from './support/audio.ts';

const CODE = `
const at = (caps, p) => p.split('.').reduce((o, k) => (o == null ? undefined : o[k]), caps);
exports.call = async ({ path, options }, caps) => {
  try { return { value: await at(caps, path)(options) }; } catch (e) { return { code: e.code ?? null, message: e.message }; }
};
`;

let dir: string;
let media: string;
let store: Store;
let roots: MediaRoots;
let journal: TagJournal;
const loaded: LoadedPlugin[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-created-files-'));
  media = path.join(dir, 'media');
  await mkdir(path.join(media, 'A'), { recursive: true });
  await makeAudio(path.join(media, 'A', '01.flac'), { seconds: 2, tags: { title: 'One' } });
  await writeFile(path.join(media, 'A', 'cover.jpg'), 'cover');
  await writeFile(path.join(media, 'A', 'notes.txt'), 'the user\'s notes');
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

function load() {
  const manifest = {
    id: 'maker', name: 'Maker', version: '1.0.0', description: 'Creates files.', kind: 'batch-action', entry: 'index.js',
    permissions: { files: { access: 'write', reason: 'w' }, ffmpeg: { reason: 'f' } },
  };
  const plugin = loadPlugin({ manifest, code: CODE, env: {}, host: { roots, journal, store }, sandbox: { timeoutMs: 60_000 } });
  loaded.push(plugin);
  return (capability: string, options: unknown, taskId?: string) =>
    plugin.invoke('call', { path: capability, options }, taskId ? { taskId, actor: 'admin' } : undefined) as Promise<{ value?: unknown; code?: string }>;
}

/** Every file under the media folder outside the trash: name → size and SHA-256. */
async function tree(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(media, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(media, path.join(e.parentPath, e.name));
    if (!e.isFile() || rel.startsWith('.tagsonic-trash')) continue;
    const data = await readFile(path.join(media, rel));
    out[rel] = `${data.byteLength} ${createHash('sha256').update(data).digest('hex')}`;
  }
  return out;
}

describe('files a plugin creates for a task', () => {
  it('copy, copy over a file, convert, cut and writeStrm are journaled; undoTask leaves the folder as it was', async () => {
    const call = load();
    const before = await tree();
    const task = 'task-make';
    expect((await call('files.copy', { from: 'A/cover.jpg', to: 'B/cover.jpg' }, task)).value).toEqual({ path: path.join(media, 'B', 'cover.jpg') });
    expect((await call('files.copy', { from: 'A/cover.jpg', to: 'A/notes.txt', overwrite: true }, task)).value).toEqual({ path: path.join(media, 'A', 'notes.txt') });
    expect((await call('ffmpeg.run', { preset: 'convert', input: 'A/01.flac', output: 'A/01.mp3', format: 'mp3' }, task)).value).toEqual({ path: path.join(media, 'A', '01.mp3') });
    expect((await call('ffmpeg.run', { preset: 'cut', input: 'A/01.flac', output: 'A/part.wav', start: 0, end: 1 }, task)).value).toEqual({ path: path.join(media, 'A', 'part.wav') });
    expect((await call('files.writeStrm', { path: 'A/01.flac' }, task)).value).toMatchObject({ status: 'created' });
    expect(await readFile(path.join(media, 'A', 'notes.txt'), 'utf8')).toBe('cover');

    const entries = await store.collection(TAG_JOURNAL_COLLECTION).find({ taskId: task }, { sort: { at: 1, _id: 1 } });
    expect(entries.map((e) => [e.kind, path.relative(media, e.path as string), e.actor, e.state])).toEqual([
      ['create', 'B/cover.jpg', 'plugin:maker', 'committed'],
      ['create', 'A/notes.txt', 'plugin:maker', 'committed'],
      ['create', 'A/01.mp3', 'plugin:maker', 'committed'],
      ['create', 'A/part.wav', 'plugin:maker', 'committed'],
      ['create', 'A/01.strm', 'plugin:maker', 'committed'],
    ]);

    const report = await undoTask(task, { journal, actor: 'admin' });
    expect(report).toMatchObject({ undone: 5, skipped: 0, failed: 0 });
    const after = await tree();
    expect(after).toEqual(before);
  }, 60_000);

  it('without a task nothing is journaled', async () => {
    const call = load();
    expect((await call('files.copy', { from: 'A/cover.jpg', to: 'C/cover.jpg' })).value).toEqual({ path: path.join(media, 'C', 'cover.jpg') });
    expect((await call('ffmpeg.run', { preset: 'convert', input: 'A/01.flac', output: 'C/01.mp3', format: 'mp3' })).value).toEqual({ path: path.join(media, 'C', '01.mp3') });
    expect(await store.collection(TAG_JOURNAL_COLLECTION).find({ path: { $in: [path.join(media, 'C', 'cover.jpg'), path.join(media, 'C', '01.mp3')] } })).toEqual([]);
  }, 60_000);
});
