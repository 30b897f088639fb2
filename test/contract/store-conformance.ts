/**
 * The store conformance suite: one set of behaviours (MongoDB's) that every store driver must show.
 * Run it from a driver's test file with a function that opens that driver on the same data each time:
 * `storeConformance('embedded', () => openEmbeddedStore({ dir }))`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@tagsonic/core';
import type { Collection, Doc, Store } from '@tagsonic/core/store';

interface Track extends Doc {
  path: string;
  title?: string;
  artist?: string;
  albumId?: string;
  year?: number | null;
  genre?: string;
  tags?: string[];
  plays?: number;
}

const code = (c: string) => expect.objectContaining({ code: c });
const DUPLICATE = 'TAGSONIC_ERR_STORE_DUPLICATE_KEY';
const INVALID_UPDATE = 'TAGSONIC_ERR_STORE_INVALID_UPDATE';
const ids = <T>(docs: readonly { _id: T }[]): T[] => docs.map((d) => d._id);

export function storeConformance(name: string, open: () => Promise<Store>): void {
  describe(`store conformance: ${name}`, () => {
    let store: Store;
    let n = 0;
    /** A fresh, empty collection per test so tests never see each other's documents. */
    const fresh = async <T extends Doc = Track>(label: string): Promise<Collection<T>> => {
      const collName = `conf_${label}_${++n}`;
      await store.dropCollection(collName);
      return store.collection<T>(collName);
    };

    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
    });

    describe('documents', () => {
      it('inserts and reads back documents with their types', async () => {
        const c = await fresh<Doc>('types');
        const when = new Date('2024-05-01T10:20:30.456Z');
        await c.insertOne({ _id: 'a', s: 'text', n: 1.5, i: 42, b: true, nil: null, d: when, arr: [1, 'x', { y: 2 }], obj: { k: { deep: 'v' } }, gone: undefined });
        const got = await c.findOne({ _id: 'a' });
        expect(got).toEqual({ _id: 'a', s: 'text', n: 1.5, i: 42, b: true, nil: null, d: when, arr: [1, 'x', { y: 2 }], obj: { k: { deep: 'v' } } });
        expect(got!.d).toBeInstanceOf(Date);
        expect('gone' in got!).toBe(false);
      });

      it('returns copies: changing a read or an inserted object does not change the store', async () => {
        const c = await fresh('copies');
        const doc: Track = { _id: 'a', path: '/a', tags: ['x'] };
        await c.insertOne(doc);
        doc.tags!.push('mutated');
        const read = (await c.findOne({ _id: 'a' }))!;
        read.tags!.push('also');
        expect((await c.findOne({ _id: 'a' }))!.tags).toEqual(['x']);
      });

      it('rejects a duplicate _id and a document without a string _id', async () => {
        const c = await fresh('dupid');
        await c.insertOne({ _id: 'a', path: '/a' });
        await expect(c.insertOne({ _id: 'a', path: '/b' })).rejects.toEqual(code(DUPLICATE));
        await expect(c.insertOne({ path: '/c' } as unknown as Track)).rejects.toEqual(code('TAGSONIC_ERR_STORE_INVALID_DOCUMENT'));
        await expect(c.insertOne({ _id: 7, path: '/c' } as unknown as Track)).rejects.toEqual(code('TAGSONIC_ERR_STORE_INVALID_DOCUMENT'));
        expect(await c.countDocuments()).toBe(1);
      });

      it('insertMany is ordered: stops at the first duplicate and keeps the documents before it', async () => {
        const c = await fresh('ordered');
        await c.insertOne({ _id: 'c', path: '/c' });
        const docs = ['a', 'b', 'c', 'd'].map((id) => ({ _id: id, path: `/${id}` }));
        await expect(c.insertMany(docs)).rejects.toEqual(code(DUPLICATE));
        expect(ids(await c.find({}, { sort: { _id: 1 } }))).toEqual(['a', 'b', 'c']);
        await c.insertMany([]);
      });

      it('finds, counts and deletes', async () => {
        const c = await fresh('crud');
        await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: `t${i}`, path: `/${i}`, year: 2000 + i, genre: i % 2 ? 'rock' : 'jazz' })));
        expect(await c.countDocuments()).toBe(10);
        expect(await c.countDocuments({ genre: 'rock' })).toBe(5);
        expect(await c.findOne({ path: '/nope' })).toBeNull();
        expect(await c.deleteOne({ genre: 'rock', year: { $lt: 2005 } })).toEqual({ deletedCount: 1 });
        expect(await c.deleteMany({ year: { $gte: 2005 } })).toEqual({ deletedCount: 5 });
        expect(await c.deleteMany({ year: 1900 })).toEqual({ deletedCount: 0 });
        expect(await c.countDocuments()).toBe(4);
      });

      it('replaceOne replaces the whole document and keeps _id', async () => {
        const c = await fresh('replace');
        await c.insertOne({ _id: 'a', path: '/a', title: 'old', plays: 3 });
        expect(await c.replaceOne({ path: '/a' }, { _id: 'a', path: '/a', title: 'new' })).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
        expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', path: '/a', title: 'new' });
        await expect(c.replaceOne({ _id: 'a' }, { _id: 'b', path: '/a' })).rejects.toEqual(code('TAGSONIC_ERR_STORE_IMMUTABLE_ID'));
        expect(await c.replaceOne({ _id: 'zz' }, { _id: 'zz', path: '/z' })).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: null });
        expect(await c.replaceOne({ _id: 'zz' }, { _id: 'zz', path: '/z' }, { upsert: true })).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: 'zz' });
        expect(await c.findOne({ _id: 'zz' })).toEqual({ _id: 'zz', path: '/z' });
      });
    });

    describe('filters', () => {
      let c: Collection<Doc>;
      beforeAll(async () => {
        c = await fresh<Doc>('filters');
        await c.insertMany([
          { _id: 'a', v: 5, s: 'apple', tags: ['x', 'y'], sub: { k: 1 }, arr: [{ k: 1, w: 'p' }, { k: 2, w: 'q' }] },
          { _id: 'b', v: '7', s: 'Banana', tags: ['y'], sub: { k: 2 } },
          { _id: 'c', v: null, s: 'cherry', tags: [] },
          { _id: 'd', s: 'date' },
          { _id: 'e', v: [1, 9], s: 'elder' },
          { _id: 'f', v: 12, s: 'fig', d: new Date('2020-01-01T00:00:00Z') },
        ]);
      });
      const q = async (filter: Record<string, unknown>) => ids(await c.find(filter, { sort: { _id: 1 } }));

      it('compares within a type only (type bracketing)', async () => {
        expect(await q({ v: { $gt: 4 } })).toEqual(['a', 'e', 'f']);
        expect(await q({ v: { $gte: 5, $lte: 12 } })).toEqual(['a', 'e', 'f']);
        expect(await q({ v: { $lt: '9' } })).toEqual(['b']);
        expect(await q({ d: { $lt: new Date('2021-01-01T00:00:00Z') } })).toEqual(['f']);
      });

      it('matches null and missing alike, and array elements', async () => {
        expect(await q({ v: null })).toEqual(['c', 'd']);
        expect(await q({ v: { $ne: null } })).toEqual(['a', 'b', 'e', 'f']);
        expect(await q({ v: { $exists: false } })).toEqual(['d']);
        expect(await q({ tags: 'y' })).toEqual(['a', 'b']);
        expect(await q({ tags: { $size: 0 } })).toEqual(['c']);
        expect(await q({ v: 9 })).toEqual(['e']);
      });

      it('supports $in, $nin, $or, $and, $not, $regex, dotted paths and $elemMatch', async () => {
        expect(await q({ v: { $in: [5, '7', null] } })).toEqual(['a', 'b', 'c', 'd']);
        expect(await q({ s: { $nin: ['apple', 'fig'] } })).toEqual(['b', 'c', 'd', 'e']);
        expect(await q({ $or: [{ v: 5 }, { s: 'date' }] })).toEqual(['a', 'd']);
        expect(await q({ $and: [{ tags: 'y' }, { 'sub.k': 2 }] })).toEqual(['b']);
        expect(await q({ v: { $not: { $gt: 6 } } })).toEqual(['a', 'b', 'c', 'd']);
        expect(await q({ s: { $regex: '^b', $options: 'i' } })).toEqual(['b']);
        expect(await q({ s: /an/ })).toEqual(['b']);
        expect(await q({ 'arr.w': 'q' })).toEqual(['a']);
        expect(await q({ arr: { $elemMatch: { k: 2, w: 'q' } } })).toEqual(['a']);
        expect(await q({ arr: { $elemMatch: { k: 1, w: 'q' } } })).toEqual([]);
      });

      it('rejects an unknown query operator', async () => {
        await expect(c.find({ v: { $nonsense: 1 } })).rejects.toEqual(code('TAGSONIC_ERR_STORE_INVALID_QUERY'));
      });
    });

    describe('update operators', () => {
      const one = async (doc: Doc, update: Record<string, unknown>): Promise<Doc> => {
        const c = await fresh<Doc>('upd');
        await c.insertOne(doc);
        await c.updateOne({ _id: doc._id }, update);
        return (await c.findOne({ _id: doc._id }))!;
      };

      it('$set and $unset, including nested paths', async () => {
        expect(await one({ _id: 'a', x: 1, y: 2 }, { $set: { x: 10, 'm.n.o': 'deep' }, $unset: { y: '' } })).toEqual({ _id: 'a', x: 10, m: { n: { o: 'deep' } } });
        expect(await one({ _id: 'a', arr: [1, 2, 3] }, { $set: { 'arr.1': 20 } })).toEqual({ _id: 'a', arr: [1, 20, 3] });
        expect(await one({ _id: 'a', arr: [1, 2, 3] }, { $unset: { 'arr.1': '' } })).toEqual({ _id: 'a', arr: [1, null, 3] });
      });

      it('$inc and $mul, on missing fields too', async () => {
        expect(await one({ _id: 'a', n: 5, f: 2 }, { $inc: { n: 2, fresh: 3 }, $mul: { f: 2.5, zero: 4 } })).toEqual({ _id: 'a', n: 7, f: 5, fresh: 3, zero: 0 });
      });

      it('$min and $max compare like MongoDB, dates included', async () => {
        const early = new Date('2001-01-01T00:00:00Z');
        const late = new Date('2030-01-01T00:00:00Z');
        const mid = new Date('2015-01-01T00:00:00Z');
        expect(await one({ _id: 'a', lo: 5, hi: 5, d1: mid, d2: mid }, { $min: { lo: 3, d1: early, none: 1 }, $max: { hi: 9, d2: late } })).toEqual({
          _id: 'a', lo: 3, hi: 9, d1: early, d2: late, none: 1,
        });
        expect(await one({ _id: 'a', lo: 5, hi: 5 }, { $min: { lo: 8 }, $max: { hi: 1 } })).toEqual({ _id: 'a', lo: 5, hi: 5 });
      });

      it('$push with $each, $position and $slice', async () => {
        expect(await one({ _id: 'a', l: [1] }, { $push: { l: 2, m: 'new' } })).toEqual({ _id: 'a', l: [1, 2], m: ['new'] });
        expect(await one({ _id: 'a', l: [1, 2, 3] }, { $push: { l: { $each: [8, 9], $position: 1 } } })).toEqual({ _id: 'a', l: [1, 8, 9, 2, 3] });
        expect(await one({ _id: 'a', l: [1, 2, 3] }, { $push: { l: { $each: [4, 5], $slice: -3 } } })).toEqual({ _id: 'a', l: [3, 4, 5] });
        expect(await one({ _id: 'a', l: [1, 2, 3] }, { $push: { l: { $each: [4], $slice: 2 } } })).toEqual({ _id: 'a', l: [1, 2] });
        expect(await one({ _id: 'a', l: [3, 1] }, { $push: { l: { $each: [2], $sort: 1 } } })).toEqual({ _id: 'a', l: [1, 2, 3] });
      });

      it('$addToSet with and without $each', async () => {
        expect(await one({ _id: 'a', s: ['x'] }, { $addToSet: { s: 'x', t: 'new' } })).toEqual({ _id: 'a', s: ['x'], t: ['new'] });
        expect(await one({ _id: 'a', s: ['x'] }, { $addToSet: { s: { $each: ['y', 'x', 'y', 'z'] } } })).toEqual({ _id: 'a', s: ['x', 'y', 'z'] });
      });

      it('$pull by value and by condition, $pullAll, $pop', async () => {
        expect(await one({ _id: 'a', l: [1, 2, 3, 2] }, { $pull: { l: 2 } })).toEqual({ _id: 'a', l: [1, 3] });
        expect(await one({ _id: 'a', l: [1, 5, 8, 3] }, { $pull: { l: { $gte: 5 } } })).toEqual({ _id: 'a', l: [1, 3] });
        expect(await one({ _id: 'a', l: [{ k: 1, w: 'a' }, { k: 2, w: 'b' }] }, { $pull: { l: { k: 2 } } })).toEqual({ _id: 'a', l: [{ k: 1, w: 'a' }] });
        expect(await one({ _id: 'a', l: [1, 2, 3, 1] }, { $pullAll: { l: [1, 3] } })).toEqual({ _id: 'a', l: [2] });
        expect(await one({ _id: 'a', l: [1, 2, 3], m: [1, 2, 3] }, { $pop: { l: 1, m: -1 } })).toEqual({ _id: 'a', l: [1, 2], m: [2, 3] });
      });

      it('$rename and $currentDate', async () => {
        expect(await one({ _id: 'a', old: 1, sub: { x: 2 } }, { $rename: { old: 'neu', 'sub.x': 'top' } })).toEqual({ _id: 'a', neu: 1, sub: {}, top: 2 });
        const before = Date.now();
        const got = await one({ _id: 'a' }, { $currentDate: { at: true, at2: { $type: 'date' } } });
        expect(got.at).toBeInstanceOf(Date);
        expect((got.at as Date).getTime()).toBeGreaterThanOrEqual(before - 5_000);
        expect((got.at2 as Date).getTime()).toBeLessThanOrEqual(Date.now() + 5_000);
      });

      it('$setOnInsert only applies when inserting', async () => {
        expect(await one({ _id: 'a', x: 1 }, { $set: { x: 2 }, $setOnInsert: { created: 'now' } })).toEqual({ _id: 'a', x: 2 });
      });

      it('reports matched and modified counts like MongoDB', async () => {
        const c = await fresh('counts');
        await c.insertMany([{ _id: 'a', path: '/a', plays: 1 }, { _id: 'b', path: '/b', plays: 1 }]);
        expect(await c.updateOne({ _id: 'a' }, { $set: { plays: 1 } })).toEqual({ matchedCount: 1, modifiedCount: 0, upsertedId: null });
        expect(await c.updateMany({}, { $inc: { plays: 1 } })).toEqual({ matchedCount: 2, modifiedCount: 2, upsertedId: null });
        expect(await c.updateMany({ path: '/none' }, { $inc: { plays: 1 } })).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: null });
      });

      it('rejects invalid updates the same way', async () => {
        const c = await fresh<Doc>('badupd');
        await c.insertOne({ _id: 'a', s: 'text', n: 1 });
        await expect(c.updateOne({ _id: 'a' }, { s: 'replacement' })).rejects.toEqual(code(INVALID_UPDATE));
        await expect(c.updateOne({ _id: 'a' }, {})).rejects.toEqual(code(INVALID_UPDATE));
        await expect(c.updateOne({ _id: 'a' }, { $set: { n: 1 }, $inc: { n: 1 } })).rejects.toEqual(code(INVALID_UPDATE));
        await expect(c.updateOne({ _id: 'a' }, { $set: { m: 1, 'm.x': 1 } })).rejects.toEqual(code(INVALID_UPDATE));
        await expect(c.updateOne({ _id: 'a' }, { $inc: { s: 1 } })).rejects.toEqual(code(INVALID_UPDATE));
        await expect(c.updateOne({ _id: 'a' }, { $push: { s: 1 } })).rejects.toEqual(code(INVALID_UPDATE));
        await expect(c.updateOne({ _id: 'a' }, { $set: { _id: 'b' } })).rejects.toEqual(code('TAGSONIC_ERR_STORE_IMMUTABLE_ID'));
        expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', s: 'text', n: 1 });
      });
    });

    describe('upserts', () => {
      it('seeds the new document from the equality fields of the filter', async () => {
        const c = await fresh<Doc>('upsert');
        const r = await c.updateOne(
          { path: '/x', 'meta.kind': 'song', year: { $gt: 1990 }, $and: [{ genre: 'pop' }] },
          { $set: { title: 'T' }, $setOnInsert: { plays: 0 }, $inc: { seen: 1 } },
          { upsert: true },
        );
        expect(r.matchedCount).toBe(0);
        expect(typeof r.upsertedId).toBe('string');
        const doc = await c.findOne({ _id: r.upsertedId });
        expect(doc).toEqual({ _id: r.upsertedId, path: '/x', meta: { kind: 'song' }, genre: 'pop', title: 'T', plays: 0, seen: 1 });
        const again = await c.updateOne({ path: '/x', 'meta.kind': 'song' }, { $set: { title: 'U' }, $setOnInsert: { plays: 99 }, $inc: { seen: 1 } }, { upsert: true });
        expect(again).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
        expect(await c.findOne({ path: '/x' })).toMatchObject({ title: 'U', plays: 0, seen: 2 });
        expect(await c.countDocuments()).toBe(1);
      });

      it('takes _id from the filter', async () => {
        const c = await fresh<Doc>('upsertid');
        expect(await c.updateOne({ _id: 'given' }, { $set: { v: 1 } }, { upsert: true })).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: 'given' });
        expect(await c.findOne({ _id: 'given' })).toEqual({ _id: 'given', v: 1 });
      });

      it('findOneAndUpdate upserts and returns the chosen version', async () => {
        const c = await fresh<Doc>('fou');
        expect(await c.findOneAndUpdate({ key: 'k' }, { $inc: { n: 1 } }, { upsert: true, returnDocument: 'before' })).toBeNull();
        expect(await c.findOneAndUpdate({ key: 'k' }, { $inc: { n: 1 } }, { upsert: true })).toMatchObject({ key: 'k', n: 2 });
        expect(await c.findOneAndUpdate({ key: 'k' }, { $inc: { n: 1 } }, { returnDocument: 'before', projection: { n: 1, _id: 0 } })).toEqual({ n: 2 });
        expect(await c.findOneAndUpdate({ key: 'none' }, { $inc: { n: 1 } })).toBeNull();
      });

      it('dropIndex removes an index and its constraint; other indexes and queries go on', async () => {
        const c = await fresh<Doc>('dropidx');
        await c.createIndexes([{ keys: { path: 1 }, unique: true }, { keys: { album: 1 } }]);
        await c.insertMany([
          { _id: 'a', path: '/a', album: 'x' },
          { _id: 'b', path: '/b', album: 'x' },
        ]);
        await expect(c.insertOne({ _id: 'c', path: '/a', album: 'y' })).rejects.toEqual(code(DUPLICATE));
        await c.dropIndex('path_1');
        await c.dropIndex('path_1');
        await c.dropIndex('no_such_index');
        // The unique constraint went with the index; lookups by path still answer (by scanning).
        await c.insertOne({ _id: 'c', path: '/a', album: 'y' });
        expect((await c.find({ path: '/a' }, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(['a', 'c']);
        expect((await c.find({ album: 'x' }, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(['a', 'b']);
        // Created again, it indexes what is there now (and refuses the duplicate it finds).
        await expect(c.createIndexes([{ keys: { path: 1 }, unique: true }])).rejects.toEqual(code(DUPLICATE));
        await c.deleteOne({ _id: 'c' });
        await c.updateOne({ _id: 'a' }, { $set: { path: '/z' } });
        await c.createIndexes([{ keys: { path: 1 }, unique: true }]);
        // Nothing of the dropped index is left to answer for it: "/a" is nobody's path any more.
        expect(await c.find({ path: '/a' })).toEqual([]);
        expect((await c.find({ path: { $gte: '/a' } }, { sort: { path: -1 } })).map((d) => d._id)).toEqual(['a', 'b']);
        await expect(c.insertOne({ _id: 'd', path: '/b' })).rejects.toEqual(code(DUPLICATE));
      });

      it('concurrent upserts of one key with a unique index create one document', async () => {
        const c = await fresh('upsertrace');
        await c.createIndexes([{ keys: { path: 1 }, unique: true }]);
        const results = await Promise.allSettled(Array.from({ length: 20 }, () => c.updateOne({ path: '/same' }, { $inc: { plays: 1 } }, { upsert: true })));
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toEqual(code(DUPLICATE));
        expect(await c.countDocuments({ path: '/same' })).toBe(1);
        const ok = results.filter((r) => r.status === 'fulfilled').length;
        expect((await c.findOne({ path: '/same' }))!.plays).toBe(ok);
      });
    });

    describe('sort, skip, limit, projection', () => {
      it('orders missing, null and mixed types as MongoDB does', async () => {
        const c = await fresh<Doc>('mixed');
        const date = new Date('2020-01-01T00:00:00Z');
        await c.insertMany([
          { _id: 'date', v: date },
          { _id: 'bool', v: true },
          { _id: 'obj', v: { a: 1 } },
          { _id: 'strU', v: 'B' },
          { _id: 'strL', v: 'a' },
          { _id: 'num10', v: 10 },
          { _id: 'num2', v: 2.5 },
          { _id: 'neg', v: -3 },
          { _id: 'null', v: null },
          { _id: 'missing' },
          { _id: 'false', v: false },
        ]);
        const asc = ['missing', 'null', 'neg', 'num2', 'num10', 'strU', 'strL', 'obj', 'false', 'bool', 'date'];
        expect(ids(await c.find({}, { sort: { v: 1, _id: 1 } }))).toEqual(asc);
        const desc = ['date', 'bool', 'false', 'obj', 'strL', 'strU', 'num10', 'num2', 'neg', 'missing', 'null'];
        expect(ids(await c.find({}, { sort: { v: -1, _id: 1 } }))).toEqual(desc);
        await c.createIndexes([{ keys: { v: 1 } }]);
        expect(ids(await c.find({}, { sort: { v: 1, _id: 1 } }))).toEqual(asc);
        expect(ids(await c.find({}, { sort: { v: -1, _id: 1 } }))).toEqual(desc);
      });

      it('sorts arrays by their smallest element ascending and largest descending', async () => {
        const c = await fresh<Doc>('arrsort');
        await c.insertMany([
          { _id: 'a', v: [3, 9] },
          { _id: 'b', v: [5] },
          { _id: 'c', v: [1, 10] },
          { _id: 'd', v: 4 },
        ]);
        expect(ids(await c.find({}, { sort: { v: 1 } }))).toEqual(['c', 'a', 'd', 'b']);
        expect(ids(await c.find({}, { sort: { v: -1 } }))).toEqual(['c', 'a', 'b', 'd']);
      });

      it('sorts on several keys and pages with skip and limit', async () => {
        const c = await fresh('paging');
        const docs: Track[] = [];
        for (let i = 0; i < 57; i++) docs.push({ _id: `t${String(i).padStart(3, '0')}`, path: `/${i}`, artist: `ar${i % 5}`, year: 2000 + (i % 7) });
        await c.insertMany(docs);
        const expected = [...docs].sort((a, b) => (a.artist! < b.artist! ? -1 : a.artist! > b.artist! ? 1 : b.year! - a.year! || (a._id < b._id ? -1 : 1)));
        const sort = { artist: 1, year: -1, _id: 1 } as const;
        const paged: string[] = [];
        for (let skip = 0; skip < 57; skip += 10) paged.push(...ids(await c.find({}, { sort, skip, limit: 10 })));
        expect(paged).toEqual(ids(expected));
        expect(ids(await c.find({}, { sort, skip: 50 }))).toEqual(ids(expected.slice(50)));
        expect(await c.find({}, { sort, skip: 100, limit: 5 })).toEqual([]);
        await c.createIndexes([{ keys: { artist: 1, year: -1 } }]);
        const indexed: string[] = [];
        for (let skip = 0; skip < 57; skip += 10) indexed.push(...ids(await c.find({}, { sort, skip, limit: 10 })));
        expect(indexed).toEqual(ids(expected));
        const reversed = { artist: -1, year: 1, _id: -1 } as const;
        expect(ids(await c.find({}, { sort: reversed, skip: 7, limit: 20 }))).toEqual(ids([...expected].reverse().slice(7, 27)));
      });

      it('projects with inclusion, exclusion and dotted paths', async () => {
        const c = await fresh<Doc>('proj');
        await c.insertOne({ _id: 'a', title: 'T', lyrics: 'long', meta: { x: 1, y: 2 } });
        expect(await c.findOne({ _id: 'a' }, { projection: { title: 1 } })).toEqual({ _id: 'a', title: 'T' });
        expect(await c.findOne({ _id: 'a' }, { projection: { title: 1, _id: 0 } })).toEqual({ title: 'T' });
        expect(await c.findOne({ _id: 'a' }, { projection: { lyrics: 0 } })).toEqual({ _id: 'a', title: 'T', meta: { x: 1, y: 2 } });
        expect(await c.find({}, { projection: { 'meta.y': 1 } })).toEqual([{ _id: 'a', meta: { y: 2 } }]);
      });

      it('gives the same answers with and without indexes', async () => {
        const c = await fresh<Doc>('equiv');
        const genres = ['rock', 'pop', 'jazz', undefined, null];
        const docs: Doc[] = [];
        for (let i = 0; i < 300; i++) {
          const d: Doc = { _id: `d${String(i).padStart(4, '0')}`, albumId: `al${i % 17}`, track: (i * 7) % 13, title: `title ${(i * 31) % 101}`, path: `/music/${i % 9}/${i}.flac` };
          const g = genres[i % genres.length];
          if (g !== undefined) d.genre = g;
          if (i % 3 === 0) d.year = 1990 + (i % 25);
          if (i % 11 === 0) d.year = `unknown`;
          if (i % 4 === 0) d.tags = [`t${i % 5}`, `t${(i + 1) % 5}`];
          docs.push(d);
        }
        await c.insertMany(docs);
        const queries: [Record<string, unknown>, { sort?: Record<string, 1 | -1>; skip?: number; limit?: number }][] = [
          [{ albumId: 'al3' }, { sort: { track: 1, _id: 1 } }],
          [{ albumId: { $in: ['al3', 'al5', 'none'] } }, { sort: { track: -1, _id: 1 } }],
          [{ albumId: 'al3', track: { $gte: 4, $lt: 10 } }, { sort: { _id: 1 } }],
          [{ genre: null }, { sort: { _id: 1 } }],
          [{ genre: 'rock', year: { $gt: 2000 } }, { sort: { year: 1, _id: 1 } }],
          [{ year: { $lte: 2000 } }, { sort: { year: -1, _id: 1 }, skip: 3, limit: 7 }],
          [{ year: 'unknown' }, { sort: { _id: -1 } }],
          [{ tags: 't2' }, { sort: { _id: 1 } }],
          [{ tags: { $in: ['t1', 't4'] } }, { sort: { title: 1, _id: 1 }, limit: 9 }],
          [{ path: { $regex: '^/music/4/' } }, { sort: { path: 1 } }],
          [{}, { sort: { title: 1, _id: 1 }, skip: 40, limit: 25 }],
          [{}, { sort: { title: -1, _id: 1 }, skip: 40, limit: 25 }],
          [{}, { sort: { title: -1, _id: -1 }, skip: 3, limit: 5 }],
          [{ albumId: 'al7' }, { sort: { track: -1, title: 1, _id: 1 } }],
          [{ _id: { $gt: 'd0100', $lte: 'd0120' } }, { sort: { _id: -1 } }],
          [{ title: { $gte: 'title 5' } }, { sort: { title: 1, _id: 1 }, limit: 30 }],
        ];
        const run = async () => {
          const out: unknown[] = [];
          for (const [f, o] of queries) {
            out.push(ids(await c.find(f, o)));
            out.push(await c.countDocuments(f));
          }
          out.push(await c.distinct('tags'), await c.distinct('genre', { albumId: 'al2' }), await c.distinct('genre'), await c.distinct('year'), await c.distinct('path'));
          return out;
        };
        const before = await run();
        await c.createIndexes([
          { keys: { albumId: 1, track: 1 } },
          { keys: { genre: 1, year: -1 } },
          { keys: { year: -1 } },
          { keys: { tags: 1 } },
          { keys: { title: 1 } },
          { keys: { path: 1 }, unique: true },
        ]);
        expect(await run()).toEqual(before);
      });
    });

    describe('aggregation', () => {
      let c: Collection<Track>;
      let albums: Collection<Doc>;
      beforeAll(async () => {
        c = await fresh('agg');
        albums = await fresh<Doc>('albums');
        await albums.insertMany([
          { _id: 'al1', name: 'One', meta: { label: 'L1', year: 2001 } },
          { _id: 'al2', name: 'Two', meta: { label: 'L2', year: 2002 } },
          { _id: 'al3', name: 'Three', meta: { label: 'L3', year: 2003 } },
        ]);
        await c.insertMany([
          { _id: 't1', path: '/1', albumId: 'al1', genre: 'rock', year: 2001, plays: 10, tags: ['a', 'b'] },
          { _id: 't2', path: '/2', albumId: 'al1', genre: 'rock', year: 2001, plays: 5 },
          { _id: 't3', path: '/3', albumId: 'al2', genre: 'pop', year: 2002, plays: 7, tags: ['b'] },
          { _id: 't4', path: '/4', albumId: 'al2', genre: 'rock', plays: 1, tags: [] },
          { _id: 't5', path: '/5', albumId: 'none', genre: 'jazz', year: 1999 },
        ]);
      });

      it('$match $sort $skip $limit $project $addFields $set $unset', async () => {
        const r = await c.aggregate([
          { $match: { genre: 'rock' } },
          { $sort: { plays: -1 } },
          { $skip: 1 },
          { $limit: 2 },
          { $project: { path: 1, plays: 1 } },
          { $addFields: { double: { $multiply: ['$plays', 2] } } },
          { $set: { label: { $concat: ['p', '$path'] } } },
          { $unset: 'path' },
        ]);
        expect(r).toEqual([
          { _id: 't2', plays: 5, double: 10, label: 'p/2' },
          { _id: 't4', plays: 1, double: 2, label: 'p/4' },
        ]);
      });

      it('$group with every accumulator; $push and $addToSet skip missing values', async () => {
        const r = await c.aggregate<Record<string, unknown>>([
          { $sort: { _id: 1 } },
          {
            $group: {
              _id: '$albumId',
              n: { $sum: 1 },
              plays: { $sum: '$plays' },
              avg: { $avg: '$plays' },
              min: { $min: '$year' },
              max: { $max: '$plays' },
              first: { $first: '$path' },
              last: { $last: '$path' },
              years: { $push: '$year' },
              tags: { $addToSet: '$tags' },
              count: { $count: {} },
            },
          },
          { $sort: { _id: 1 } },
        ]);
        for (const g of r) g.tags = (g.tags as unknown[]).map((t) => JSON.stringify(t)).sort();
        expect(r).toEqual([
          { _id: 'al1', n: 2, plays: 15, avg: 7.5, min: 2001, max: 10, first: '/1', last: '/2', years: [2001, 2001], tags: ['["a","b"]'], count: 2 },
          { _id: 'al2', n: 2, plays: 8, avg: 4, min: 2002, max: 7, first: '/3', last: '/4', years: [2002], tags: ['["b"]', '[]'], count: 2 },
          { _id: 'none', n: 1, plays: 0, avg: null, min: 1999, max: null, first: '/5', last: '/5', years: [1999], tags: [], count: 1 },
        ]);
      });

      it('$group by a compound _id', async () => {
        const r = await c.aggregate<Record<string, unknown>>([
          { $match: { albumId: { $in: ['al1', 'al2'] } } },
          { $group: { _id: { album: '$albumId', genre: '$genre' }, years: { $push: '$year' }, plays: { $sum: '$plays' } } },
          { $sort: { '_id.album': 1, '_id.genre': 1 } },
        ]);
        expect(r).toEqual([
          { _id: { album: 'al1', genre: 'rock' }, years: [2001, 2001], plays: 15 },
          { _id: { album: 'al2', genre: 'pop' }, years: [2002], plays: 7 },
          { _id: { album: 'al2', genre: 'rock' }, years: [], plays: 1 },
        ]);
      });

      it('$unwind, $count, $sortByCount', async () => {
        expect(await c.aggregate([{ $unwind: '$tags' }, { $sort: { _id: 1, tags: 1 } }, { $project: { tags: 1 } }])).toEqual([
          { _id: 't1', tags: 'a' },
          { _id: 't1', tags: 'b' },
          { _id: 't3', tags: 'b' },
        ]);
        const kept = await c.aggregate([{ $unwind: { path: '$tags', preserveNullAndEmptyArrays: true } }, { $count: 'n' }]);
        expect(kept).toEqual([{ n: 6 }]);
        const byGenre = await c.aggregate<{ _id: string; count: number }>([{ $sortByCount: '$genre' }]);
        expect(byGenre[0]).toEqual({ _id: 'rock', count: 3 });
        expect(byGenre.slice(1).sort((a, b) => a._id.localeCompare(b._id))).toEqual([
          { _id: 'jazz', count: 1 },
          { _id: 'pop', count: 1 },
        ]);
      });

      it('$lookup with and without an index on the foreign field', async () => {
        const pipeline = [
          { $match: { _id: { $in: ['al1', 'al3'] } } },
          { $lookup: { from: c.name, localField: '_id', foreignField: 'albumId', as: 'tracks' } },
          { $project: { name: 1, tracks: '$tracks._id' } },
          { $sort: { _id: 1 } },
        ];
        const expected = [
          { _id: 'al1', name: 'One', tracks: ['t1', 't2'] },
          { _id: 'al3', name: 'Three', tracks: [] },
        ];
        const sorted = (r: Record<string, unknown>[]) => r.map((x) => ({ ...x, tracks: [...(x.tracks as string[])].sort() }));
        expect(sorted(await albums.aggregate(pipeline))).toEqual(expected);
        await c.createIndexes([{ keys: { albumId: 1 } }]);
        expect(sorted(await albums.aggregate(pipeline))).toEqual(expected);
        const back = await c.aggregate([{ $match: { _id: 't3' } }, { $lookup: { from: albums.name, localField: 'albumId', foreignField: '_id', as: 'album' } }]);
        expect((back[0]!.album as Doc[]).map((a) => a.name)).toEqual(['Two']);
      });

      it('$facet, $replaceRoot and $sample', async () => {
        const [facets] = await c.aggregate<Record<string, unknown>>([
          { $match: { genre: 'rock' } },
          { $facet: { total: [{ $count: 'n' }], top: [{ $sort: { plays: -1 } }, { $limit: 1 }, { $project: { _id: 1 } }] } },
        ]);
        expect(facets).toEqual({ total: [{ n: 3 }], top: [{ _id: 't1' }] });
        expect(await albums.aggregate([{ $sort: { _id: 1 } }, { $replaceRoot: { newRoot: '$meta' } }, { $limit: 2 }])).toEqual([
          { label: 'L1', year: 2001 },
          { label: 'L2', year: 2002 },
        ]);
        const sample = await c.aggregate<Track>([{ $sample: { size: 3 } }]);
        expect(sample).toHaveLength(3);
        expect(new Set(ids(sample)).size).toBe(3);
        for (const s of sample) expect(['t1', 't2', 't3', 't4', 't5']).toContain(s._id);
      });
    });

    describe('indexes', () => {
      it('unique indexes reject duplicates on insert and update and leave documents unchanged', async () => {
        const c = await fresh('uniq');
        await c.createIndexes([{ keys: { path: 1 }, unique: true }]);
        await c.createIndexes([{ keys: { path: 1 }, unique: true }]);
        await c.insertMany([{ _id: 'a', path: '/a' }, { _id: 'b', path: '/b' }]);
        await expect(c.insertOne({ _id: 'c', path: '/a' })).rejects.toEqual(code(DUPLICATE));
        await expect(c.updateOne({ _id: 'b' }, { $set: { path: '/a' } })).rejects.toEqual(code(DUPLICATE));
        expect(await c.findOne({ _id: 'b' })).toEqual({ _id: 'b', path: '/b' });
        await c.updateOne({ _id: 'b' }, { $set: { path: '/b2' } });
        await c.insertOne({ _id: 'c', path: '/b' });
        expect(await c.countDocuments()).toBe(3);
      });

      it('a non-sparse unique index treats missing as null; a sparse one skips documents without the field', async () => {
        const plain = await fresh<Doc>('uniqnull');
        await plain.createIndexes([{ keys: { code: 1 }, unique: true }]);
        await plain.insertOne({ _id: 'a' });
        await expect(plain.insertOne({ _id: 'b' })).rejects.toEqual(code(DUPLICATE));
        const sparse = await fresh<Doc>('sparse');
        await sparse.createIndexes([{ keys: { code: 1 }, unique: true, sparse: true }]);
        await sparse.insertMany([{ _id: 'a' }, { _id: 'b' }, { _id: 'c', code: 'x' }]);
        await expect(sparse.insertOne({ _id: 'd', code: 'x' })).rejects.toEqual(code(DUPLICATE));
        expect(ids(await sparse.find({ code: 'x' }))).toEqual(['c']);
        expect(await sparse.countDocuments({ code: null })).toBe(2);
      });

      it('compound unique indexes compare the whole key', async () => {
        const c = await fresh<Doc>('compound');
        await c.createIndexes([{ keys: { albumId: 1, disc: 1, track: -1 }, unique: true, name: 'album_order' }]);
        await c.insertMany([
          { _id: 'a', albumId: 'x', disc: 1, track: 1 },
          { _id: 'b', albumId: 'x', disc: 1, track: 2 },
          { _id: 'c', albumId: 'x', disc: 2, track: 1 },
          { _id: 'd', albumId: 'y', disc: 1, track: 1 },
        ]);
        await expect(c.insertOne({ _id: 'e', albumId: 'x', disc: 2, track: 1 })).rejects.toEqual(code(DUPLICATE));
        expect(ids(await c.find({ albumId: 'x' }, { sort: { disc: 1, track: -1 } }))).toEqual(['b', 'a', 'c']);
      });

      it('building a unique index over duplicates fails and creates no index', async () => {
        const c = await fresh('uniqbuild');
        await c.insertMany([{ _id: 'a', path: '/same' }, { _id: 'b', path: '/same' }]);
        await expect(c.createIndexes([{ keys: { path: 1 }, unique: true }])).rejects.toEqual(code(DUPLICATE));
        await c.insertOne({ _id: 'c', path: '/same' });
        expect(await c.countDocuments({ path: '/same' })).toBe(3);
      });

      it('an index name reused with other keys or options is a conflict', async () => {
        const c = await fresh('idxconflict');
        await c.createIndexes([{ keys: { title: 1 }, name: 'by_title' }]);
        await expect(c.createIndexes([{ keys: { title: 1 }, name: 'by_title', unique: true }])).rejects.toEqual(code('TAGSONIC_ERR_STORE_INDEX_CONFLICT'));
      });

      it('indexes on array fields find every element', async () => {
        const c = await fresh('multikey');
        await c.createIndexes([{ keys: { tags: 1 } }]);
        await c.insertMany([
          { _id: 'a', path: '/a', tags: ['x', 'y'] },
          { _id: 'b', path: '/b', tags: ['y'] },
          { _id: 'c', path: '/c' },
        ]);
        expect(ids(await c.find({ tags: 'y' }, { sort: { _id: 1 } }))).toEqual(['a', 'b']);
        expect(await c.countDocuments({ tags: { $in: ['x', 'y'] } })).toBe(2);
        await c.updateOne({ _id: 'a' }, { $pull: { tags: 'y' } });
        expect(ids(await c.find({ tags: 'y' }))).toEqual(['b']);
        expect(ids(await c.find({ tags: { $gt: 'w' } }, { sort: { tags: 1, _id: 1 } }))).toEqual(['a', 'b']);
      });
    });

    describe('distinct and bulkWrite', () => {
      it('distinct flattens arrays, honours the filter and ignores missing values', async () => {
        const c = await fresh<Doc>('distinct');
        await c.insertMany([
          { _id: 'a', g: 'rock', tags: ['x', 'y'], n: 1 },
          { _id: 'b', g: 'pop', tags: ['y', 'z'], n: 2 },
          { _id: 'c', g: 'rock', n: 1 },
          { _id: 'd', g: null },
        ]);
        expect(await c.distinct('g')).toEqual([null, 'pop', 'rock']);
        expect(await c.distinct('tags')).toEqual(['x', 'y', 'z']);
        expect(await c.distinct('tags', { g: 'rock' })).toEqual(['x', 'y']);
        expect(await c.distinct('n')).toEqual([1, 2]);
        await c.createIndexes([{ keys: { g: 1 } }, { keys: { tags: -1 } }, { keys: { n: 1 }, sparse: true }]);
        expect(await c.distinct('g')).toEqual([null, 'pop', 'rock']);
        expect(await c.distinct('tags')).toEqual(['x', 'y', 'z']);
        expect(await c.distinct('n')).toEqual([1, 2]);
        await c.insertOne({ _id: 'e', tags: [] });
        expect(await c.distinct('tags')).toEqual(['x', 'y', 'z']);
      });

      it('bulkWrite applies operations in order and reports counts', async () => {
        const c = await fresh('bulk');
        await c.insertOne({ _id: 'x', path: '/x', plays: 1 });
        const r = await c.bulkWrite([
          { insertOne: { document: { _id: 'a', path: '/a', plays: 0 } } },
          { insertOne: { document: { _id: 'b', path: '/b', plays: 0 } } },
          { updateOne: { filter: { _id: 'a' }, update: { $inc: { plays: 5 } } } },
          { updateMany: { filter: { plays: { $lt: 2 } }, update: { $set: { low: true } } } },
          { updateOne: { filter: { path: '/new' }, update: { $set: { plays: 9 } }, upsert: true } },
          { replaceOne: { filter: { _id: 'x' }, replacement: { _id: 'x', path: '/x2' } } },
          { deleteOne: { filter: { _id: 'b' } } },
          { deleteMany: { filter: { path: { $in: ['/new', '/none'] } } } },
        ]);
        expect(r).toEqual({ insertedCount: 2, matchedCount: 4, modifiedCount: 4, deletedCount: 2, upsertedCount: 1 });
        expect((await c.find({}, { sort: { path: 1 } })).map((d) => d.path)).toEqual(['/a', '/x2']);
      });

      it('bulkWrite stops at the first failure and keeps earlier operations', async () => {
        const c = await fresh('bulkfail');
        await c.createIndexes([{ keys: { path: 1 }, unique: true }]);
        await expect(
          c.bulkWrite([
            { insertOne: { document: { _id: 'a', path: '/a' } } },
            { insertOne: { document: { _id: 'b', path: '/a' } } },
            { insertOne: { document: { _id: 'c', path: '/c' } } },
          ]),
        ).rejects.toEqual(code(DUPLICATE));
        expect(ids(await c.find({}))).toEqual(['a']);
      });
    });

    describe('findOneAnd*, concurrency', () => {
      it('findOneAndUpdate and findOneAndDelete take the first document in sort order', async () => {
        const c = await fresh<Doc>('queue');
        await c.insertMany([
          { _id: 'j1', state: 'pending', prio: 1 },
          { _id: 'j2', state: 'pending', prio: 5 },
          { _id: 'j3', state: 'pending', prio: 5 },
          { _id: 'j4', state: 'done', prio: 9 },
        ]);
        const claimed = await c.findOneAndUpdate({ state: 'pending' }, { $set: { state: 'running' } }, { sort: { prio: -1, _id: 1 } });
        expect(claimed).toMatchObject({ _id: 'j2', state: 'running' });
        const before = await c.findOneAndUpdate({ state: 'pending' }, { $set: { state: 'running' } }, { sort: { prio: -1, _id: 1 }, returnDocument: 'before' });
        expect(before).toMatchObject({ _id: 'j3', state: 'pending' });
        expect(await c.findOneAndDelete({ state: 'running' }, { sort: { _id: -1 } })).toMatchObject({ _id: 'j3' });
        expect(await c.findOneAndDelete({ state: 'nothing' })).toBeNull();
        expect(ids(await c.find({}, { sort: { _id: 1 } }))).toEqual(['j1', 'j2', 'j4']);
      });

      it('concurrent claims with findOneAndUpdate never hand out one document twice', async () => {
        const c = await fresh<Doc>('claims');
        await c.insertMany(Array.from({ length: 15 }, (_, i) => ({ _id: `j${String(i).padStart(2, '0')}`, state: 'pending', prio: i % 3 })));
        const got = await Promise.all(Array.from({ length: 20 }, () => c.findOneAndUpdate({ state: 'pending' }, { $set: { state: 'running' } }, { sort: { prio: -1, _id: 1 } })));
        const claimedIds = got.filter((d) => d !== null).map((d) => d!._id);
        expect(claimedIds).toHaveLength(15);
        expect(new Set(claimedIds).size).toBe(15);
        expect(got.filter((d) => d === null)).toHaveLength(5);
      });

      it('200 parallel $inc lose nothing', async () => {
        const c = await fresh('inc');
        await c.insertOne({ _id: 'a', path: '/a', plays: 0 });
        await Promise.all(Array.from({ length: 200 }, () => c.updateOne({ _id: 'a' }, { $inc: { plays: 1 } })));
        expect((await c.findOne({ _id: 'a' }))!.plays).toBe(200);
      });

      it('concurrent inserts of one unique key: exactly one wins', async () => {
        const c = await fresh('race');
        await c.createIndexes([{ keys: { path: 1 }, unique: true }]);
        const results = await Promise.allSettled(Array.from({ length: 25 }, (_, i) => c.insertOne({ _id: `r${i}`, path: '/same' })));
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toEqual(code(DUPLICATE));
        expect(await c.countDocuments()).toBe(1);
      });
    });

    describe('collections and lifecycle', () => {
      it('dropCollection removes documents and indexes; dropping a missing collection is fine', async () => {
        const c = await fresh('drop');
        await c.createIndexes([{ keys: { path: 1 }, unique: true }]);
        await c.insertMany([{ _id: 'a', path: '/a' }, { _id: 'b', path: '/b' }]);
        await store.dropCollection(c.name);
        expect(await c.countDocuments()).toBe(0);
        await c.insertMany([{ _id: 'a', path: '/same' }, { _id: 'b', path: '/same' }]);
        expect(await c.countDocuments({ path: '/same' })).toBe(2);
        await store.dropCollection(`never_created_${newId()}`);
      });

      it('reports health', async () => {
        expect(await store.health()).toMatchObject({ ok: true, driver: store.driver });
      });

      it('keeps documents and indexes across close and reopen', async () => {
        const c = await fresh('persist');
        await c.createIndexes([{ keys: { path: 1 }, unique: true }, { keys: { year: -1 } }]);
        await c.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: newId(), path: `/p${i}`, year: 1980 + i })));
        await c.updateOne({ path: '/p7' }, { $set: { title: 'kept' } });
        await store.close();
        store = await open();
        const again = store.collection<Track>(c.name);
        expect(await again.countDocuments()).toBe(50);
        expect(await again.findOne({ path: '/p7' })).toMatchObject({ title: 'kept', year: 1987 });
        expect((await again.find({}, { sort: { year: -1 }, limit: 2 })).map((d) => d.year)).toEqual([2029, 2028]);
        await expect(again.insertOne({ _id: newId(), path: '/p3' })).rejects.toEqual(code(DUPLICATE));
      });
    });
  });
}
