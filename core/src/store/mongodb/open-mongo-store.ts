/**
 * The store port on MongoDB (distributed mode) through the official driver. Writes are acknowledged by
 * a majority and journaled; driver errors become the same `TagsonicError`s the embedded driver raises.
 */
import {
  MongoClient,
  MongoServerError,
  MongoBulkWriteError,
  MongoNetworkError,
  MongoServerSelectionError,
  type AnyBulkWriteOperation,
  type Collection as MongoCollection,
  type Db,
  type Document,
} from 'mongodb';
import { TagsonicError, isTagsonicError } from '../../errors/index.ts';
import { compareValues } from '../bson-order.ts';
import type {
  BulkOperation,
  BulkWriteResult,
  Collection,
  DeleteResult,
  Doc,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexSpec,
  Pipeline,
  Sort,
  Store,
  StoreHealth,
  Update,
  UpdateOptions,
  UpdateResult,
} from '../port.ts';
import {
  assertCollectionName,
  assertDocumentId,
  defaultIndexName,
  duplicateKeyError,
  immutableIdError,
  indexConflictError,
  invalidQueryError,
  invalidUpdateError,
  storeUnavailableError,
} from '../store-errors.ts';
import { assertOperatorUpdate } from '../update-rules.ts';
import { newId } from '../../ids.ts';

export interface MongoStoreOptions {
  /** A MongoDB connection string, e.g. `mongodb://mongo:27017/?replicaSet=rs0`. */
  url: string;
  /** Database name; defaults to the one in the URL, else `tagsonic`. */
  dbName?: string;
}

const DUPLICATE_KEY = new Set([11000, 11001]);
const IMMUTABLE_FIELD = 66;
const INDEX_CONFLICT = new Set([85, 86]);
const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;

/** Translates a driver error in one place; `writing` picks the error for malformed requests. */
function translate(e: unknown, collection: string, writing: boolean): unknown {
  if (isTagsonicError(e)) return e;
  if (e instanceof MongoBulkWriteError || e instanceof MongoServerError) {
    const code = typeof e.code === 'number' ? e.code : Number(e.code);
    if (DUPLICATE_KEY.has(code)) {
      const index = /index: (\S+)/.exec(e.message)?.[1] ?? 'unknown';
      const keyValue = (e as { keyValue?: Record<string, unknown> }).keyValue ?? {};
      const err = duplicateKeyError(collection, index, keyValue);
      return new TagsonicError(err.kind, err.code, err.message, { cause: e, details: err.details });
    }
    if (code === IMMUTABLE_FIELD) return immutableIdError(collection);
    if (INDEX_CONFLICT.has(code)) return indexConflictError(collection, `Index conflict on ${collection}: ${e.message}`);
    const err = writing ? invalidUpdateError(`MongoDB rejected the write on ${collection}: ${e.message}`) : invalidQueryError(`MongoDB rejected the query on ${collection}: ${e.message}`, e);
    return new TagsonicError(err.kind, err.code, err.message, { cause: e });
  }
  if (e instanceof MongoNetworkError || e instanceof MongoServerSelectionError) {
    return storeUnavailableError(`MongoDB is unreachable: ${e.message}`, e);
  }
  return new TagsonicError('internal', 'TAGSONIC_ERR_STORE_DRIVER', `MongoDB driver error on ${collection}.`, { cause: e });
}

const hasIdEquality = (filter: Filter): boolean => {
  const id = filter._id;
  return id !== undefined && (typeof id !== 'object' || id === null || '$eq' in id);
};

/**
 * MongoDB would give an upserted document an ObjectId; every document here carries a string id from
 * `newId()`, so upserts that do not pin `_id` get one through `$setOnInsert`.
 */
function withUpsertId(filter: Filter, update: Update, upsert: boolean | undefined): Update {
  if (!upsert || hasIdEquality(filter)) return update;
  const setOnInsert = (update.$setOnInsert ?? {}) as Record<string, unknown>;
  const set = (update.$set ?? {}) as Record<string, unknown>;
  if (setOnInsert._id !== undefined || set._id !== undefined) return update;
  return { ...update, $setOnInsert: { ...setOnInsert, _id: newId() } };
}

class MongoStoreCollection<T extends Doc> implements Collection<T> {
  readonly name: string;
  private readonly coll: MongoCollection<Document>;

