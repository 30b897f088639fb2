/**
 * Documents are stored LZ4-compressed from 200 bytes on (engine.ts). A store written before that —
 * plain msgpack values — must still read, and be writable, after the upgrade; new large documents must
 * really be compressed on disk.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { afterEach, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from './open-embedded-store.ts';
import { STRUCTURES_KEY } from './query-exec.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const bigDoc = (id: string) => ({
  _id: id,
  path: `/music/周杰伦/葉惠美/${id} 晴天.flac`,
  relPath: `周杰伦/葉惠美/${id} 晴天.flac`,
  lrcPath: `/music/周杰伦/葉惠美/${id} 晴天.lrc`,
  title: '晴天',
  comment: 'x'.repeat(300),
  tags: ['a', 'b', 'c'],
});

describe('embedded store compression', () => {
  it('reads and updates documents a store wrote before compression, and compresses new large ones', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-lz4-'));
    dirs.push(dir);
    // The layout of a store from before compression: the same databases, plain values.
    const legacy = open({ path: dir, maxDbs: 1024 });
    const legacyDocs = legacy.openDB<Record<string, unknown>, string>({ name: 'docs:tracks', sharedStructuresKey: STRUCTURES_KEY });
    await legacyDocs.put('old', bigDoc('old'));
    await legacy.close();

    const store = await openEmbeddedStore({ dir });
    const tracks = store.collection<ReturnType<typeof bigDoc>>('tracks');
    expect(await tracks.findOne({ _id: 'old' })).toEqual(bigDoc('old'));
    await tracks.insertOne(bigDoc('new'));
    await tracks.updateOne({ _id: 'old' }, { $set: { title: '晴天 (Live)' } });
    expect((await tracks.findOne({ _id: 'old' }))!.title).toBe('晴天 (Live)');
    expect(await tracks.findOne({ _id: 'new' })).toEqual(bigDoc('new'));
    expect((await tracks.find({}, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(['new', 'old']);
    await store.close();

    // On disk: the new document is an LZ4 block (lmdb flags it with a first byte ≥ 250) and smaller
    // than its msgpack form.
    const raw = open({ path: dir, maxDbs: 1024 });
    const bytes = raw.openDB<Buffer, string>({ name: 'docs:tracks', encoding: 'binary' }).getBinary('new')!;
    expect(bytes[0]).toBeGreaterThanOrEqual(250);
    expect(bytes.length).toBeLessThan(JSON.stringify(bigDoc('new')).length / 2);
    await raw.close();
  });
});
