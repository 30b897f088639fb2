/**
 * Chooses how to answer a filter (+ sort) on the embedded store: direct `_id` gets, a walk over a
 * secondary index (equality/`$in` prefixes, one range, sorted paging), or a collection scan. The plan
 * only narrows candidates; unless it is `exact`, every candidate is re-checked against the full filter.
 */
import type { Filter, Sort } from '../port.ts';
import { isPlainObject } from '../document-paths.ts';
import { encodeComponent, encodeStringPrefix, TAG, withEnd, type IndexDef } from './index-keys.ts';

type Bound = { value: number | string | Date; inclusive: boolean };

interface FieldConstraint {
  eq?: unknown[];
  lower?: Bound;
  upper?: Bound;
  prefix?: string;
  /** The constraint says everything the filter says about this field. */
  exact: boolean;
}

export interface FilterAnalysis {
  fields: Map<string, FieldConstraint>;
  /** Some condition (e.g. `$or`, `$ne`, `$regex`) is not captured by `fields`. */
  residual: boolean;
}

const isEqScalar = (v: unknown): boolean =>
  v === null ||
  typeof v === 'string' ||
  typeof v === 'number' ||
  typeof v === 'boolean' ||
  (v instanceof Date && !Number.isNaN(v.getTime()));

const boundType = (v: unknown): 'number' | 'string' | 'date' | null =>
  typeof v === 'number' && !Number.isNaN(v) ? 'number' : typeof v === 'string' ? 'string' : v instanceof Date && !Number.isNaN(v.getTime()) ? 'date' : null;

/** `^literal` regexes (no flags that change anchoring or case) select a contiguous key range. */
function literalPrefix(source: string, flags: string): string | null {
  if (!source.startsWith('^') || /[imxs]/.test(flags)) return null;
  let out = '';
  for (let i = 1; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const n = source[i + 1];
      if (n !== undefined && /[.*+?^${}()|[\]\\/-]/.test(n)) {
        out += n;
        i++;
        continue;
      }
      break;
    }
    if (/[.*+?^${}()|[\]]/.test(c)) {
      // A quantifier makes the previous character optional or repeated: it is not part of the prefix.
      if (/[*+?{]/.test(c)) out = out.slice(0, -1);
      break;
    }
    out += c;
  }
  return out.length > 0 ? out : null;
}

export function analyzeFilter(filter: Filter): FilterAnalysis {
  const result: FilterAnalysis = { fields: new Map(), residual: false };
  const add = (field: string, c: FieldConstraint): void => {
    if (result.fields.has(field)) {
      result.residual = true; // two conditions on one field: keep the first, re-check the rest
      return;
    }
    result.fields.set(field, c);
  };
  const visit = (f: Filter): void => {
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(v)) {
        for (const c of v) if (isPlainObject(c)) visit(c);
        else result.residual = true;
        continue;
      }
      if (k.startsWith('$') || v === undefined) {
        result.residual = true;
        continue;
      }
      if (v instanceof RegExp) {
        const prefix = literalPrefix(v.source, v.flags);
        if (prefix !== null) add(k, { prefix, exact: false });
        result.residual = true;
        continue;
      }
      if (isPlainObject(v)) {
        const ops = Object.keys(v);
        if (ops.length === 0 || !ops.every((o) => o.startsWith('$'))) {
          result.residual = true;
          continue;
        }
        const c: FieldConstraint = { exact: true };
        for (const op of ops) {
          const arg = v[op];
          if (op === '$eq' && isEqScalar(arg)) c.eq = [arg];
          else if (op === '$in' && Array.isArray(arg) && arg.every(isEqScalar)) c.eq = arg;
          else if ((op === '$gt' || op === '$gte') && boundType(arg) !== null) c.lower = { value: arg as Bound['value'], inclusive: op === '$gte' };
          else if ((op === '$lt' || op === '$lte') && boundType(arg) !== null) c.upper = { value: arg as Bound['value'], inclusive: op === '$lte' };
          else if (op === '$regex' && (typeof arg === 'string' || arg instanceof RegExp)) {
            const source = typeof arg === 'string' ? arg : arg.source;
            const flags = `${typeof v.$options === 'string' ? v.$options : ''}${arg instanceof RegExp ? arg.flags : ''}`;
            const prefix = literalPrefix(source, flags);
            if (prefix !== null) c.prefix = prefix;
            c.exact = false;
          } else if (op === '$options') continue;
          else c.exact = false;
        }
        if (c.lower && c.upper && boundType(c.lower.value) !== boundType(c.upper.value)) {
          delete c.upper;
          c.exact = false;
        }
        if (c.eq && (c.lower || c.upper || c.prefix)) {
          delete c.lower;
          delete c.upper;
          delete c.prefix;
          c.exact = false;
        }
        if (!c.exact) result.residual = true;
        if (c.eq || c.lower || c.upper || c.prefix) add(k, c);
        continue;
      }
      if (isEqScalar(v)) add(k, { eq: [v], exact: true });
      else result.residual = true;
    }
  };
  visit(filter);
  return result;
}

