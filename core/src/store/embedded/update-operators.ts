/**
 * MongoDB update operators applied to a document copy, with MongoDB's rules and errors (path
 * conflicts, `$inc` on a non-number, `$push` to a non-array, …). mingo's updater is not used because it
 * silently ignores some of these cases and the `$push` modifiers.
 */
import { Query } from 'mingo';
import type { Doc, Filter, Update } from '../port.ts';
import { invalidUpdateError, unsupportedError } from '../store-errors.ts';
import { compareValues, sortDocuments, valuesEqual } from '../bson-order.ts';
import { getPath, isArrayIndex, isPlainObject, splitPath } from '../document-paths.ts';
import { assertOperatorUpdate } from '../update-rules.ts';

/** Copies a value the way the MongoDB driver stores it: `undefined` fields dropped, in arrays null. */
export function normalizeValue(v: unknown): unknown {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'function' || typeof v === 'symbol') throw invalidUpdateError(`A ${typeof v} cannot be stored.`);
    return v;
  }
  if (Array.isArray(v)) return v.map((e) => (e === undefined ? null : normalizeValue(e)));
  if (v instanceof Date) return new Date(v.getTime());
  if (v instanceof RegExp) return new RegExp(v.source, v.flags);
  if (v instanceof Uint8Array) return Buffer.from(v);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = normalizeValue(x);
  return out;
}

