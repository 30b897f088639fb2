/**
 * The `Collection` port on the embedded engine: reads on a fresh snapshot, writes in one lmdb write
 * transaction per call (so concurrent calls, even from other processes, never interleave inside one).
 */
import type { Context } from 'mingo';
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
  Update,
  UpdateOptions,
  UpdateResult,
} from '../port.ts';
import { assertDocumentId, invalidQueryError } from '../store-errors.ts';
import { compareValues } from '../bson-order.ts';
import { collectValues, splitPath } from '../document-paths.ts';
import { runPipeline, type AggregationHost } from './aggregation.ts';
import type { EmbeddedEngine } from './engine.ts';
import { countDocs, distinctFromIndex, findDocs, matchingDocs, newStats, project, type ExecStats } from './query-exec.ts';
import { assertOperatorUpdate } from '../update-rules.ts';
import { createIndexes, deleteDocs, dropIndex, insertDocs, replaceDoc, updateDocs, type UpdateOutcome } from './write-ops.ts';

export interface EmbeddedCollection<T extends Doc = Doc> extends Collection<T> {
  /** Runs a find and reports the plan and how many index keys and documents it examined. */
  explain(filter: Filter, options?: FindOptions): Promise<ExecStats>;
  /** Runs a pipeline and reports the plan of its leading `$match`/`$sort`/`$skip`/`$limit` stages. */
  explainAggregate(pipeline: Pipeline): Promise<ExecStats>;
}

const toResult = (o: UpdateOutcome): UpdateResult => ({ matchedCount: o.matched, modifiedCount: o.modified, upsertedId: o.upsertedId });

function checkFilter(filter: Filter | undefined): Filter {
  if (filter === undefined) return {};
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) throw invalidQueryError('A filter must be an object.');
  return filter;
}

export class EmbeddedCollectionImpl<T extends Doc = Doc> implements EmbeddedCollection<T> {
  readonly name: string;
  private readonly engine: EmbeddedEngine;
  private readonly host: AggregationHost;
  private readonly context: Context;

  constructor(engine: EmbeddedEngine, name: string, host: AggregationHost, context: Context) {
    this.engine = engine;
    this.name = name;
    this.host = host;
    this.context = context;
    engine.dbsFor(name); // validates the name and opens the databases outside any transaction
  }

  private view() {
    return this.engine.view(this.name);
  }

  async insertOne(doc: T): Promise<void> {
    await this.insertMany([doc]);
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    if (!Array.isArray(docs)) throw invalidQueryError('insertMany needs an array of documents.');
    for (const d of docs) assertDocumentId(d);
    const { error } = await this.engine.write(() => insertDocs(this.engine, this.view(), docs));
    if (error) throw error;
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    // The most common read, `{ _id: "…" }`: one lmdb get, without planning a query.
    const id = (filter as { _id?: unknown } | null)?._id;
    if (typeof id === 'string' && !options.skip && !options.projection && Object.keys(filter).length === 1) {
      return this.engine.read(() => (this.engine.dbsFor(this.name).docs.get(id) as T | undefined) ?? null);
    }
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.engine.read(() => findDocs(this.view(), checkFilter(filter), options) as T[]);
  }

  async explain(filter: Filter, options: FindOptions = {}): Promise<ExecStats> {
    return this.engine.read(() => {
      const stats = newStats();
      findDocs(this.view(), checkFilter(filter), options, stats);
      return stats;
    });
  }

  async explainAggregate(pipeline: Pipeline): Promise<ExecStats> {
    return this.engine.read(() => {
      const stats = newStats();
      runPipeline(this.host, this.context, this.view(), pipeline, stats);
      return stats;
    });
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    return this.engine.read(() => countDocs(this.view(), checkFilter(filter)));
  }

  async distinct(field: string, filter: Filter = {}): Promise<unknown[]> {
    const f = checkFilter(filter);
    return this.engine.read(() => {
      const view = this.view();
      if (Object.keys(f).length === 0) {
        const fromIndex = distinctFromIndex(view, field);
        if (fromIndex) return fromIndex;
      }
      const parts = splitPath(field);
      const values: unknown[] = [];
      for (const doc of matchingDocs(view, f)) values.push(...collectValues(doc, parts));
      values.sort(compareValues);
      return values.filter((v, i) => i === 0 || compareValues(v, values[i - 1]) !== 0);
    });
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    assertOperatorUpdate(update);
    const f = checkFilter(filter);
    return toResult(await this.engine.write(() => updateDocs(this.engine, this.view(), f, update, { multi: false, upsert: options.upsert === true })));
  }