export interface KeyRange {
  start: Buffer;
  /** Exclusive. */
  end: Buffer;
}

export type Plan =
  | { kind: 'ids'; ids: string[]; exact: boolean }
  | {
      kind: 'scan';
      /** Walks `_id` order; `sorted` when that is the requested order. */
      reverse: boolean;
      sorted: boolean;
      exact: boolean;
      lower?: Bound;
      upper?: Bound;
    }
  | {
      kind: 'index';
      index: IndexDef;
      ranges: KeyRange[];
      reverse: boolean;
      sorted: boolean;
      /** Components whose equal values form a tie group that is re-ordered by `_id`. */
      groupComponents: number;
      needsGrouping: boolean;
      tieDir: 1 | -1;
      exact: boolean;
      /** Equality/range constrained (not a plain ordered walk of the whole index). */
      constrained: boolean;
      /** Index entries in `ranges` (capped at ESTIMATE_CAP unless `estimateExact`). */
      estimate: number;
      estimateExact: boolean;
    };

export type IndexPlan = Extract<Plan, { kind: 'index' }>;

function rangeSuffix(index: IndexDef, position: number, c: FieldConstraint, multikey: boolean): { start: Buffer; end: Buffer; exact: boolean } | null {
  const desc = index.keys[position]![1] === -1;
  if (c.prefix !== undefined) {
    const p = encodeStringPrefix(index, position, c.prefix);
    if (p === null) return null;
    return { start: p, end: withEnd(p, desc ? 3 : 1), exact: false };
  }
  let lower = c.lower;
  let upper = c.upper;
  let exact = c.exact;
  // On arrays, $gt and $lt may be satisfied by different elements: only one bound narrows safely.
  if (multikey && lower && upper) {
    upper = undefined;
    exact = false;
  }
  const type = boundType((lower ?? upper)!.value);
  const tag = type === 'number' ? TAG.number : type === 'string' ? TAG.string : TAG.date;
  const enc = (b: Bound) => encodeComponent(index, position, b.value);
  let lo: Buffer;
  let hi: Buffer;
  const loEnc = lower ? enc(lower) : null;
  const hiEnc = upper ? enc(upper) : null;
  // A truncated bound cannot tell equal-prefix keys apart: keep them (inclusive) and re-check.
  const loIncl = lower ? lower.inclusive || loEnc!.inexact : true;
  const hiIncl = upper ? upper.inclusive || hiEnc!.inexact : true;
  if (loEnc?.inexact || hiEnc?.inexact) exact = false;
  if (!desc) {
    lo = loEnc ? (loIncl ? loEnc.bytes : withEnd(loEnc.bytes)) : Buffer.from([tag]);
    hi = hiEnc ? (hiIncl ? withEnd(hiEnc.bytes) : hiEnc.bytes) : Buffer.from([tag + 1]);
  } else {
    lo = hiEnc ? (hiIncl ? hiEnc.bytes : withEnd(hiEnc.bytes)) : Buffer.from([0xff - tag]);
    hi = loEnc ? (loIncl ? withEnd(loEnc.bytes) : loEnc.bytes) : Buffer.from([0xff - tag + 1]);
  }
  return { start: lo, end: hi, exact };
}

