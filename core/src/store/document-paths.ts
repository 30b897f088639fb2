/**
 * Dotted-path access with MongoDB's rules: `a.b` fans out over arrays of sub-documents, `a.0` picks an
 * array element.
 */

const splitCache = new Map<string, readonly string[]>();

export function splitPath(path: string): readonly string[] {
  let parts = splitCache.get(path);
  if (parts === undefined) {
    parts = path.split('.');
    if (splitCache.size > 10_000) splitCache.clear();
    splitCache.set(path, parts);
  }
  return parts;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof RegExp) && !(v instanceof Uint8Array);
}

export const isArrayIndex = (part: string): boolean => /^(0|[1-9][0-9]*)$/.test(part);

/** The value at a path without fanning out over arrays (what update operators address). */
export function getPath(doc: unknown, parts: readonly string[]): unknown {
  let v: unknown = doc;
  for (const p of parts) {
    if (Array.isArray(v)) {
      if (!isArrayIndex(p)) return undefined;
      v = v[Number(p)];
    } else if (isPlainObject(v)) {
      v = v[p];
    } else {
      return undefined;
    }
  }
  return v;
}

/** Marks an empty array among collected values (MongoDB sorts it below null). */
export const EMPTY_ARRAY = Symbol('empty array');

/**
 * Every value a path reaches, fanning out over arrays like MongoDB does for queries, sorts and
 * `distinct`: arrays at the end of the path contribute their elements. Missing values contribute
 * nothing; an empty array contributes `EMPTY_ARRAY` when `markEmpty` is set.
 */
export function collectValues(doc: unknown, parts: readonly string[], markEmpty = false): unknown[] {
  const out: unknown[] = [];
  const walk = (v: unknown, i: number): void => {
    if (i === parts.length) {
      if (Array.isArray(v)) {
        if (v.length === 0) {
          if (markEmpty) out.push(EMPTY_ARRAY);
        } else {
          for (const e of v) out.push(e);
        }
      } else if (v !== undefined) {
        out.push(v);
      }
      return;
    }
    const p = parts[i]!;
    if (Array.isArray(v)) {
      if (isArrayIndex(p)) walk(v[Number(p)], i + 1);
      else for (const e of v) if (isPlainObject(e)) walk(e[p], i + 1);
    } else if (isPlainObject(v)) {
      walk(v[p], i + 1);
    }
  };
  walk(doc, 0);
  return out;
}
