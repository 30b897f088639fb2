/**
 * Binary index keys whose byte order is MongoDB's value order, so lmdb's sorted b-tree can answer
 * equality, range and sorted-paging queries. A key is `[index number][component]…`; each component is
 * a type tag (in BSON type order) followed by an order-preserving payload, and descending components
 * are bit-inverted. The document id is the entry's (dupsort) value, not part of the key.
 */
import type { Doc } from '../port.ts';
import { invalidDocumentError } from '../store-errors.ts';
import { valuesEqual } from '../bson-order.ts';
import { EMPTY_ARRAY, isArrayIndex, isPlainObject, splitPath } from '../document-paths.ts';

export const TAG = {
  emptyArray: 0x08,
  null: 0x10,
  nan: 0x1f,
  number: 0x20,
  string: 0x30,
  object: 0x40,
  array: 0x50,
  binary: 0x58,
  boolean: 0x60,
  date: 0x70,
  regex: 0x78,
} as const;

/** Longer than any key component can start with, so `prefix + END` bounds every key with `prefix`. */
export const END = 0xff;
const MAX_KEY_BYTES = 1900;

export interface IndexDef {
  name: string;
  /** First byte of every key of this index inside the collection's index database. */
  no: number;
  keys: [path: string, dir: 1 | -1][];
  unique: boolean;
  sparse: boolean;
  /** Some document had an array on an indexed path: entries may repeat a document. */
  multikey: boolean;
  /** Some key was truncated or holds a document/array value: key order is not value order. */
  inexact: boolean;
}

class KeyWriter {
  buf = Buffer.allocUnsafe(64);
  len = 0;
  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
  byte(b: number): void {
    this.ensure(1);
    this.buf[this.len++] = b;
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }
  double(n: number): void {
    this.ensure(8);
    this.buf.writeDoubleBE(n === 0 ? 0 : n, this.len);
    // Flip the sign bit of positives and every bit of negatives: IEEE doubles then sort as bytes.
    if (this.buf[this.len]! & 0x80) for (let i = 0; i < 8; i++) this.buf[this.len + i] = ~this.buf[this.len + i]! & 0xff;
    else this.buf[this.len] = this.buf[this.len]! | 0x80;
    this.len += 8;
  }
  /** Bytes with 0x00 escaped as 00 FF and a 00 00 terminator, so shorter strings sort first. */
  escaped(b: Uint8Array, terminate = true): void {
    for (let i = 0; i < b.length; i++) {
      const x = b[i]!;
      this.byte(x);
      if (x === 0) this.byte(0xff);
    }
    if (terminate) {
      this.byte(0);
      this.byte(0);
    }
  }
  invert(from: number): void {
    for (let i = from; i < this.len; i++) this.buf[i] = ~this.buf[i]! & 0xff;
  }
  toBuffer(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.len));
  }
}

function truncateUtf8(s: string, maxBytes: number): { bytes: Buffer; truncated: boolean } {
  const bytes = Buffer.from(s, 'utf8');
  if (bytes.length <= maxBytes) return { bytes, truncated: false };
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { bytes: bytes.subarray(0, end), truncated: true };
}

/** Writes one value; returns true when the encoding is not order-exact (truncated or composite). */
function writeValue(w: KeyWriter, v: unknown, stringBudget: number): boolean {
  if (v === null || v === undefined) {
    w.byte(TAG.null);
    return false;
  }
  switch (typeof v) {
    case 'number':
      if (Number.isNaN(v)) w.byte(TAG.nan);
      else {
        w.byte(TAG.number);
        w.double(v);
      }
      return false;
    case 'bigint':
      w.byte(TAG.number);
      w.double(Number(v));
      return true;
    case 'string': {
      w.byte(TAG.string);
      const { bytes, truncated } = truncateUtf8(v, stringBudget);
      w.escaped(bytes);
      return truncated;
    }
    case 'boolean':
      w.byte(TAG.boolean);
      w.byte(v ? 1 : 0);
      return false;
    case 'symbol':
      w.byte(TAG.emptyArray);
      return false;
  }
  if (v instanceof Date) {
    w.byte(TAG.date);
    w.double(Number.isNaN(v.getTime()) ? -Infinity : v.getTime());
    return false;
  }
  if (v instanceof RegExp) {
    w.byte(TAG.regex);
    w.escaped(Buffer.from(v.source.slice(0, stringBudget), 'utf8'));
    w.escaped(Buffer.from(v.flags, 'utf8'));
    return true;
  }
  if (v instanceof Uint8Array) {
    w.byte(TAG.binary);
    w.escaped(v.subarray(0, stringBudget));
    return true;
  }
  if (Array.isArray(v)) {
    w.byte(TAG.array);
    for (const e of v) {
      w.byte(1);
      writeValue(w, e, Math.max(8, stringBudget >> 2));
    }
    w.byte(0);
    return true;
  }
  w.byte(TAG.object);
  for (const [k, x] of Object.entries(v as object)) {
    if (x === undefined) continue;
    w.byte(1);
    w.escaped(Buffer.from(k, 'utf8'));
    writeValue(w, x, Math.max(8, stringBudget >> 2));
  }
  w.byte(0);
  return true;
}