const concat = (a: Buffer, b: Buffer): Buffer => Buffer.concat([a, b]);

interface SortInfo {
  entries: [string, 1 | -1][];
  tieDir: 1 | -1;
}

function sortInfo(sort: Sort | undefined): SortInfo | null {
  if (!sort) return null;
  const entries = Object.entries(sort).map(([k, d]) => [k, d === -1 ? -1 : 1] as [string, 1 | -1]);
  if (entries.length === 0) return null;
  let tieDir: 1 | -1 = 1;
  const last = entries[entries.length - 1]!;
  if (last[0] === '_id') {
    tieDir = last[1];
    entries.pop();
  }
  return { entries, tieDir };
}

/** Builds the plan one index offers for the analysed filter and sort (null when it offers nothing). */
export function planForIndex(index: IndexDef, analysis: FilterAnalysis, sort: Sort | undefined): IndexPlan | null {
  const first = index.keys[0]![0];
  // Cheap rejection: an index helps only through its first field, be it filtered or sorted on.
  if (!analysis.fields.has(first) && !(sort && Object.keys(sort).includes(first))) return null;
  let prefixes: Buffer[] = [Buffer.from([index.no])];
  let exact = !analysis.residual;
  const consumed = new Set<string>();
  let eqCount = 0;
  let singleValued = true;
  for (let pos = 0; pos < index.keys.length; pos++) {
    const [path] = index.keys[pos]!;
    const c = analysis.fields.get(path);
    if (!c?.eq) break;
    if (index.sparse && c.eq.some((v) => v === null)) break;
    if (prefixes.length * c.eq.length > 4096) break;
    const comps = c.eq.map((v) => encodeComponent(index, pos, v));
    if (comps.some((x) => x.inexact)) exact = false;
    if (index.multikey && c.eq.some((v) => v === null)) exact = false;
    if (!c.exact) exact = false;
    if (c.eq.length !== 1) singleValued = false;
    const seen = new Set<string>();
    const unique = comps.filter((x) => !seen.has(x.bytes.toString('latin1')) && seen.add(x.bytes.toString('latin1')));
    prefixes = prefixes.flatMap((p) => unique.map((x) => concat(p, x.bytes)));
    consumed.add(path);
    eqCount++;
  }
  let ranges: KeyRange[] = prefixes.map((p) => ({ start: p, end: withEnd(p) }));
  let rangeField: string | null = null;
  if (eqCount < index.keys.length) {
    const [path] = index.keys[eqCount]!;
    const c = analysis.fields.get(path);
    if (c && !c.eq && (c.lower || c.upper || c.prefix !== undefined)) {
      const suffix = rangeSuffix(index, eqCount, c, index.multikey);
      if (suffix) {
        ranges = prefixes.map((p) => ({ start: concat(p, suffix.start), end: concat(p, suffix.end) }));
        if (!suffix.exact) exact = false;
        consumed.add(path);
        rangeField = path;
      }
    }
  }
  for (const field of analysis.fields.keys()) if (!consumed.has(field)) exact = false;
  const constrained = consumed.size > 0;

  // Can walking this index produce the requested order?
  const info = sortInfo(sort);
  let sorted = false;
  let reverse = false;
  let groupComponents = index.keys.length;
  let tieDir: 1 | -1 = 1;
  if (info && !index.multikey && !index.inexact && !index.sparse && singleValued) {
    const constant = new Set([...consumed].filter((f) => f !== rangeField));
    const wanted = info.entries.filter(([f]) => !constant.has(f));
    const rest = index.keys.slice(eqCount);
    if (wanted.length > 0 && wanted.length <= rest.length && (rangeField === null || wanted[0]![0] === rangeField)) {
      const forward = wanted.every(([f, d], i) => rest[i]![0] === f && rest[i]![1] === d);
      const backward = wanted.every(([f, d], i) => rest[i]![0] === f && rest[i]![1] === -d);
      if (forward || backward) {
        sorted = true;
        reverse = backward;
        groupComponents = eqCount + wanted.length;
        tieDir = info.tieDir;
      }
    }
  }
  if (!constrained && !sorted) return null;
  // Equal keys come in ascending _id order walking forward, descending walking backward; the whole key
  // must be the tie group or ties would follow the remaining index fields instead of _id.
  const needsGrouping = sorted && (groupComponents < index.keys.length || (reverse ? tieDir === 1 : tieDir === -1));
  return { kind: 'index', index, ranges, reverse, sorted, groupComponents, needsGrouping, tieDir, exact, constrained, estimate: Number.POSITIVE_INFINITY, estimateExact: false };
}