  async updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    assertOperatorUpdate(update);
    const f = checkFilter(filter);
    return toResult(await this.engine.write(() => updateDocs(this.engine, this.view(), f, update, { multi: true, upsert: options.upsert === true })));
  }

  async replaceOne(filter: Filter, replacement: T, options: UpdateOptions = {}): Promise<UpdateResult> {
    const f = checkFilter(filter);
    return toResult(await this.engine.write(() => replaceDoc(this.engine, this.view(), f, replacement, options.upsert === true)));
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    assertOperatorUpdate(update);
    const f = checkFilter(filter);
    const o = await this.engine.write(() =>
      updateDocs(this.engine, this.view(), f, update, { multi: false, upsert: options.upsert === true, sort: options.sort }),
    );
    const doc = options.returnDocument === 'before' ? o.before : o.after;
    if (!doc) return null;
    return (options.projection ? project([doc], options.projection)[0] : doc) as T;
  }

  async findOneAndDelete(filter: Filter, options: { sort?: Sort } = {}): Promise<T | null> {
    const f = checkFilter(filter);
    const [doc] = await this.engine.write(() => deleteDocs(this.engine, this.view(), f, { multi: false, sort: options.sort }));
    return (doc as T | undefined) ?? null;
  }

  async deleteOne(filter: Filter): Promise<DeleteResult> {
    const f = checkFilter(filter);
    const docs = await this.engine.write(() => deleteDocs(this.engine, this.view(), f, { multi: false }));
    return { deletedCount: docs.length };
  }

  async deleteMany(filter: Filter): Promise<DeleteResult> {
    const f = checkFilter(filter);
    const docs = await this.engine.write(() => deleteDocs(this.engine, this.view(), f, { multi: true }));
    return { deletedCount: docs.length };
  }

  async bulkWrite(operations: readonly BulkOperation<T>[]): Promise<BulkWriteResult> {
    if (!Array.isArray(operations)) throw invalidQueryError('bulkWrite needs an array of operations.');
    const result: BulkWriteResult = { insertedCount: 0, matchedCount: 0, modifiedCount: 0, deletedCount: 0, upsertedCount: 0 };
    const failure = await this.engine.write(() => {
      for (let i = 0; i < operations.length; i++) {
        const op = operations[i]! as Record<string, Record<string, unknown>>;
        try {
          applyBulkOperation(this.engine, this.view(), op, result);
        } catch (error) {
          return { index: i, error };
        }
      }
      return null;
    });
    if (failure) {
      const e = failure.error as { details?: Record<string, unknown> };
      if (e && typeof e === 'object' && 'details' in e) e.details = { ...(e.details ?? {}), operationIndex: failure.index, result };
      throw failure.error;
    }
    return result;
  }

  async aggregate<R = Record<string, unknown>>(pipeline: Pipeline): Promise<R[]> {
    return this.engine.read(() => runPipeline(this.host, this.context, this.view(), pipeline) as R[]);
  }

  async createIndexes(specs: readonly IndexSpec[]): Promise<void> {
    if (!Array.isArray(specs)) throw invalidQueryError('createIndexes needs an array of index specifications.');
    await this.engine.write(() => createIndexes(this.engine, this.view(), specs));
  }

  async dropIndex(name: string): Promise<void> {
    // Usually asked at every start for an index long gone: no write transaction (and fsync) for nothing.
    if (!this.engine.read(() => this.engine.readMeta(this.name)).indexes.some((d) => d.name === name)) return;
    await this.engine.write(() => dropIndex(this.engine, this.view(), name));
  }
}

function applyBulkOperation(engine: EmbeddedEngine, view: ReturnType<EmbeddedEngine['view']>, op: Record<string, Record<string, unknown>>, result: BulkWriteResult): void {
  const [kind] = Object.keys(op);
  const arg = op[kind!]!;
  switch (kind) {
    case 'insertOne': {
      assertDocumentId(arg.document);
      const { error } = insertDocs(engine, view, [arg.document as Doc]);
      if (error) throw error;
      result.insertedCount++;
      return;
    }
    case 'updateOne':
    case 'updateMany': {
      assertOperatorUpdate(arg.update as Update);
      const o = updateDocs(engine, view, checkFilter(arg.filter as Filter), arg.update as Update, {
        multi: kind === 'updateMany',
        upsert: arg.upsert === true,
      });
      result.matchedCount += o.matched;
      result.modifiedCount += o.modified;
      if (o.upsertedId) result.upsertedCount++;
      return;
    }
    case 'replaceOne': {
      const o = replaceDoc(engine, view, checkFilter(arg.filter as Filter), arg.replacement as Doc, arg.upsert === true);
      result.matchedCount += o.matched;
      result.modifiedCount += o.modified;
      if (o.upsertedId) result.upsertedCount++;
      return;
    }
    case 'deleteOne':
    case 'deleteMany':
      result.deletedCount += deleteDocs(engine, view, checkFilter(arg.filter as Filter), { multi: kind === 'deleteMany' }).length;
      return;
    default:
      throw invalidQueryError(`Unknown bulkWrite operation ${String(kind)}.`);
  }
}