/** Whether a value holds something the stored form drops or rewrites (`undefined`, functions). */
function needsNormalizing(v: unknown, depth = 0): boolean {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return true;
  if (v === null || typeof v !== 'object' || v instanceof Date || v instanceof Uint8Array || v instanceof RegExp) return false;
  if (depth > 64) return true;
  if (Array.isArray(v)) return v.some((e) => needsNormalizing(e, depth + 1));
  for (const k in v) if (needsNormalizing((v as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

/**
 * The document as stored. lmdb encodes synchronously, so the caller's object is only copied when it
 * holds values the stored form drops (most documents are written as they are).
 */
export function normalizeDocument<T extends Doc>(doc: T): T {
  return needsNormalizing(doc) ? (normalizeValue(doc) as T) : doc;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  return typeof v;
}

function setAt(root: Record<string, unknown>, parts: readonly string[], value: unknown): void {
  let cur: unknown = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const p = parts[i]!;
    let next: unknown;
    if (Array.isArray(cur)) {
      if (!isArrayIndex(p)) throw invalidUpdateError(`Cannot create field '${p}' in an array at '${parts.slice(0, i).join('.')}'.`);
      const idx = Number(p);
      next = cur[idx];
      if (next === undefined) {
        while (cur.length < idx) cur.push(null);
        next = {};
        cur[idx] = next;
      }
    } else {
      const obj = cur as Record<string, unknown>;
      next = obj[p];
      if (next === undefined) {
        next = {};
        obj[p] = next;
      }
    }
    if (typeof next !== 'object' || next === null || next instanceof Date) {
      throw invalidUpdateError(`Cannot create field '${parts[i + 1]}' in element {${p}: ${describe(next)}}.`);
    }
    cur = next;
  }
  const last = parts[parts.length - 1]!;
  if (Array.isArray(cur)) {
    if (!isArrayIndex(last)) throw invalidUpdateError(`Cannot create field '${last}' in an array.`);
    const idx = Number(last);
    while (cur.length < idx) cur.push(null);
    cur[idx] = value;
  } else {
    (cur as Record<string, unknown>)[last] = value;
  }
}

function unsetAt(root: Record<string, unknown>, parts: readonly string[]): void {
  const parent = parts.length === 1 ? root : getPath(root, parts.slice(0, -1));
  const last = parts[parts.length - 1]!;
  if (Array.isArray(parent)) {
    // MongoDB keeps array positions stable: an unset element becomes null.
    if (isArrayIndex(last) && Number(last) < parent.length) parent[Number(last)] = null;
  } else if (isPlainObject(parent)) {
    delete parent[last];
  }
}

function arrayAt(doc: Record<string, unknown>, path: string, op: string): unknown[] | undefined {
  const current = getPath(doc, splitPath(path));
  if (current === undefined) return undefined;
  if (!Array.isArray(current)) throw invalidUpdateError(`${op} needs an array at '${path}' but found ${describe(current)}.`);
  return current;
}

function numberArg(op: string, path: string, arg: unknown): number {
  if (typeof arg !== 'number') throw invalidUpdateError(`${op} needs a numeric argument for '${path}'.`);
  return arg;
}

function elementMatcher(cond: unknown): (e: unknown) => boolean {
  if (cond instanceof RegExp) return (e) => typeof e === 'string' && cond.test(e);
  if (isPlainObject(cond)) {
    const keys = Object.keys(cond);
    if (keys.length > 0 && keys.every((k) => k.startsWith('$'))) {
      const q = new Query({ v: cond });
      return (e) => q.test({ v: e });
    }
    const q = new Query(cond);
    return (e) => isPlainObject(e) && q.test(e);
  }
  return (e) => valuesEqual(e, cond);
}

/**
 * Applies an operator update to a copy of `doc`. `inserting` enables `$setOnInsert` (upserts).
 * Throws `TAGSONIC_ERR_STORE_INVALID_UPDATE` with MongoDB's reasons.
 */
export function applyUpdate<T extends Doc>(doc: T, update: Update, inserting: boolean, now = new Date()): T {
  assertOperatorUpdate(update);
  const out = structuredClone(doc) as Record<string, unknown>;
  for (const [op, args] of Object.entries(update)) {
    for (const [path, rawArg] of Object.entries(args as Record<string, unknown>)) {
      if (rawArg === undefined) continue;
      const arg = normalizeValue(rawArg);
      const parts = splitPath(path);
      switch (op) {
        case '$set':
          setAt(out, parts, arg);
          break;
        case '$setOnInsert':
          if (inserting) setAt(out, parts, arg);
          break;
        case '$unset':
          unsetAt(out, parts);
          break;
        case '$inc':
        case '$mul': {
          const n = numberArg(op, path, arg);
          const current = getPath(out, parts);
          if (current === undefined) setAt(out, parts, op === '$inc' ? n : 0);
          else if (typeof current !== 'number') throw invalidUpdateError(`Cannot apply ${op} to '${path}', a value of type ${describe(current)}.`);
          else setAt(out, parts, op === '$inc' ? current + n : current * n);
          break;
        }
        case '$min':
        case '$max': {
          const current = getPath(out, parts);
          const c = current === undefined ? 0 : compareValues(arg, current);
          if (current === undefined || (op === '$min' ? c < 0 : c > 0)) setAt(out, parts, arg);
          break;
        }
        case '$currentDate': {
          const isDate = arg === true || (isPlainObject(arg) && arg.$type === 'date');
          if (isPlainObject(arg) && arg.$type === 'timestamp') throw unsupportedError('$currentDate with $type timestamp is not supported; use dates.');
          if (!isDate) throw invalidUpdateError(`$currentDate needs true or {$type: 'date'} for '${path}'.`);
          setAt(out, parts, new Date(now.getTime()));
          break;
        }
        case '$push': {
          const current = arrayAt(out, path, '$push') ?? [];
          const spec = isPlainObject(arg) && '$each' in arg ? arg : { $each: [arg] };
          for (const k of Object.keys(spec)) {
            if (!['$each', '$slice', '$sort', '$position'].includes(k)) throw invalidUpdateError(`Unknown $push modifier ${k}.`);
          }
          if (!Array.isArray(spec.$each)) throw invalidUpdateError('$push $each needs an array.');
          let next = current.slice();
          if (spec.$position === undefined) next.push(...spec.$each);
          else {
            const pos = numberArg('$push $position', path, spec.$position);
            const at = pos < 0 ? Math.max(0, next.length + pos) : Math.min(pos, next.length);
            next.splice(at, 0, ...spec.$each);
          }
          if (spec.$sort !== undefined) next = sortArray(next, spec.$sort);
          if (spec.$slice !== undefined) {
            const n = numberArg('$push $slice', path, spec.$slice);
            next = n >= 0 ? next.slice(0, n) : next.slice(Math.max(0, next.length + n));
          }
          setAt(out, parts, next);
          break;
        }
        case '$addToSet': {
          const current = arrayAt(out, path, '$addToSet') ?? [];
          const each = isPlainObject(arg) && '$each' in arg ? arg.$each : [arg];
          if (!Array.isArray(each)) throw invalidUpdateError('$addToSet $each needs an array.');
          const next = current.slice();
          for (const v of each) if (!next.some((e) => valuesEqual(e, v))) next.push(v);
          setAt(out, parts, next);
          break;
        }
        case '$pull': {
          const current = arrayAt(out, path, '$pull');
          if (current === undefined) break;
          const matches = elementMatcher(arg);
          setAt(out, parts, current.filter((e) => !matches(e)));
          break;
        }
        case '$pullAll': {
          if (!Array.isArray(arg)) throw invalidUpdateError('$pullAll needs an array.');
          const current = arrayAt(out, path, '$pullAll');
          if (current === undefined) break;
          setAt(out, parts, current.filter((e) => !arg.some((v) => valuesEqual(e, v))));
          break;
        }
        case '$pop': {
          if (arg !== 1 && arg !== -1) throw invalidUpdateError('$pop needs 1 or -1.');
          const current = arrayAt(out, path, '$pop');
          if (current === undefined || current.length === 0) break;
          setAt(out, parts, arg === 1 ? current.slice(0, -1) : current.slice(1));
          break;
        }
        case '$rename': {
          const value = getPath(out, parts);
          if (value === undefined) break;
          if (parts.some(isArrayIndex)) throw invalidUpdateError('$rename cannot move an array element.');
          unsetAt(out, parts);
          setAt(out, splitPath(arg as string), value);
          break;
        }
      }
    }
  }
  return out as T;
}

function sortArray(values: unknown[], spec: unknown): unknown[] {
  if (spec === 1 || spec === -1) {
    return values.slice().sort((a, b) => (spec === 1 ? compareValues(a, b) : compareValues(b, a)));
  }
  if (isPlainObject(spec)) {
    // Sorting by fields only considers documents; keep the stable original order otherwise.
    const docs = values.map((v, i) => ({ v, i }));
    const keyed = docs.map(({ v, i }) => ({ _id: i, ...(isPlainObject(v) ? v : {}), __value: v }));
    return sortDocuments(keyed, spec as Record<string, 1 | -1>).map((d) => d.__value);
  }
  throw invalidUpdateError('$push $sort needs 1, -1 or a sort document.');
}

/**
 * The document an upsert starts from: the equality conditions of the filter (`{a: 1}`, `{a: {$eq: 1}}`,
 * inside `$and`), as MongoDB does.
 */
export function seedFromFilter(filter: Filter): Record<string, unknown> {
  const seed: Record<string, unknown> = {};
  const visit = (f: Filter): void => {
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(v)) {
        for (const c of v) if (isPlainObject(c)) visit(c);
        continue;
      }
      if (k.startsWith('$') || v === undefined || v instanceof RegExp) continue;
      if (isPlainObject(v) && Object.keys(v).some((x) => x.startsWith('$'))) {
        if ('$eq' in v && !(v.$eq instanceof RegExp)) setAt(seed, splitPath(k), normalizeValue(v.$eq));
        continue;
      }
      setAt(seed, splitPath(k), normalizeValue(v));
    }
  };
  visit(filter);
  return seed;
}
