/**
 * MongoDB's ordering of values (the BSON comparison order), so the embedded driver sorts, compares
 * `$min`/`$max` and de-duplicates exactly as a MongoDB server would:
 * null/missing < numbers < strings < objects < arrays < binary < booleans < dates < regular expressions.
 */
import type { Sort } from './port.ts';
import { collectValues, EMPTY_ARRAY, splitPath } from './document-paths.ts';

export function typeRank(v: unknown): number {
  if (v === null || v === undefined) return 2;
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return 3;
    case 'string':
      return 4;
    case 'boolean':
      return 9;
    case 'symbol':
      return v === EMPTY_ARRAY ? 1 : 13;
    case 'object':
      if (Array.isArray(v)) return 6;
      if (v instanceof Date) return 10;
      if (v instanceof RegExp) return 12;
      if (v instanceof Uint8Array) return 7;
      return 5;
    default:
      return 13;
  }
}

/**
 * Code-point order (= UTF-8 byte order, MongoDB's simple collation). JavaScript's `<` compares UTF-16
 * code units, which puts U+E000..U+FFFF above astral characters; shifting the ranges fixes that.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 || y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x >= 0xd800 ? x + 0x2000 : x;
      y = y >= 0xe000 ? y - 0x800 : y >= 0xd800 ? y + 0x2000 : y;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length < 0 ? -1 : a.length === b.length ? 0 : 1;
}

function compareNumbers(a: number, b: number): number {
  // MongoDB orders NaN below every other number.
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
  if (Number.isNaN(b)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 3:
      return compareNumbers(Number(a), Number(b));
    case 4:
      return compareStrings(a as string, b as string);
    case 9:
      return a === b ? 0 : a ? 1 : -1;
    case 10:
      return compareNumbers((a as Date).getTime(), (b as Date).getTime());
    case 6: {
      const xs = a as unknown[];
      const ys = b as unknown[];
      const n = Math.min(xs.length, ys.length);
      for (let i = 0; i < n; i++) {
        const c = compareValues(xs[i], ys[i]);
        if (c !== 0) return c;
      }
      return xs.length === ys.length ? 0 : xs.length < ys.length ? -1 : 1;
    }
    case 5: {
      // Field by field in document order: value type, then field name, then value.
      const xs = Object.entries(a as object).filter(([, v]) => v !== undefined);
      const ys = Object.entries(b as object).filter(([, v]) => v !== undefined);
      const n = Math.min(xs.length, ys.length);
      for (let i = 0; i < n; i++) {
        const [kx, vx] = xs[i]!;
        const [ky, vy] = ys[i]!;
        const t = typeRank(vx) - typeRank(vy);
        if (t !== 0) return t < 0 ? -1 : 1;
        const k = compareStrings(kx, ky);
        if (k !== 0) return k;
        const c = compareValues(vx, vy);
        if (c !== 0) return c;
      }
      return xs.length === ys.length ? 0 : xs.length < ys.length ? -1 : 1;
    }
    case 7:
      return compareBytes(a as Uint8Array, b as Uint8Array);
    case 12: {
      const s = compareStrings((a as RegExp).source, (b as RegExp).source);
      return s !== 0 ? s : compareStrings((a as RegExp).flags, (b as RegExp).flags);
    }
    default:
      return 0;
  }
}

/** BSON equality: field order matters for documents, numbers compare by value. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === null || a === undefined) !== (b === null || b === undefined)) return false;
  return compareValues(a, b) === 0;
}

/**
 * The value MongoDB sorts a document by for one sort key: arrays (also reached through dotted paths)
 * contribute their smallest element ascending and their largest descending; an empty array sorts
 * below null; a missing field sorts as null.
 */
export function sortKeyOf(doc: unknown, parts: readonly string[], dir: 1 | -1): unknown {
  const values = collectValues(doc, parts, true);
  if (values.length === 0) return null;
  let best = values[0];
  for (let i = 1; i < values.length; i++) {
    const c = compareValues(values[i], best);
    if (dir === 1 ? c < 0 : c > 0) best = values[i];
  }
  return best;
}

/**
 * Sorts documents in place like MongoDB. Ties are broken by `_id` ascending so that every query plan
 * (index walk or in-memory sort) returns the same order and paging stays stable.
 */
export function sortDocuments<T>(docs: T[], sort: Sort): T[] {
  const spec = Object.entries(sort).map(([path, dir]) => ({ parts: splitPath(path), dir: dir === -1 ? -1 : 1 }) as const);
  if (!spec.some((s) => s.parts.length === 1 && s.parts[0] === '_id')) spec.push({ parts: ['_id'], dir: 1 });
  const keyed = docs.map((doc) => ({ doc, keys: spec.map((s) => sortKeyOf(doc, s.parts, s.dir)) }));
  keyed.sort((x, y) => {
    for (let i = 0; i < spec.length; i++) {
      const c = compareValues(x.keys[i], y.keys[i]);
      if (c !== 0) return spec[i]!.dir === 1 ? c : -c;
    }
    return 0;
  });
  for (let i = 0; i < keyed.length; i++) docs[i] = keyed[i]!.doc;
  return docs;
}