  constructor(db: Db, name: string) {
    assertCollectionName(name);
    this.name = name;
    this.coll = db.collection(name);
  }

  private async run<R>(writing: boolean, fn: () => Promise<R>): Promise<R> {
    try {
      return await fn();
    } catch (e) {
      throw translate(e, this.name, writing);
    }
  }

  insertOne(doc: T): Promise<void> {
    assertDocumentId(doc);
    return this.run(true, async () => {
      await this.coll.insertOne({ ...doc } as Document);
    });
  }

  insertMany(docs: readonly T[]): Promise<void> {
    for (const d of docs) assertDocumentId(d);
    if (docs.length === 0) return Promise.resolve();
    return this.run(true, async () => {
      await this.coll.insertMany(
        docs.map((d) => ({ ...d }) as Document),
        { ordered: true },
      );
    });
  }

  findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    return this.run(false, async () => (await this.coll.findOne(filter, { sort: options.sort, skip: options.skip, projection: options.projection })) as T | null);
  }

  find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.run(false, async () => {
      const cursor = this.coll.find(filter, { sort: options.sort, skip: options.skip, limit: options.limit, projection: options.projection });
      return (await cursor.toArray()) as unknown as T[];
    });
  }

  countDocuments(filter: Filter = {}): Promise<number> {
    return this.run(false, () => this.coll.countDocuments(filter));
  }

  distinct(field: string, filter: Filter = {}): Promise<unknown[]> {
    // Sorted in MongoDB's value order, like the embedded driver, so callers never depend on chance order.
    return this.run(false, async () => (await this.coll.distinct(field, filter)).sort(compareValues));
  }

  private async update(filter: Filter, update: Update, options: UpdateOptions, many: boolean): Promise<UpdateResult> {
    assertOperatorUpdate(update);
    return this.run(true, async () => {
      const u = withUpsertId(filter, update, options.upsert);
      const r = many
        ? await this.coll.updateMany(filter, u, { upsert: options.upsert === true })
        : await this.coll.updateOne(filter, u, { upsert: options.upsert === true });
      return { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount, upsertedId: (r.upsertedId as string | null) ?? null };
    });
  }

  updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.update(filter, update, options, false);
  }

  updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.update(filter, update, options, true);
  }

  replaceOne(filter: Filter, replacement: T, options: UpdateOptions = {}): Promise<UpdateResult> {
    if (Object.keys(replacement).some((k) => k.startsWith('$'))) {
      return Promise.reject(invalidUpdateError('A replacement document may not contain update operators.'));
    }
    return this.run(true, async () => {
      if (options.upsert && replacement._id === undefined && !hasIdEquality(filter)) {
        // A replacement cannot carry a new _id for a document it may match, so insert separately when
        // nothing matched (a concurrent twin insert is stopped by a unique index, as with MongoDB itself).
        const r = await this.coll.replaceOne(filter, replacement);
        if (r.matchedCount > 0) return { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount, upsertedId: null };
        const doc = { ...replacement, _id: newId() };
        await this.coll.insertOne(doc as Document);
        return { matchedCount: 0, modifiedCount: 0, upsertedId: doc._id };
      }
      const r = await this.coll.replaceOne(filter, replacement, { upsert: options.upsert === true });
      return { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount, upsertedId: (r.upsertedId as string | null) ?? null };
    });
  }

  findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    assertOperatorUpdate(update);
    return this.run(true, async () =>
      (await this.coll.findOneAndUpdate(filter, withUpsertId(filter, update, options.upsert), {
        sort: options.sort,
        upsert: options.upsert === true,
        returnDocument: options.returnDocument ?? 'after',
        projection: options.projection,
      })) as T | null,
    );
  }

  findOneAndDelete(filter: Filter, options: { sort?: Sort } = {}): Promise<T | null> {
    return this.run(true, async () => (await this.coll.findOneAndDelete(filter, { sort: options.sort })) as T | null);
  }

  deleteOne(filter: Filter): Promise<DeleteResult> {
    return this.run(true, async () => ({ deletedCount: (await this.coll.deleteOne(filter)).deletedCount }));
  }

  deleteMany(filter: Filter): Promise<DeleteResult> {
    return this.run(true, async () => ({ deletedCount: (await this.coll.deleteMany(filter)).deletedCount }));
  }

  bulkWrite(operations: readonly BulkOperation<T>[]): Promise<BulkWriteResult> {
    for (const op of operations) {
      if ('insertOne' in op) assertDocumentId(op.insertOne.document);
      if ('updateOne' in op) assertOperatorUpdate(op.updateOne.update);
      if ('updateMany' in op) assertOperatorUpdate(op.updateMany.update);
    }
    if (operations.length === 0) {
      return Promise.resolve({ insertedCount: 0, matchedCount: 0, modifiedCount: 0, deletedCount: 0, upsertedCount: 0 });
    }
    const ops = operations.map((op) => {
      if ('updateOne' in op) return { updateOne: { ...op.updateOne, update: withUpsertId(op.updateOne.filter, op.updateOne.update, op.updateOne.upsert) } };
      return op;
    });
    return this.run(true, async () => {
      const r = await this.coll.bulkWrite(ops as unknown as AnyBulkWriteOperation<Document>[], { ordered: true });
      return {
        insertedCount: r.insertedCount,
        matchedCount: r.matchedCount,
        modifiedCount: r.modifiedCount,
        deletedCount: r.deletedCount,
        upsertedCount: r.upsertedCount,
      };
    });
  }

  aggregate<R = Record<string, unknown>>(pipeline: Pipeline): Promise<R[]> {
    return this.run(false, async () => (await this.coll.aggregate(pipeline).toArray()) as R[]);
  }

  createIndexes(specs: readonly IndexSpec[]): Promise<void> {
    const wanted = specs.filter((s) => !(Object.keys(s.keys).length === 1 && s.keys._id !== undefined));
    if (wanted.length === 0) return Promise.resolve();
    return this.run(true, async () => {
      await this.coll.createIndexes(
        wanted.map((s) => ({
          key: s.keys,
          name: s.name ?? defaultIndexName(s.keys),
          ...(s.unique ? { unique: true } : {}),
          ...(s.sparse ? { sparse: true } : {}),
        })),
      );
    });
  }

  dropIndex(name: string): Promise<void> {
    return this.run(true, async () => {
      try {
        await this.coll.dropIndex(name);
      } catch (e) {
        // No such collection, or no such index: nothing to drop.
        if (e instanceof MongoServerError && (e.code === NAMESPACE_NOT_FOUND || e.code === INDEX_NOT_FOUND)) return;
        throw e;
      }
    });
  }
}

