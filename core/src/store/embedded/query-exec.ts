/**
 * Runs query plans against one collection's lmdb databases: walks index ranges (re-ordering tie groups
 * by `_id`, skipping natively where the plan is exact), fetches documents on demand, re-checks the
 * filter with mingo, sorts in memory only when no index gives the order. All reads are synchronous
 * and therefore see one consistent snapshot.
 */
import type { Database, RangeOptions } from 'lmdb';
import { Query } from 'mingo';
import { compareStrings, compareValues, sortDocuments } from '../bson-order.ts';
import { collectValues, splitPath } from '../document-paths.ts';
import type { Doc, Filter, FindOptions, Projection, Sort } from '../port.ts';
import { invalidQueryError } from '../store-errors.ts';
import { componentEnd, decodeComponent, TAG, withEnd, type IndexDef } from './index-keys.ts';
import { choosePlan, type IndexPlan, type KeyRange, type Plan } from './query-plan.ts';

/** lmdb-js keeps msgpack shared structures under this key in every documents database. */
export const STRUCTURES_KEY = Symbol.for('tagsonic.structures');

export interface CollectionView {
  readonly name: string;
  readonly docs: Database<Doc, string>;
  readonly index: Database<string, Buffer>;
  readonly indexes: readonly IndexDef[];
}

/** What a query did, for tests and tuning (`explain`). */
export interface ExecStats {
  plan: Plan['kind'] | 'none';
  index: string | null;
  /** The index (or `_id` order) produced the requested sort; no in-memory sort happened. */
  sortedByIndex: boolean;
  /** The plan needed no re-check of the filter. */
  exact: boolean;
  keysExamined: number;
  docsExamined: number;
  returned: number;
}

export const newStats = (): ExecStats => ({
  plan: 'none',
  index: null,
  sortedByIndex: false,
  exact: false,
  keysExamined: 0,
  docsExamined: 0,
  returned: 0,
});

export function compileFilter(filter: Filter): (doc: Doc) => boolean {
  if (Object.keys(filter).length === 0) return () => true;
  const simple = simpleMatcher(filter);
  if (simple) return simple;
  try {
    const q = new Query(filter, {});
    return (doc) => q.test(doc);
  } catch (e) {
    throw invalidQueryError(`Invalid filter: ${(e as Error).message}`, e);
  }
}

type Scalar = string | number | boolean;
const isPlainScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v));

/**
 * Filters made only of top-level equalities and `$in` lists of strings, numbers and booleans (most
 * of the filters repositories write) are matched here: building a mingo query costs more than many
 * such lookups. Same semantics as MongoDB for these values: a field equals the value, or is an array
 * with an element equal to it; values of another type never match. Anything else goes to mingo.
 */
function simpleMatcher(filter: Filter): ((doc: Doc) => boolean) | null {
  const tests: Array<[string, readonly Scalar[]]> = [];
  for (const [key, cond] of Object.entries(filter)) {
    if (key.startsWith('$') || key.includes('.')) return null;
    if (isPlainScalar(cond)) tests.push([key, [cond]]);
    else if (cond && typeof cond === 'object' && !Array.isArray(cond) && Object.getPrototypeOf(cond) === Object.prototype) {
      const ops = Object.keys(cond);
      const arg = (cond as Record<string, unknown>)[ops[0]!];
      if (ops.length !== 1) return null;
      if (ops[0] === '$eq' && isPlainScalar(arg)) tests.push([key, [arg]]);
      else if (ops[0] === '$in' && Array.isArray(arg) && arg.every(isPlainScalar)) tests.push([key, arg]);
      else return null;
    } else return null;
  }
  return (doc) => {
    for (const [key, values] of tests) {
      const v = doc[key];
      if (Array.isArray(v) ? !v.some((x) => values.includes(x as Scalar)) : !values.includes(v as Scalar)) return false;
    }
    return true;
  };
}

export function totalDocs(view: CollectionView): number {
  const stats = view.docs.getStats() as { entryCount: number };
  return stats.entryCount - (view.docs.doesExist(STRUCTURES_KEY as unknown as string) ? 1 : 0);
}

export function planFor(view: CollectionView, filter: Filter, sort: Sort | undefined, need: number): Plan {
  return choosePlan(
    {
      indexes: view.indexes,
      // Native counting costs a few nanoseconds per entry (an offset probe would not stop at `end`).
      countRange: (r, cap) => Math.min(cap, view.index.getCount({ start: r.start, end: r.end } as RangeOptions)),
      totalDocs: () => totalDocs(view),
    },
    filter,
    sort,
    need,
  );
}

function scanOptions(plan: Extract<Plan, { kind: 'scan' }>, offset: number): RangeOptions {
  const o: RangeOptions = { reverse: plan.reverse, offset };
  if (!plan.reverse) {
    o.start = (plan.lower?.value as string | undefined) ?? '';
    if (plan.lower && !plan.lower.inclusive) o.exclusiveStart = true;
    if (plan.upper) {
      o.end = plan.upper.value as string;
      o.inclusiveEnd = plan.upper.inclusive;
    }
  } else {
    if (plan.upper) {
      o.start = plan.upper.value as string;
      o.exclusiveStart = !plan.upper.inclusive;
    }
    // Strings sort after the shared-structures key: ending at '' keeps it out of the walk.
    o.end = (plan.lower?.value as string | undefined) ?? '';
    if (plan.lower) o.inclusiveEnd = plan.lower.inclusive;
  }
  return o;
}

