/**
 * A streaming `$group` for the common shape (`_id` a field path or constant; `$sum`, `$avg`, `$min`,
 * `$max`, `$first`, `$last`, `$push`, `$addToSet`, `$count` of field paths or constants). It reads each
 * document once and keeps only the groups, where mingo's `$group` holds every document and evaluates
 * expressions through its generic machinery. Other shapes return null and go to mingo.
 */
import { compareValues } from '../bson-order.ts';
import { isPlainObject, splitPath } from '../document-paths.ts';

type Getter = (doc: Record<string, unknown>) => unknown;

/** MongoDB's `$a.b` expression: through arrays it collects the values found in their elements. */
function pathValue(v: unknown, parts: readonly string[], i: number): unknown {
  if (i === parts.length) return v;
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const e of v) {
      const r = pathValue(e, parts, i);
      if (r !== undefined) out.push(r);
    }
    return out;
  }
  if (isPlainObject(v)) return pathValue(v[parts[i]!], parts, i + 1);
  return undefined;
}

function getter(expr: unknown): Getter | null {
  if (expr === '$$ROOT' || expr === '$$CURRENT') return (doc) => doc;
  if (typeof expr === 'string' && expr.startsWith('$')) {
    if (expr.startsWith('$$')) return null;
    const parts = splitPath(expr.slice(1));
    if (parts.length === 1) {
      const p = parts[0]!;
      return (doc) => doc[p];
    }
    return (doc) => pathValue(doc, parts, 0);
  }
  if (expr === null || typeof expr === 'number' || typeof expr === 'boolean' || (typeof expr === 'string' && !expr.startsWith('$'))) return () => expr;
  return null;
}

/** A Map key that is equal exactly when MongoDB groups two values together. */
function groupKey(v: unknown): string {
  if (v === undefined || v === null) return 'n';
  switch (typeof v) {
    case 'number':
      return `d${v}`;
    case 'string':
      return `s${v}`;
    case 'boolean':
      return `b${v}`;
  }
  if (v instanceof Date) return `t${v.getTime()}`;
  return `o${JSON.stringify(v, (_k, x: unknown) => (x instanceof Date ? { $date: x.getTime() } : x))}`;
}

interface Acc {
  add(doc: Record<string, unknown>, state: unknown[], slot: number): void;
  init(): unknown;
  result(s: unknown): unknown;
}

function accumulator(spec: unknown): Acc | null {
  if (!isPlainObject(spec)) return null;
  const ops = Object.keys(spec);
  if (ops.length !== 1) return null;
  const op = ops[0]!;
  const arg = spec[op];
  if (op === '$count') {
    if (!isPlainObject(arg) || Object.keys(arg).length > 0) return null;
    return { init: () => 0, add: (_d, s, i) => void (s[i] = (s[i] as number) + 1), result: (s) => s };
  }
  const get = getter(arg);
  if (!get) return null;
  switch (op) {
    case '$sum':
      return {
        init: () => 0,
        add: (d, s, i) => {
          const v = get(d);
          if (typeof v === 'number') s[i] = (s[i] as number) + v;
        },
        result: (s) => s,
      };
    case '$avg':
      return {
        init: () => ({ sum: 0, n: 0 }),
        add: (d, s, i) => {
          const v = get(d);
          if (typeof v === 'number') {
            const a = s[i] as { sum: number; n: number };
            a.sum += v;
            a.n++;
          }
        },
        result: (s) => {
          const a = s as { sum: number; n: number };
          return a.n === 0 ? null : a.sum / a.n;
        },
      };
    case '$min':
    case '$max': {
      const sign = op === '$min' ? -1 : 1;
      return {
        init: () => undefined,
        add: (d, s, i) => {
          const v = get(d);
          if (v === undefined || v === null) return;
          if (s[i] === undefined || Math.sign(compareValues(v, s[i])) === sign) s[i] = v;
        },
        result: (s) => s ?? null,
      };
    }
    case '$first':
      return {
        init: () => ({ set: false, v: null as unknown }),
        add: (d, s, i) => {
          const a = s[i] as { set: boolean; v: unknown };
          if (!a.set) {
            a.set = true;
            a.v = get(d) ?? null;
          }
        },
        result: (s) => (s as { v: unknown }).v,
      };
    case '$last':
      return { init: () => null, add: (d, s, i) => void (s[i] = get(d) ?? null), result: (s) => s };
    case '$push':
      return {
        init: () => [] as unknown[],
        add: (d, s, i) => {
          const v = get(d);
          if (v !== undefined) (s[i] as unknown[]).push(v);
        },
        result: (s) => s,
      };
    case '$addToSet':
      return {
        init: () => new Map<string, unknown>(),
        add: (d, s, i) => {
          const v = get(d);
          if (v === undefined) return;
          const m = s[i] as Map<string, unknown>;
          const k = groupKey(v);
          if (!m.has(k)) m.set(k, v);
        },
        result: (s) => [...(s as Map<string, unknown>).values()],
      };
    default:
      return null;
  }
}

/** A streaming implementation of this `$group` stage, or null when mingo has to do it. */
export function compileFastGroup(spec: unknown): ((docs: Iterable<Record<string, unknown>>) => Record<string, unknown>[]) | null {
  if (!isPlainObject(spec) || !('_id' in spec)) return null;
  const idGet = getter(spec._id);
  if (!idGet) return null;
  const fields = Object.keys(spec).filter((k) => k !== '_id');
  const accs: Acc[] = [];
  for (const f of fields) {
    if (f.includes('.') || f.startsWith('$')) return null;
    const a = accumulator(spec[f]);
    if (!a) return null;
    accs.push(a);
  }
  return (docs) => {
    const groups = new Map<string, { id: unknown; state: unknown[] }>();
    for (const doc of docs) {
      const id = idGet(doc) ?? null;
      const key = groupKey(id);
      let g = groups.get(key);
      if (!g) {
        g = { id, state: accs.map((a) => a.init()) };
        groups.set(key, g);
      }
      for (let i = 0; i < accs.length; i++) accs[i]!.add(doc, g.state, i);
    }
    const out: Record<string, unknown>[] = [];
    for (const g of groups.values()) {
      const row: Record<string, unknown> = { _id: g.id };
      for (let i = 0; i < accs.length; i++) row[fields[i]!] = accs[i]!.result(g.state[i]);
      out.push(row);
    }
    return out;
  };
}

