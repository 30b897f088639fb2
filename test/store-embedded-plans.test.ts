/**
 * The embedded store's hot paths use its secondary indexes instead of scanning: checked with `explain`,
 * which reports how many index keys and documents a query examined.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type Doc, type EmbeddedCollection, type EmbeddedStore } from '@tagsonic/core/store';

const N = 20_000;
const dir = mkdtempSync(path.join(tmpdir(), 'tagsonic-store-plans-'));
let store: EmbeddedStore;
let tracks: EmbeddedCollection<Doc>;

const pad = (i: number) => String(i).padStart(6, '0');

beforeAll(async () => {
  store = await openEmbeddedStore({ dir });
  tracks = store.collection('tracks');
  await tracks.createIndexes([
    { keys: { path: 1 }, unique: true },
    { keys: { title: 1 } },
    { keys: { albumId: 1, disc: 1, track: 1 } },
    { keys: { created: -1 } },
    { keys: { genres: 1 } },
  ]);
  const docs: Doc[] = [];
  for (let i = 0; i < N; i++) {
    docs.push({
      _id: `id${pad(i)}`,
      path: `/music/${i % 50}/${pad(i)}.flac`,
      title: `song ${pad((i * 7919) % N)}`,
      albumId: `al${Math.floor(i / 10)}`,
      disc: 1 + (i % 2),
      track: i % 10,
      genres: [`g${i % 13}`, `g${(i + 5) % 13}`],
      year: 1950 + (i % 70),
      created: new Date(1_600_000_000_000 + i * 60_000),
    });
  }
  await tracks.insertMany(docs);
}, 120_000);

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('embedded store query plans', () => {
  it('a sorted indexed page of 10 examines 10 documents, whatever the skip', async () => {
    for (const skip of [0, 5_000, 19_990]) {
      const stats = await tracks.explain({}, { sort: { title: 1 }, skip, limit: 10 });
      expect(stats).toMatchObject({ plan: 'index', index: 'title_1', sortedByIndex: true, returned: 10 });
      expect(stats.docsExamined).toBeLessThanOrEqual(10);
      const page = await tracks.find({}, { sort: { title: 1 }, skip, limit: 10 });
      expect(page.map((d) => d.title)).toEqual(Array.from({ length: 10 }, (_, k) => `song ${pad(skip + k)}`));
    }
  });

  it('walks a descending index both ways', async () => {
    const newest = await tracks.explain({}, { sort: { created: -1 }, skip: 100, limit: 10 });
    expect(newest).toMatchObject({ index: 'created_-1', sortedByIndex: true, docsExamined: 10 });
    const oldest = await tracks.find({}, { sort: { created: 1 }, skip: 100, limit: 3 });
    expect(oldest.map((d) => d._id)).toEqual(['id000100', 'id000101', 'id000102']);
    expect((await tracks.explain({}, { sort: { created: 1 }, skip: 100, limit: 3 })).docsExamined).toBe(3);
  });

  it('looks up equality and $in through indexes', async () => {
    const byPath = await tracks.explain({ path: '/music/7/000007.flac' });
    expect(byPath).toMatchObject({ plan: 'index', index: 'path_1', docsExamined: 1, returned: 1 });
    const byIds = await tracks.explain({ _id: { $in: ['id000001', 'id000500', 'missing'] } });
    expect(byIds).toMatchObject({ plan: 'ids', docsExamined: 2, returned: 2 });
    const byAlbums = await tracks.explain({ albumId: { $in: ['al5', 'al6'] } });
    expect(byAlbums).toMatchObject({ plan: 'index', index: 'albumId_1_disc_1_track_1', docsExamined: 20, returned: 20 });
    const byGenre = await tracks.explain({ genres: 'g3' }, { limit: 5 });
    expect(byGenre).toMatchObject({ index: 'genres_1', docsExamined: 5 });
  });

  it('an album in disc/track order comes from the compound index without sorting', async () => {
    const stats = await tracks.explain({ albumId: 'al42' }, { sort: { disc: 1, track: 1 } });
    expect(stats).toMatchObject({ index: 'albumId_1_disc_1_track_1', sortedByIndex: true, docsExamined: 10 });
    const docs = await tracks.find({ albumId: 'al42' }, { sort: { disc: -1, track: -1 }, limit: 3 });
    expect(docs.map((d) => [d.disc, d.track])).toEqual([
      [2, 9],
      [2, 7],
      [2, 5],
    ]);
  });

  it('ranges and path prefixes only examine what matches', async () => {
    const range = await tracks.explain({ created: { $gte: new Date(1_600_000_000_000 + 100 * 60_000), $lt: new Date(1_600_000_000_000 + 150 * 60_000) } });
    expect(range).toMatchObject({ index: 'created_-1', docsExamined: 50, returned: 50 });
    const folder = await tracks.explain({ path: { $regex: '^/music/7/' } });
    expect(folder).toMatchObject({ index: 'path_1', docsExamined: N / 50, returned: N / 50 });
  });

  it('a filtered sorted page stops early instead of sorting everything', async () => {
    const stats = await tracks.explain({ year: 1960 }, { sort: { title: 1 }, limit: 10 });
    expect(stats).toMatchObject({ index: 'title_1', sortedByIndex: true, returned: 10 });
    expect(stats.docsExamined).toBeLessThan(2_000);
  });

  it('counts exactly-covered filters without reading documents, fast', async () => {
    const t0 = performance.now();
    expect(await tracks.countDocuments({ albumId: 'al3' })).toBe(10);
    expect(await tracks.countDocuments({ genres: { $in: ['g1', 'g2'] } })).toBeGreaterThan(0);
    expect(await tracks.countDocuments()).toBe(N);
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it('an unindexed filter falls back to a scan and still answers correctly', async () => {
    const stats = await tracks.explain({ year: 2001, disc: 2 }, { sort: { _id: 1 }, limit: 5 });
    expect(stats.plan).toBe('scan');
    const docs = await tracks.find({ year: 2001, disc: 2 }, { sort: { _id: 1 }, limit: 5 });
    expect(docs.every((d) => d.year === 2001 && d.disc === 2)).toBe(true);
  });
});