function rangeOptions(range: KeyRange, reverse: boolean, extra: RangeOptions = {}): RangeOptions {
  // lmdb walks backwards from `start`; keep the range half-open [start, end) either way.
  return reverse
    ? { start: range.end, end: range.start, reverse: true, exclusiveStart: true, inclusiveEnd: true, ...extra }
    : { start: range.start, end: range.end, ...extra };
}

function groupEnd(key: Uint8Array, components: number): number {
  let pos = 1;
  for (let i = 0; i < components && pos < key.length; i++) pos = componentEnd(key, pos);
  return pos;
}

/**
 * Ids in index order. Tie groups (equal sort components) come out ordered by `_id` in `tieDir`.
 * `skip` entries are skipped natively (only valid when every entry is a distinct match).
 */
function* indexIds(view: CollectionView, plan: IndexPlan, stats: ExecStats, skip: number): Generator<string> {
  const dedupe = plan.index.multikey || plan.ranges.length > 1 ? new Set<string>() : null;
  const ranges = plan.reverse ? plan.ranges.slice().reverse() : plan.ranges;
  for (let r = 0; r < ranges.length; r++) {
    let range = ranges[r]!;
    let dropAfterGrouping = 0;
    let nativeOffset = 0;
    if (r === 0 && skip > 0) {
      // lmdb's offset walk does not stop at the range end: skipping past it would walk the rest of
      // the index database for nothing. The planner's count (exact below its cap) tells.
      if (plan.estimateExact && plan.estimate <= skip) return;
      if (!plan.needsGrouping) nativeOffset = skip;
      else {
        // Find the tie group holding the skip-th entry, count what precedes it, and start there.
        const boundary = [...view.index.getRange(rangeOptions(range, plan.reverse, { offset: skip, limit: 1 }))][0];
        if (!boundary) return;
        const key = boundary.key as unknown as Buffer;
        const gp = key.subarray(0, groupEnd(key, plan.groupComponents));
        const before = plan.reverse
          ? view.index.getCount({ start: range.end, end: withEnd(gp), reverse: true, exclusiveStart: true } as RangeOptions)
          : view.index.getCount({ start: range.start, end: gp } as RangeOptions);
        dropAfterGrouping = skip - before;
        range = plan.reverse ? { start: range.start, end: withEnd(gp) } : { start: Buffer.from(gp), end: range.end };
      }
      stats.keysExamined += skip - dropAfterGrouping;
    }
    const entries = view.index.getRange(rangeOptions(range, plan.reverse, { offset: nativeOffset }));
    if (!plan.needsGrouping) {
      for (const { value } of entries) {
        stats.keysExamined++;
        if (dedupe) {
          if (dedupe.has(value)) continue;
          dedupe.add(value);
        }
        yield value;
      }
      continue;
    }
    let groupKey: Buffer | null = null;
    let group: string[] = [];
    const flush = function* (): Generator<string> {
      if (group.length > 1) group.sort((a, b) => compareStrings(a, b) * plan.tieDir);
      for (const id of group) {
        if (dropAfterGrouping > 0) {
          dropAfterGrouping--;
          continue;
        }
        yield id;
      }
      group = [];
    };
    for (const { key, value } of entries) {
      stats.keysExamined++;
      const k = key as unknown as Buffer;
      const gk = k.subarray(0, groupEnd(k, plan.groupComponents));
      if (groupKey === null || !gk.equals(groupKey)) {
        yield* flush();
        groupKey = Buffer.from(gk);
      }
      group.push(value);
    }
    yield* flush();
  }
}

function* candidates(view: CollectionView, plan: Plan, stats: ExecStats, skip: number): Generator<Doc> {
  switch (plan.kind) {
    case 'ids':
      for (const id of plan.ids) {
        stats.keysExamined++;
        const doc = view.docs.get(id);
        if (doc === undefined) continue;
        stats.docsExamined++;
        yield doc;
      }
      return;
    case 'scan':
      for (const { value } of view.docs.getRange(scanOptions(plan, skip))) {
        stats.docsExamined++;
        yield value;
      }
      return;
    case 'index':
      for (const id of indexIds(view, plan, stats, skip)) {
        const doc = view.docs.get(id);
        if (doc === undefined) continue;
        stats.docsExamined++;
        yield doc;
      }
  }
}

const isSortedPlan = (plan: Plan): boolean => (plan.kind === 'ids' ? false : plan.sorted);

function nativeSkipAllowed(plan: Plan): boolean {
  if (!plan.exact) return false;
  if (plan.kind === 'scan') return true;
  return plan.kind === 'index' && !plan.index.multikey && plan.ranges.length === 1;
}

