/**
 * The writer pool runs the same safe write as `safeWriteTags` on writer threads: parallel writes to
 * different files, serialised writes to one file, refusals passed back with their codes, and a writer
 * thread that crashes or hangs contained (clear error, original intact, no temp file, pool still working).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { TagsonicError } from '../errors/index.ts';
import { readTags } from './read.ts';
import { audioPayloadDigest } from './audio-payload.ts';
import { createTagWriterPool, type TagWriterPool } from './writer-pool.ts';
import type { TagJournal } from './journal.ts';
import { SOURCE_KINDS, fileSha256, makeAudio, makeCover, openJournal, tempDir, type SourceKind } from './test-fixtures.ts';

let dir: string;
let remove: () => Promise<void>;
let journal: TagJournal;
let closeJournal: () => Promise<void>;
let pool: TagWriterPool;
const sources = {} as Record<SourceKind, string>;
const ctx = () => ({ journal, actor: 'test', taskId: 'pool' });

beforeAll(async () => {
  ({ dir, remove } = await tempDir('tagsonic-writer-pool-'));
  ({ journal, close: closeJournal } = await openJournal(dir));
  await Promise.all(SOURCE_KINDS.map(async (kind, i) => (sources[kind] = await makeAudio(dir, `src-${kind}`, kind, { seed: i + 31, tags: { title: 'original' } }))));
  pool = createTagWriterPool({ threads: 2, inFlightPerThread: 3 });
});

afterAll(async () => {
  await pool.close();
  await closeJournal();
  await remove();
});

let copies = 0;
async function copyOf(kind: SourceKind): Promise<string> {
  const file = path.join(dir, `copy-${++copies}-${path.basename(sources[kind])}`);
  await copyFile(sources[kind], file);
  return file;
}

const leftovers = async () => (await readdir(dir)).filter((n) => n.includes('.tagsonic-'));

async function failure(work: Promise<unknown>): Promise<TagsonicError> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected a TagsonicError').toBeInstanceOf(TagsonicError);
  return err as TagsonicError;
}

describe('writer pool', () => {
  it('writes many different files in parallel, each verified, journaled and with its audio unchanged', async () => {
    const files = await Promise.all(Array.from({ length: 27 }, (_, i) => copyOf(SOURCE_KINDS[i % SOURCE_KINDS.length]!)));
    const digests = await Promise.all(files.map(async (f) => audioPayloadDigest(new Uint8Array(await readFile(f)), (await readTags(f)).audio.format, f)));
    const cover = await makeCover(dir, 'cover', 'jpeg', 40, 30);
    const results = await Promise.all(
      files.map((f, i) => pool.write(f, { fields: { title: `并行 ${i}`, tracknumber: `${i + 1}` }, artwork: i % 3 === 0 ? { mime: 'image/jpeg', data: cover } : undefined }, ctx())),
    );
    for (const [i, f] of files.entries()) {
      const { tags, audio } = await readTags(f);
      expect(tags.fields).toMatchObject({ title: `并行 ${i}`, tracknumber: `${i + 1}` });
      expect(results[i]!.changed).toContain('title');
      expect(results[i]!.after.fields.title).toBe(`并行 ${i}`);
      expect(await journal.get(results[i]!.writeId)).toMatchObject({ state: 'committed', path: f, actor: 'test' });
      const bytes = new Uint8Array(await readFile(f));
      expect(await audioPayloadDigest(bytes, audio.format, f)).toEqual(digests[i]);
      if (i % 3 === 0) {
        expect(tags.artwork?.sha256).toBe(results[i]!.after.artwork?.sha256);
        expect(results[i]!.artworkChanged).toBe(true);
      }
    }
    expect(await leftovers()).toEqual([]);
  });

  it('serialises writes to one file so none is lost, and a no-op touches nothing', async () => {
    const file = await copyOf('flac');
    await Promise.all([
      pool.write(file, { fields: { title: 'one' } }, ctx()),
      pool.write(file, { fields: { album: 'two' } }, ctx()),
      pool.write(file, { fields: { genre: 'three' } }, ctx()),
      pool.write(file, { fields: { composer: 'four' } }, ctx()),
    ]);
    expect((await readTags(file)).tags.fields).toMatchObject({ title: 'one', album: 'two', genre: 'three', composer: 'four' });
    const sha = await fileSha256(file);
    const noop = await pool.write(file, { fields: { title: 'one' } }, ctx());
    expect(noop.changed).toEqual([]);
    expect(await journal.get(noop.writeId)).toBeNull();
    expect(await fileSha256(file)).toBe(sha);
  });

  it('passes refusals back with their kind and code, original untouched', async () => {
    const file = await copyOf('mp3-id3v24');
    const sha = await fileSha256(file);
    const bad = await failure(pool.write(file, { fields: { year: 'last summer' } }, ctx()));
    expect(bad).toMatchObject({ kind: 'invalid', code: 'TAGSONIC_ERR_TAGS_INVALID_VALUE' });
    const missing = await failure(pool.write(path.join(dir, 'missing.flac'), { fields: { title: 'x' } }, ctx()));
    expect(missing).toMatchObject({ kind: 'not_found', code: 'TAGSONIC_ERR_TAGS_NOT_FOUND' });
    // A temp file damaged after it was written is caught by the verification on the writer thread.
    const err = await failure(
      pool.write(file, { fields: { title: 'ABCDEFGH' } }, ctx(), {
        afterTempWritten: async (temp) => {
          const bytes = await readFile(temp);
          bytes.write('ABCDEFGX', bytes.indexOf('ABCDEFGH'), 'latin1');
          await writeFile(temp, bytes);
        },
      }),
    );
    expect(err.code).toBe('TAGSONIC_ERR_TAGS_VERIFY_MISMATCH');
    expect(err.details?.differences).toEqual([{ what: 'title', expected: 'ABCDEFGH', actual: 'ABCDEFGX' }]);
    expect(await fileSha256(file)).toBe(sha);
    expect(await leftovers()).toEqual([]);
  });

  it.each(['prepare', 'verify'] as const)('a writer thread that dies during %s fails that write clearly and the pool carries on', async (step) => {
    const file = await copyOf('m4a-aac');
    const sha = await fileSha256(file);
    const err = await failure(pool.write(file, { fields: { title: 'crash' } }, ctx(), { injectFault: { step, fault: 'exit' } }));
    expect(err).toMatchObject({ kind: 'unavailable', code: 'TAGSONIC_ERR_TAGS_WRITER_CRASHED' });
    expect(err.message).toContain(file);
    expect(err.message).toContain('original was left untouched');
    expect(await fileSha256(file)).toBe(sha);
    expect(await leftovers()).toEqual([]);
    // Nothing was journaled for the failed write; the replacement thread writes normally.
    expect(await journal.listByPath(file)).toEqual([]);
    await pool.write(file, { fields: { title: 'after crash' } }, ctx());
    expect((await readTags(file)).tags.fields.title).toBe('after crash');
  });

  it('a step that hangs past the timeout is stopped with a clear error and the thread replaced', async () => {
    const small = createTagWriterPool({ threads: 1, stepTimeoutMs: 3000 });
    try {
      const stuck = await copyOf('ogg');
      const other = await copyOf('wav');
      const sha = await fileSha256(stuck);
      const [hung, fine] = await Promise.allSettled([
        small.write(stuck, { fields: { title: 'hang' } }, ctx(), { injectFault: { step: 'verify', fault: 'hang' } }),
        // Queued behind the stuck write on the only thread, or caught with it: either it succeeds, or
        // it fails with a clear code — never silently.
        small.write(other, { fields: { title: 'neighbour' } }, ctx()),
      ]);
      expect(hung.status).toBe('rejected');
      const err = (hung as PromiseRejectedResult).reason as TagsonicError;
      expect(err).toBeInstanceOf(TagsonicError);
      expect(err).toMatchObject({ kind: 'unavailable', code: 'TAGSONIC_ERR_TAGS_WRITE_TIMEOUT' });
      expect(err.message).toContain(stuck);
      expect(await fileSha256(stuck)).toBe(sha);
      if (fine.status === 'rejected') expect(['TAGSONIC_ERR_TAGS_WRITE_TIMEOUT', 'TAGSONIC_ERR_TAGS_WRITER_CRASHED']).toContain((fine.reason as TagsonicError).code);
      else expect((await readTags(other)).tags.fields.title).toBe('neighbour');
      expect(await leftovers()).toEqual([]);
      await small.write(stuck, { fields: { title: 'recovered' } }, ctx());
      expect((await readTags(stuck)).tags.fields.title).toBe('recovered');
    } finally {
      await small.close();
    }
  });

  it('finishes writes under way on close and refuses new ones', async () => {
    const own = createTagWriterPool({ threads: 2 });
    const files = await Promise.all(Array.from({ length: 6 }, () => copyOf('opus')));
    const writes = files.map((f, i) => own.write(f, { fields: { title: `closing ${i}` } }, ctx()));
    const closing = own.close();
    const err = await failure(own.write(files[0]!, { fields: { title: 'late' } }, ctx()));
    expect(err.code).toBe('TAGSONIC_ERR_TAGS_POOL_CLOSED');
    await Promise.all(writes);
    await closing;
    for (const [i, f] of files.entries()) expect((await readTags(f)).tags.fields.title).toBe(`closing ${i}`);
  });

  it('keeps no thread while idle: threads start with the first write and stop after idleMs without one', async () => {
    /** The process's threads as the kernel sees them: a terminated worker is gone from here. */
    const osThreads = () => readdirSync('/proc/self/task').length;
    const idle = createTagWriterPool({ threads: 2, idleMs: 400 });
    try {
      const before = osThreads();
      expect(idle.liveThreads).toBe(0);
      const files = await Promise.all(Array.from({ length: 4 }, () => copyOf('flac')));
      const writes = files.map((f, i) => idle.write(f, { fields: { title: `burst ${i}` } }, ctx()));
      expect(idle.liveThreads).toBe(2);
      await Promise.all(writes);
      expect(osThreads()).toBeGreaterThanOrEqual(before + 2);
      // Writes keep coming within idleMs: the same threads stay.
      await new Promise((r) => setTimeout(r, 200));
      await idle.write(files[0]!, { fields: { title: 'still warm' } }, ctx());
      expect(idle.liveThreads).toBe(2);
      await expect.poll(() => idle.liveThreads, { timeout: 5000 }).toBe(0);
      await expect.poll(osThreads, { timeout: 5000 }).toBeLessThanOrEqual(before);
      // The next write starts them again and works as before.
      await idle.write(files[1]!, { fields: { title: 'woken' } }, ctx());
      expect((await readTags(files[1]!)).tags.fields.title).toBe('woken');
      expect((await readTags(files[0]!)).tags.fields.title).toBe('still warm');
      await expect.poll(() => idle.liveThreads, { timeout: 5000 }).toBe(0);
    } finally {
      await idle.close();
    }
  });
});