export interface PlanContext {
  indexes: readonly IndexDef[];
  /** Number of index entries in a range, counted natively up to `cap`. */
  countRange(range: KeyRange, cap: number): number;
  totalDocs(): number;
}

export const ESTIMATE_CAP = 20_000;

export function choosePlan(ctx: PlanContext, filter: Filter, sort: Sort | undefined, need: number): Plan {
  const analysis = analyzeFilter(filter);
  const idc = analysis.fields.get('_id');
  const onlyId = !analysis.residual && analysis.fields.size === 1;
  if (idc?.eq) {
    const ids = [...new Set(idc.eq.filter((v): v is string => typeof v === 'string'))].sort();
    return { kind: 'ids', ids, exact: onlyId && idc.exact };
  }
  const info = sortInfo(sort);
  const idSorted = info !== null && info.entries.length === 0;
  const scan: Plan = {
    kind: 'scan',
    reverse: idSorted && info.tieDir === -1,
    sorted: idSorted || info === null,
    exact: analysis.fields.size === 0 ? !analysis.residual : false,
  };
  if (idc && (idc.lower || idc.upper) && typeof (idc.lower ?? idc.upper)!.value === 'string') {
    if (idc.lower && typeof idc.lower.value === 'string') scan.lower = idc.lower;
    if (idc.upper && typeof idc.upper.value === 'string') scan.upper = idc.upper;
    scan.exact = onlyId && idc.exact && (!idc.lower || typeof idc.lower.value === 'string') && (!idc.upper || typeof idc.upper.value === 'string');
  }
  const plans: IndexPlan[] = [];
  for (const index of ctx.indexes) {
    const p = planForIndex(index, analysis, sort);
    if (!p) continue;
    if (p.constrained) {
      let n = 0;
      for (const r of p.ranges) {
        n += ctx.countRange(r, ESTIMATE_CAP - n);
        if (n >= ESTIMATE_CAP) break;
      }
      p.estimate = n;
      p.estimateExact = n < ESTIMATE_CAP;
    } else {
      // A walkable index is neither sparse nor multikey: one entry per document.
      p.estimate = ctx.totalDocs();
      p.estimateExact = true;
    }
    plans.push(p);
  }
  const byEstimate = (a: IndexPlan, b: IndexPlan) =>
    a.estimate - b.estimate || Number(b.index.unique) - Number(a.index.unique) || Number(b.exact) - Number(a.exact);
  const constrained = plans.filter((p) => p.constrained).sort(byEstimate);
  const bestConstrained = constrained[0];
  if (!info) return bestConstrained ?? scan;

  const sortedConstrained = constrained.find((p) => p.sorted);
  if (sortedConstrained && (!bestConstrained || sortedConstrained.estimate <= bestConstrained.estimate * 4)) return sortedConstrained;
  const walk: Plan | undefined = idSorted ? scan : (plans.filter((p) => p.sorted && !p.constrained).sort(byEstimate)[0] ?? sortedConstrained);
  if (bestConstrained) {
    if (!walk || !Number.isFinite(need)) return bestConstrained;
    // Walking in order examines about need × (all / matching) entries; the constrained plan examines
    // its matches once and sorts them in memory.
    const walkCost = (need * ctx.totalDocs()) / Math.max(bestConstrained.estimate, 1);
    return bestConstrained.estimate <= walkCost ? bestConstrained : walk;
  }
  return walk ?? scan;
}

