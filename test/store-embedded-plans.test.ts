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

  it('pages past the end are empty', async () => {
    expect(await tracks.find({}, { sort: { title: 1 }, skip: N + 5, limit: 10 })).toEqual([]);
    expect(await tracks.find({ albumId: 'al3' }, { sort: { disc: 1, track: 1 }, skip: 10, limit: 10 })).toEqual([]);
    expect((await tracks.find({ albumId: 'al3' }, { sort: { disc: -1, track: -1 }, skip: 9, limit: 10 })).map((d) => d._id)).toEqual(['id000030']);
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

  it('leading $match and $sort stages of a pipeline use the indexes', async () => {
    const page = await tracks.explainAggregate([{ $sort: { title: 1 } }, { $skip: 1_000 }, { $limit: 5 }, { $project: { title: 1 } }]);
    expect(page).toMatchObject({ index: 'title_1', sortedByIndex: true, docsExamined: 5 });
    const album = await tracks.explainAggregate([{ $match: { albumId: 'al7' } }, { $group: { _id: '$disc', n: { $sum: 1 } } }]);
    expect(album).toMatchObject({ index: 'albumId_1_disc_1_track_1', docsExamined: 10 });
    const grouped = await tracks.aggregate([{ $match: { albumId: 'al7' } }, { $group: { _id: '$disc', n: { $sum: 1 } } }, { $sort: { _id: 1 } }]);
    expect(grouped).toEqual([
      { _id: 1, n: 5 },
      { _id: 2, n: 5 },
    ]);
  });

  it('an unindexed filter falls back to a scan and still answers correctly', async () => {
    const stats = await tracks.explain({ year: 2001, disc: 2 }, { sort: { _id: 1 }, limit: 5 });
    expect(stats.plan).toBe('scan');
    const docs = await tracks.find({ year: 2001, disc: 2 }, { sort: { _id: 1 }, limit: 5 });
    expect(docs.every((d) => d.year === 2001 && d.disc === 2)).toBe(true);
  });
});

describe('embedded store plans against scans', () => {
  it('random filters, sorts and pages answer the same through indexes as through a scan', { timeout: 120_000 }, async () => {
    let seed = 99;
    const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const strs = ['', 'a', 'ab', 'b', 'B', 'ba', 'é', 'a\u0000', 'zz'];
    // Mostly small integers so that equal values and range edges are common; every type appears.
    const scalar = (): unknown => {
      const r = rnd();
      if (r < 0.5) return Math.floor(rnd() * 10);
      if (r < 0.65) return pick(strs);
      if (r < 0.73) return new Date(1_700_000_000_000 + Math.floor(rnd() * 10) * 1000);
      if (r < 0.8) return null;
      if (r < 0.87) return undefined;
      if (r < 0.95) return Math.round((rnd() * 20 - 5) * 4) / 4;
      return rnd() < 0.5;
    };
    const docs: Doc[] = [];
    for (let i = 0; i < 600; i++) {
      const d: Doc = { _id: `r${String(Math.floor(rnd() * 1e6)).padStart(7, '0')}_${i}` };
      for (const f of ['a', 'b', 'c', 'd']) {
        const v = scalar();
        if (v !== undefined) d[f] = v;
      }
      if (rnd() < 0.5) d.tags = Array.from({ length: Math.floor(rnd() * 3) }, () => pick(strs));
      if (rnd() < 0.7) d.n = { x: Math.floor(rnd() * 5) };
      docs.push(d);
    }
    const plain = store.collection<Doc>('random_plain');
    const indexed = store.collection<Doc>('random_indexed');
    await plain.insertMany(docs);
    await indexed.insertMany(docs);
    await indexed.createIndexes([
      { keys: { a: 1 } },
      { keys: { b: 1, a: -1 } },
      { keys: { c: -1 } },
      { keys: { tags: 1 } },
      { keys: { d: 1, b: 1 } },
      { keys: { 'n.x': 1, c: 1 } },
      { keys: { b: -1 }, sparse: true, name: 'b_sparse' },
    ]);
    const fields = ['a', 'b', 'c', 'd', 'tags', 'n.x'];
    const condition = (): unknown => {
      const v = scalar() ?? null;
      switch (Math.floor(rnd() * 9)) {
        case 0: return v;
        case 8: return { $gte: v };
        case 1: return { $in: [v, scalar() ?? null, scalar() ?? 1] };
        case 2: return { $gt: v };
        case 3: return { $gte: v, $lt: scalar() ?? 5 };
        case 4: return { $lte: v };
        case 5: return { $regex: `^${pick(['a', 'b', 'z', ''])}` };
        case 6: return { $ne: v };
        default: return { $exists: rnd() < 0.5 };
      }
    };
    let indexUsed = 0;
    for (let q = 0; q < 600; q++) {
      const filter: Record<string, unknown> = {};
      for (let k = Math.floor(rnd() * 3); k > 0; k--) filter[pick(fields)] = condition();
      const sort: Record<string, 1 | -1> = {};
      for (let k = Math.floor(rnd() * 3); k > 0; k--) sort[pick(fields)] = rnd() < 0.5 ? 1 : -1;
      if (rnd() < 0.3) sort._id = rnd() < 0.5 ? 1 : -1;
      const options = { sort: Object.keys(sort).length ? sort : { _id: 1 as const }, skip: rnd() < 0.5 ? Math.floor(rnd() * 50) : 0, limit: rnd() < 0.7 ? Math.floor(rnd() * 30) : 0 };
      const expected = (await plain.find(filter, options)).map((d) => d._id);
      const got = (await indexed.find(filter, options)).map((d) => d._id);
      expect(got, JSON.stringify({ filter, options })).toEqual(expected);
      expect(await indexed.countDocuments(filter), JSON.stringify(filter)).toBe(await plain.countDocuments(filter));
      if ((await indexed.explain(filter, options)).plan === 'index') indexUsed++;
    }
    expect(indexUsed).toBeGreaterThan(180);
    for (const f of fields) expect(await indexed.distinct(f), f).toEqual(await plain.distinct(f));
  });
});
