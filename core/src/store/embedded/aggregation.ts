/**
 * Aggregation pipelines on the embedded store. Leading `$match`/`$sort`/`$skip`/`$limit` stages run
 * through the query planner (indexes, early stop); the rest runs in mingo with a context whose
 * `$sort`, `$push`, `$addToSet` and `$lookup` behave like MongoDB's.
 */
import { Context } from 'mingo';
import { Aggregator } from 'mingo/aggregator';
import { Lazy, type Iterator as LazyIterator } from 'mingo/lazy';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import type { Options } from 'mingo/types';
import { unique } from 'mingo/util';
import { isTagsonicError } from '../../errors/index.ts';
import type { Doc, Filter, Pipeline, Sort } from '../port.ts';
import { invalidQueryError } from '../store-errors.ts';
import { sortDocuments } from '../bson-order.ts';
import { collectValues, isPlainObject, splitPath } from '../document-paths.ts';
import { compileFastGroup } from './fast-group.ts';
import { findDocs, matchingDocs, newStats, planFor, type CollectionView, type ExecStats } from './query-exec.ts';

export interface AggregationHost {
  /** A view of another collection on the same snapshot (for `$lookup`). */
  view(name: string): CollectionView;
}

type AnyObject = Record<string, unknown>;
type AccumulatorFn = (coll: AnyObject[], expr: unknown, options: Options) => unknown;
type PipelineFn = (coll: LazyIterator, expr: unknown, options: Options) => LazyIterator;

const MISSING = '\u0000tagsonic:missing\u0000';

/** MongoDB's `$push` skips documents where the expression is missing; mingo would push null. */
const $push: AccumulatorFn = (coll, expr, options) => {
  if (expr === null || expr === undefined) return coll;
  const guarded = { $cond: [{ $eq: [{ $type: expr }, 'missing'] }, { $literal: MISSING }, expr] };
  const values = (accumulatorOperators.$push as unknown as AccumulatorFn)(coll, guarded, options) as unknown[];
  return values.filter((v) => v !== MISSING);
};

const $addToSet: AccumulatorFn = (coll, expr, options) => unique($push(coll, expr, options) as unknown[]);

const $sort: PipelineFn = (coll, spec) => {
  if (!isPlainObject(spec) || Object.keys(spec).length === 0 || !Object.values(spec).every((d) => d === 1 || d === -1)) {
    throw invalidQueryError('$sort needs a document of fields with 1 or -1.');
  }
  return coll.transform((docs: AnyObject[]) => Lazy(sortDocuments(docs.slice(), spec as Sort)));
};

const mingoGroup = pipelineOperators.$group as unknown as PipelineFn;

/** Streams common `$group` shapes (see fast-group.ts); mingo handles the rest. */
const $group: PipelineFn = (coll, expr, options) => {
  const fast = compileFastGroup(expr);
  if (!fast) return mingoGroup(coll, expr, options);
  let rows: AnyObject[] | null = null;
  let i = 0;
  return Lazy(() => {
    rows ??= fast({
      [Symbol.iterator]: () => ({ next: () => coll.next() as IteratorResult<AnyObject> }),
    });
    return i < rows.length ? { value: rows[i++], done: false } : { done: true };
  });
};

/**
 * `$sample` without replacement (reservoir sampling in one pass), as MongoDB behaves whenever it
 * samples by scanning; mingo's may return one document twice.
 */
const $sample: PipelineFn = (coll, expr) => {
  const size = isPlainObject(expr) ? expr.size : undefined;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) throw invalidQueryError('$sample needs {size: <non-negative integer>}.');
  let picked: unknown[] | null = null;
  let i = 0;
  return Lazy(() => {
    if (!picked) {
      picked = [];
      let seen = 0;
      for (let r = coll.next(); !r.done; r = coll.next()) {
        seen++;
        if (picked.length < size) picked.push(r.value);
        else {
          const j = Math.floor(Math.random() * seen);
          if (j < size) picked[j] = r.value;
        }
      }
      for (let k = picked.length - 1; k > 0; k--) {
        const j = Math.floor(Math.random() * (k + 1));
        [picked[k], picked[j]] = [picked[j], picked[k]];
      }
    }
    return i < picked.length ? { value: picked[i++], done: false } : { done: true };
  });
};