function stringBudgetFor(index: IndexDef): number {
  return Math.floor((MAX_KEY_BYTES - 1) / index.keys.length) - 16;
}

/** One key component for a query value, in the index's direction for that component. */
export function encodeComponent(index: IndexDef, position: number, value: unknown): { bytes: Buffer; inexact: boolean } {
  const w = new KeyWriter();
  const budget = stringBudgetFor(index);
  // A query string within a few bytes of the limit could equal a truncated stored key.
  const nearLimit = typeof value === 'string' && Buffer.byteLength(value) >= budget - 4;
  const inexact = writeValue(w, value, budget) || nearLimit;
  if (index.keys[position]![1] === -1) w.invert(0);
  return { bytes: w.toBuffer(), inexact };
}

/** Encoded string prefix without terminator: every string starting with `prefix` encodes to bytes starting with this. */
export function encodeStringPrefix(index: IndexDef, position: number, prefix: string): Buffer | null {
  const { bytes, truncated } = truncateUtf8(prefix, stringBudgetFor(index));
  if (truncated) return null;
  const w = new KeyWriter();
  w.byte(TAG.string);
  w.escaped(bytes, false);
  if (index.keys[position]![1] === -1) w.invert(0);
  return w.toBuffer();
}

interface PathValues {
  values: unknown[];
  /** An array was met on the path (the document makes this index multikey). */
  array: boolean;
  /** The path reached at least one value (sparse indexes skip documents where none did). */
  present: boolean;
}

/** MongoDB's index key generation for one path: arrays fan out, missing values index as null. */
function pathValues(doc: Doc, path: string): PathValues {
  const parts = splitPath(path);
  const out: PathValues = { values: [], array: false, present: false };
  const walk = (v: unknown, i: number): void => {
    if (i === parts.length) {
      if (Array.isArray(v)) {
        out.array = true;
        out.present = true;
        // MongoDB indexes [] apart from null: a distinct key that no scalar lookup finds.
        if (v.length === 0) out.values.push(EMPTY_ARRAY);
        else for (const e of v) out.values.push(e === undefined ? null : e);
      } else {
        if (v !== undefined) out.present = true;
        out.values.push(v === undefined ? null : v);
      }
      return;
    }
    const p = parts[i]!;
    if (Array.isArray(v)) {
      out.array = true;
      if (isArrayIndex(p)) walk(v[Number(p)], i + 1);
      else if (v.length === 0) out.values.push(null);
      else for (const e of v) walk(isPlainObject(e) ? e[p] : undefined, i + 1);
    } else if (isPlainObject(v)) {
      walk(v[p], i + 1);
    } else {
      out.values.push(null);
    }
  };
  walk(doc, 0);
  return out;
}

export interface DocKeys {
  keys: Buffer[];
  multikey: boolean;
  inexact: boolean;
}

/**
 * Whether two versions of a document give an index the same keys: the same values on every path it
 * indexes. An update usually changes fields no index holds (a state, a counter), and building the
 * keys of both versions to compare them cost more than the rest of the update.
 */
export function sameIndexedValues(index: IndexDef, a: Doc, b: Doc): boolean {
  return index.keys.every(([path]) => {
    const x = pathValues(a, path);
    const y = pathValues(b, path);
    return x.present === y.present && x.array === y.array && x.values.length === y.values.length && x.values.every((v, i) => valuesEqual(v, y.values[i]));
  });
}

