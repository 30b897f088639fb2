/**
 * The reader thread pool gives the same answers as the in-process reader, including covers and
 * errors, under many concurrent reads, and shuts down cleanly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TagsonicError } from '../errors/index.ts';
import { readTags } from './read.ts';
import { createTagReaderPool, type TagReaderPool } from './reader-pool.ts';
import { safeWriteTags } from './safe-write.ts';
import { SOURCE_KINDS, makeAudio, makeCover, openJournal, sha256, tempDir } from './test-fixtures.ts';

let dir: string;
let remove: () => Promise<void>;
let pool: TagReaderPool;
const files: string[] = [];
let cover: Uint8Array;

beforeAll(async () => {
  ({ dir, remove } = await tempDir('tagsonic-pool-'));
  cover = await makeCover(dir, 'cover', 'jpeg', 100, 80);
  const { journal, close } = await openJournal(dir);
  for (const [i, kind] of SOURCE_KINDS.entries()) {
    const file = await makeAudio(dir, `f${i}`, kind, { seed: i + 20, tags: { title: `标题 ${i}`, artist: 'Pool' } });
    await safeWriteTags(file, { fields: { album: `专辑 ${i}` }, artwork: { mime: 'image/jpeg', data: cover } }, { journal, actor: 'test' });
    files.push(file);
  }
  await close();
  pool = createTagReaderPool({ threads: 2 });
});

afterAll(async () => {
  await pool.close();
  await remove();
});

describe('reader pool', () => {
  it('reads what the in-process reader reads, covers included', async () => {
    for (const file of files) {
      const [inThread, inProcess] = await Promise.all([pool.read(file, { artwork: true }), readTags(file, { artwork: true })]);
      expect(inThread.tags).toEqual(inProcess.tags);
      expect(inThread.audio).toEqual(inProcess.audio);
      expect(sha256(inThread.artwork!.data)).toBe(sha256(cover));
      expect(inThread.artwork!.mime).toBe('image/jpeg');
    }
    expect((await pool.read(files[0]!)).artwork).toBeUndefined();
  });

  it('keeps up with many reads in flight on both threads', async () => {
    const all = Array.from({ length: 400 }, (_, i) => files[i % files.length]!);
    const results = await Promise.all(all.map((f) => pool.read(f)));
    results.forEach((r, i) => expect(r.tags.fields.title).toBe(`标题 ${i % files.length}`));
  });

  it('passes errors back as TagsonicError with kind and code', async () => {
    const missing = await pool.read(path.join(dir, 'missing.flac')).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(TagsonicError);
    expect(missing).toMatchObject({ kind: 'not_found', code: 'TAGSONIC_ERR_TAGS_NOT_FOUND' });
    await writeFile(path.join(dir, 'text.mp3'), 'hello\n'.repeat(300));
    const text = await pool.read(path.join(dir, 'text.mp3')).catch((e: unknown) => e);
    expect(text).toBeInstanceOf(TagsonicError);
    expect(['invalid', 'unsupported']).toContain((text as TagsonicError).kind);
    // The pool is still healthy afterwards.
    expect((await pool.read(files[1]!)).tags.fields.title).toBe('标题 1');
  });

  it('finishes reads under way on close and refuses new ones', async () => {
    const own = createTagReaderPool({ threads: 1 });
    const pending = files.map((f) => own.read(f));
    await own.close();
    expect((await Promise.all(pending)).length).toBe(files.length);
    await expect(own.read(files[0]!)).rejects.toMatchObject({ code: 'TAGSONIC_ERR_TAGS_POOL_CLOSED' });
  });
});