function makeLookup(host: AggregationHost): PipelineFn {
  const mingoLookup = pipelineOperators.$lookup as unknown as PipelineFn;
  return (coll, expr, options) => {
    const spec = expr as { from?: unknown; localField?: unknown; foreignField?: unknown; as?: unknown; pipeline?: unknown; let?: unknown };
    const simple =
      typeof spec.from === 'string' && typeof spec.localField === 'string' && typeof spec.foreignField === 'string' && typeof spec.as === 'string' && spec.pipeline === undefined && spec.let === undefined;
    if (!simple) return mingoLookup(coll, expr, options);
    const view = host.view(spec.from as string);
    const foreignField = spec.foreignField as string;
    // Per-document index lookups when the foreign field is indexed; otherwise mingo's hash join.
    if (planFor(view, { [foreignField]: { $in: ['x'] } }, undefined, Number.POSITIVE_INFINITY).kind !== 'index') {
      return mingoLookup(coll, expr, options);
    }
    const localParts = splitPath(spec.localField as string);
    const as = spec.as as string;
    return coll.map((doc: AnyObject) => {
      const local = collectValues(doc, localParts);
      const values = local.length > 0 ? local : [null];
      return { ...doc, [as]: findDocs(view, { [foreignField]: { $in: values } }) };
    });
  };
}

export function createAggregationContext(host: AggregationHost): Context {
  return Context.init({
    accumulator: { ...accumulatorOperators, $push, $addToSet } as never,
    expression: { ...expressionOperators } as never,
    pipeline: { ...pipelineOperators, $sort, $group, $sample, $lookup: makeLookup(host) } as never,
    projection: { ...projectionOperators } as never,
    query: { ...queryOperators } as never,
    window: { ...windowOperators } as never,
  });
}

function stageName(stage: unknown): string {
  if (!isPlainObject(stage)) throw invalidQueryError('Each pipeline stage must be an object.');
  const keys = Object.keys(stage);
  if (keys.length !== 1 || !keys[0]!.startsWith('$')) throw invalidQueryError(`A pipeline stage must have exactly one $operator, got ${JSON.stringify(keys)}.`);
  return keys[0]!;
}

function* limited<T>(source: Iterable<T>, skip: number, limit: number): Generator<T> {
  if (limit <= 0) return;
  let n = 0;
  for (const x of source) {
    if (skip > 0) {
      skip--;
      continue;
    }
    yield x;
    if (++n >= limit) return;
  }
}

/**
 * Runs a pipeline; `stats` receives what the leading stages' query examined (the part that can use
 * indexes).
 */
export function runPipeline(host: AggregationHost, context: Context, view: CollectionView, pipeline: Pipeline, stats: ExecStats = newStats()): AnyObject[] {
  if (!Array.isArray(pipeline)) throw invalidQueryError('A pipeline must be an array of stages.');
  const names = pipeline.map(stageName);
  let i = 0;
  let filter: Filter = {};
  let sort: Sort | undefined;
  let skip = 0;
  let limit = Number.POSITIVE_INFINITY;
  if (names[i] === '$match') filter = pipeline[i++]!.$match as Filter;
  if (names[i] === '$sort') {
    sort = pipeline[i++]!.$sort as Sort;
    if (!isPlainObject(sort) || !Object.values(sort).every((d) => d === 1 || d === -1)) throw invalidQueryError('$sort needs a document of fields with 1 or -1.');
  }
  if (names[i] === '$skip' && typeof pipeline[i]!.$skip === 'number') skip = Math.max(0, pipeline[i++]!.$skip as number);
  if (names[i] === '$limit' && typeof pipeline[i]!.$limit === 'number') limit = pipeline[i++]!.$limit as number;
  if (!isPlainObject(filter)) throw invalidQueryError('$match needs a filter document.');

  const source: Iterable<Doc> = sort
    ? findDocs(view, filter, { sort, skip, limit: Number.isFinite(limit) ? limit : 0 }, stats)
    : limited(matchingDocs(view, filter, stats), skip, limit);
  const rest = pipeline.slice(i);
  if (rest.length === 0) return [...source];
  try {
    const options: Partial<Options> = {
      context,
      collectionResolver: (name: string) => [...matchingDocs(host.view(name), {})],
    };
    return new Aggregator(rest, options).run<AnyObject>(source);
  } catch (e) {
    if (isTagsonicError(e)) throw e;
    throw invalidQueryError(`Invalid aggregation pipeline: ${(e as Error).message}`, e);
  }
}
