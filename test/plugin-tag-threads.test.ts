/**
 * A plugin's tags.read and tags.write on the worker's tag threads (capabilities/tags.ts with host.tagThreads):
 * through the real loadPlugin and sandbox on real files, the read parses on a reader thread and the write is the
 * writer pool's safe write — same result, one committed journal entry under the task with the plugin as actor,
 * undone by core's undoTask. The reader threads start with the first read and stop after their idle time.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { createTagJournal, createTagWriterPool, undoTask, type TagJournal, type TagWriterPool } from '@tagsonic/core/tags';
import { loadPlugin, type LoadedPlugin } from '@tagsonic/workers/plugin-runtime';
import { idleReaderPool, type IdleReaderPool } from '../workers/src/tag-readers.ts';
import { makeAudio, probeTags } from './support/audio.ts';

const CODE = `
exports.edit = async ({ path, title }, caps) => {
  const before = await caps.tags.read({ path });
  await caps.tags.write({ path, tags: { title } });
  const after = await caps.tags.read({ path });
  return { before: before.title, after: after.title, artist: after.artist, format: after.format };
};
exports.cover = async ({ path }, caps) => {
  const plain = await caps.tags.read({ path });
  const full = await caps.tags.read({ path, artwork: true });
  return { plainHasBytes: 'artwork' in plain, plainInfo: plain.artworkInfo, bytes: full.artwork ? full.artwork.data.length : null, mime: full.artwork && full.artwork.mime };
};
`;

let dir: string;
let media: string;
let store: Store;
let roots: MediaRoots;
let journal: TagJournal;
let writers: TagWriterPool;
let readers: IdleReaderPool;
let plugin: LoadedPlugin;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-tag-threads-'));
  media = path.join(dir, 'media');
  await mkdir(media, { recursive: true });
  await makeAudio(path.join(media, 'a.mp3'), { tags: { title: '晴天', artist: '周杰伦' } });
  await makeAudio(path.join(media, 'b.flac'), { tags: { title: 'Two', artist: 'Band' } });
  roots = await MediaRoots.open({ media });
  store = await openEmbeddedStore({ dir: path.join(dir, 'store') });
  journal = createTagJournal({ store, blobDir: path.join(dir, 'blobs') });
  writers = createTagWriterPool({ threads: 1 });
  readers = idleReaderPool({ threads: 1, idleMs: 300 });
  const manifest = { id: 'tagprobe', name: 'Tag probe', version: '1.0.0', description: 'Edits titles.', kind: 'batch-action', entry: 'index.js',
    permissions: { tags: { access: 'write', reason: 'test' } } };
  plugin = loadPlugin({ manifest, code: CODE, env: {}, host: { roots, journal, store, tagThreads: { readers, writers } }, sandbox: { timeoutMs: 30_000 } });
}, 60_000);

afterAll(async () => {
  plugin?.close();
  await writers?.close();
  await readers?.close();
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('tags on the worker tag threads', () => {
  it('reads on a reader thread and writes through the writer pool: journaled under the task, undoable', async () => {
    expect(writers.liveThreads).toBe(0);
    expect(readers.liveThreads).toBe(0);
    const task = { taskId: 'task-threads', actor: 'admin' };
    const results = await Promise.all(['a.mp3', 'b.flac'].map((name, i) =>
      plugin.invoke('edit', { path: path.join(media, name), title: `New ${i}` }, task)));
    expect(results).toEqual([
      { before: '晴天', after: 'New 0', artist: '周杰伦', format: 'mp3' },
      { before: 'Two', after: 'New 1', artist: 'Band', format: 'flac' },
    ]);
    // The threads did the work: both pools started their thread for these calls.
    expect(writers.liveThreads).toBe(1);
    expect(readers.liveThreads).toBe(1);
    expect(await probeTags(path.join(media, 'a.mp3'))).toMatchObject({ title: 'New 0', artist: '周杰伦' });

    const entries = await journal.listByTask('task-threads');
    expect(entries.map((e) => [path.basename(e.path), e.state, e.actor]).sort()).toEqual([
      ['a.mp3', 'committed', 'plugin:tagprobe'],
      ['b.flac', 'committed', 'plugin:tagprobe'],
    ]);
    const undone = await undoTask('task-threads', { journal, actor: 'admin' });
    expect(undone).toMatchObject({ undone: 2, failed: 0 });
    expect(await probeTags(path.join(media, 'a.mp3'))).toMatchObject({ title: '晴天' });
    expect(await probeTags(path.join(media, 'b.flac'))).toMatchObject({ title: 'Two' });
  });

  it('a read carries the cover\'s bytes only when asked (artwork: true); artworkInfo says there is one either way', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const jpeg = path.join(dir, 'cover.jpg');
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=s=600x600:d=1', '-frames:v', '1', jpeg]);
    const file = path.join(media, 'covered.mp3');
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=d=1', '-i', jpeg, '-map', '0:a', '-map', '1', '-c:v', 'copy', '-disposition:v', 'attached_pic', '-id3v2_version', '3', file]);
    const size = (await import('node:fs/promises')).stat(jpeg).then((s) => s.size);
    const seen = (await plugin.invoke('cover', { path: file })) as { plainHasBytes: boolean; plainInfo: { mime: string; size: number } | null; bytes: number | null; mime: string };
    expect(seen.plainHasBytes).toBe(false);
    expect(seen.plainInfo).toEqual({ mime: 'image/jpeg', size: await size });
    expect(seen).toMatchObject({ bytes: await size, mime: 'image/jpeg' });
  });

  it('a file that is not audio fails the call with the engine\'s code; the reader threads stop when idle', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(media, 'bad.mp3'), 'not audio at all');
    await expect(plugin.invoke('edit', { path: path.join(media, 'bad.mp3'), title: 'X' })).rejects.toMatchObject({ code: expect.stringMatching(/^TAGSONIC_ERR_/) });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(readers.liveThreads).toBe(0);
  });
});