function record(stats: ExecStats, plan: Plan, sorted: boolean): void {
  stats.plan = plan.kind;
  stats.index = plan.kind === 'index' ? plan.index.name : null;
  stats.exact = plan.exact;
  stats.sortedByIndex = sorted;
}

/** Matching documents in plan order (no sort), for updates, deletes and aggregation sources. */
export function* matchingDocs(view: CollectionView, filter: Filter, stats = newStats()): Generator<Doc> {
  const plan = planFor(view, filter, undefined, Number.POSITIVE_INFINITY);
  record(stats, plan, false);
  const test = plan.exact ? null : compileFilter(filter);
  for (const doc of candidates(view, plan, stats, 0)) if (!test || test(doc)) yield doc;
}

export function findDocs(view: CollectionView, filter: Filter, options: FindOptions = {}, stats = newStats()): Doc[] {
  const skip = Math.max(0, Math.trunc(options.skip ?? 0));
  const limit = options.limit ? Math.abs(Math.trunc(options.limit)) : Number.POSITIVE_INFINITY;
  const sort = options.sort && Object.keys(options.sort).length > 0 ? options.sort : undefined;
  const plan = planFor(view, filter, sort, skip + limit);
  const test = plan.exact ? null : compileFilter(filter);
  let out: Doc[] = [];
  if (!sort || isSortedPlan(plan)) {
    record(stats, plan, sort !== undefined);
    const native = nativeSkipAllowed(plan) ? skip : 0;
    let toSkip = skip - native;
    if (limit > 0) {
      for (const doc of candidates(view, plan, stats, native)) {
        if (test && !test(doc)) continue;
        if (toSkip > 0) {
          toSkip--;
          continue;
        }
        out.push(doc);
        if (out.length >= limit) break;
      }
    }
  } else {
    record(stats, plan, false);
    const all: Doc[] = [];
    for (const doc of candidates(view, plan, stats, 0)) if (!test || test(doc)) all.push(doc);
    sortDocuments(all, sort);
    out = all.slice(skip, skip + limit);
  }
  stats.returned = out.length;
  return options.projection ? project(out, options.projection) : out;
}

export function countDocs(view: CollectionView, filter: Filter): number {
  const plan = planFor(view, filter, undefined, Number.POSITIVE_INFINITY);
  if (plan.exact) {
    if (plan.kind === 'scan') return view.docs.getCount(scanOptions(plan, 0));
    if (plan.kind === 'ids') return plan.ids.filter((id) => view.docs.doesExist(id)).length;
    // Ranges of distinct equality values are disjoint: without arrays each document appears once.
    if (!plan.index.multikey) return plan.ranges.reduce((n, r) => n + view.index.getCount(rangeOptions(r, false)), 0);
    const ids = new Set<string>();
    for (const r of plan.ranges) for (const { value } of view.index.getRange(rangeOptions(r, false))) ids.add(value);
    return ids.size;
  }
  let n = 0;
  const test = compileFilter(filter);
  for (const doc of candidates(view, plan, newStats(), 0)) if (test(doc)) n++;
  return n;
}

export function project<T extends Doc>(docs: T[], projection: Projection): T[] {
  if (Object.keys(projection).length === 0) return docs;
  let projected: Record<string, unknown>[];
  try {
    projected = new Query({}, {}).find<Record<string, unknown>>(docs, projection).all();
  } catch (e) {
    throw invalidQueryError(`Invalid projection: ${(e as Error).message}`, e);
  }
  // MongoDB keeps _id first.
  return projected.map((d) => ('_id' in d ? { _id: d._id, ...d } : d)) as T[];
}

/**
 * `distinct(field)` over the whole collection from an index on `field`: one cursor seek per distinct
 * value instead of reading every document. Null needs care in a non-sparse index, where it also
 * stands for "missing": it is reported only if some document really holds null.
 */
export function distinctFromIndex(view: CollectionView, field: string): unknown[] | null {
  const index = view.indexes.find((d) => d.keys[0]![0] === field && !d.inexact);
  if (!index) return null;
  const parts = splitPath(field);
  const out: unknown[] = [];
  const end = Buffer.from([index.no + 1]);
  let start: Buffer = Buffer.from([index.no]);
  for (;;) {
    const first = [...view.index.getKeys({ start, end, limit: 1 } as RangeOptions)][0] as Buffer | undefined;
    if (!first) break;
    const compEnd = componentEnd(first, 1);
    const prefix = Buffer.from(first.subarray(0, compEnd));
    const tag = first[1]! >= 0x80 ? 0xff - first[1]! : first[1]!;
    if (tag === TAG.null) {
      let realNull = index.sparse;
      if (!realNull) {
        for (const id of view.index.getRange({ start: prefix, end: withEnd(prefix) }).map((e) => e.value)) {
          const doc = view.docs.get(id);
          if (doc && collectValues(doc, parts).some((v) => v === null)) {
            realNull = true;
            break;
          }
        }
      }
      if (realNull) out.push(null);
    } else {
      const v = decodeComponent(first, 1);
      if (v !== undefined) out.push(v);
    }
    start = withEnd(prefix);
  }
  return out.sort(compareValues);
}