class MongoStore implements Store {
  readonly driver = 'mongodb' as const;
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly collections = new Map<string, MongoStoreCollection<Doc>>();

  constructor(client: MongoClient, db: Db) {
    this.client = client;
    this.db = db;
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    let c = this.collections.get(name);
    if (!c) {
      c = new MongoStoreCollection<Doc>(this.db, name);
      this.collections.set(name, c);
    }
    return c as unknown as Collection<T>;
  }

  async dropCollection(name: string): Promise<void> {
    assertCollectionName(name);
    try {
      await this.db.dropCollection(name);
    } catch (e) {
      if (e instanceof MongoServerError && e.code === NAMESPACE_NOT_FOUND) return;
      throw translate(e, name, true);
    }
  }

  async health(): Promise<StoreHealth> {
    try {
      await this.db.command({ ping: 1 });
      return { ok: true, driver: 'mongodb', detail: this.db.databaseName };
    } catch (e) {
      return { ok: false, driver: 'mongodb', detail: (e as Error).message };
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** The database named in a connection string (`mongodb://h1,h2/name?…`), if any. */
function dbNameFromUrl(url: string): string | undefined {
  const rest = url.replace(/^mongodb(\+srv)?:\/\//, '');
  const slash = rest.indexOf('/');
  if (slash === -1) return undefined;
  const name = rest.slice(slash + 1).split('?')[0];
  return name ? decodeURIComponent(name) : undefined;
}

export async function openMongoStore(options: MongoStoreOptions): Promise<Store> {
  const client = new MongoClient(options.url, {
    writeConcern: { w: 'majority', journal: true },
    // Optional fields left undefined are omitted, as the embedded driver does.
    ignoreUndefined: true,
    serverSelectionTimeoutMS: 15_000,
  });
  try {
    await client.connect();
  } catch (e) {
    await client.close().catch(() => undefined);
    throw storeUnavailableError(`Cannot connect to MongoDB: ${(e as Error).message}`, e);
  }
  return new MongoStore(client, client.db(options.dbName ?? dbNameFromUrl(options.url) ?? 'tagsonic'));
}