/** The distinct index keys of a document (none when a sparse index skips it). */
export function keysForDocument(index: IndexDef, doc: Doc): DocKeys {
  const perField = index.keys.map(([path]) => pathValues(doc, path));
  const result: DocKeys = { keys: [], multikey: false, inexact: false };
  if (index.sparse && !perField.some((f) => f.present)) return result;
  const arrays = perField.filter((f) => f.array).length;
  if (arrays > 1) throw invalidDocumentError(`Cannot index parallel arrays in index ${index.name}.`);
  result.multikey = arrays > 0;
  const budget = stringBudgetFor(index);
  const seen = new Set<string>();
  const build = (position: number, w: KeyWriter): void => {
    if (position === perField.length) {
      const key = w.toBuffer();
      const hex = key.toString('latin1');
      if (!seen.has(hex)) {
        seen.add(hex);
        result.keys.push(key);
      }
      return;
    }
    for (const v of perField[position]!.values) {
      const start = w.len;
      if (writeValue(w, v, budget)) result.inexact = true;
      if (index.keys[position]![1] === -1) w.invert(start);
      build(position + 1, w);
      w.len = start;
    }
  };
  const w = new KeyWriter();
  w.byte(index.no);
  build(0, w);
  return result;
}

/** Offset just past the component starting at `pos` (keys are self-delimiting). */
export function componentEnd(key: Uint8Array, pos: number): number {
  const first = key[pos]!;
  const inv = first >= 0x80 ? 0xff : 0;
  const tag = first ^ inv;
  return valueEnd(key, pos + 1, tag, inv);
}

function escapedEnd(key: Uint8Array, pos: number, inv: number): number {
  let i = pos;
  while (i < key.length) {
    const b = key[i]! ^ inv;
    if (b === 0) {
      const n = key[i + 1]! ^ inv;
      if (n === 0) return i + 2;
      i += 2;
    } else i++;
  }
  return i;
}

function valueEnd(key: Uint8Array, pos: number, tag: number, inv: number): number {
  switch (tag) {
    case TAG.emptyArray:
    case TAG.null:
    case TAG.nan:
      return pos;
    case TAG.number:
    case TAG.date:
      return pos + 8;
    case TAG.boolean:
      return pos + 1;
    case TAG.string:
    case TAG.binary:
      return escapedEnd(key, pos, inv);
    case TAG.regex:
      return escapedEnd(key, escapedEnd(key, pos, inv), inv);
    case TAG.array:
    case TAG.object: {
      let i = pos;
      while (i < key.length && (key[i]! ^ inv) === 1) {
        i++;
        if (tag === TAG.object) i = escapedEnd(key, i, inv);
        const t = key[i]! ^ inv;
        i = valueEnd(key, i + 1, t, inv);
      }
      return i + 1;
    }
    default:
      return key.length;
  }
}

/**
 * Decodes a scalar component (for answering `distinct` from an index). Returns `undefined` for
 * composite values and for the empty-array marker, which callers skip.
 */
export function decodeComponent(key: Uint8Array, pos: number): unknown {
  const first = key[pos]!;
  const inv = first >= 0x80 ? 0xff : 0;
  const tag = first ^ inv;
  const body = Buffer.from(key.subarray(pos + 1, componentEnd(key, pos)));
  if (inv) for (let i = 0; i < body.length; i++) body[i] = ~body[i]! & 0xff;
  const readDouble = (): number => {
    const b = Buffer.from(body.subarray(0, 8));
    if (b[0]! & 0x80) b[0] = b[0]! & 0x7f;
    else for (let i = 0; i < 8; i++) b[i] = ~b[i]! & 0xff;
    return b.readDoubleBE(0);
  };
  switch (tag) {
    case TAG.null:
      return null;
    case TAG.nan:
      return Number.NaN;
    case TAG.number:
      return readDouble();
    case TAG.date:
      return new Date(readDouble());
    case TAG.boolean:
      return body[0] === 1;
    case TAG.string: {
      const out: number[] = [];
      for (let i = 0; i < body.length - 2; i++) {
        out.push(body[i]!);
        if (body[i] === 0) i++; // 00 FF is an escaped zero byte
      }
      return Buffer.from(out).toString('utf8');
    }
    default:
      return undefined;
  }
}

export function withEnd(prefix: Uint8Array, times = 1): Buffer {
  const out = Buffer.allocUnsafe(prefix.length + times);
  out.set(prefix, 0);
  out.fill(END, prefix.length);
  return out;
}
