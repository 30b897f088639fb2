import { describe, expect, it } from 'vitest';
import { compareValues } from '../bson-order.ts';
import { componentEnd, encodeComponent, keysForDocument, type IndexDef } from './index-keys.ts';

const index = (keys: IndexDef['keys'], extra: Partial<IndexDef> = {}): IndexDef => ({ name: 'i', no: 3, keys, unique: false, sparse: false, multikey: false, inexact: false, ...extra });

/** Deterministic pseudo-random values of every indexable scalar type. */
function* values(n: number): Generator<unknown> {
  let seed = 7;
  const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const strings = ['', 'a', 'ab', 'a\u0000b', 'a\u0000', 'B', 'é', '\uffff', '\u{1F600}', 'zz', 'a b', '\u0001'];
  for (let i = 0; i < n; i++) {
    switch (i % 8) {
      case 0: yield (rnd() - 0.5) * 10 ** Math.floor(rnd() * 12); break;
      case 1: yield [0, -0, 1, -1, Infinity, -Infinity, NaN, 1e-300, -1e-300, Number.MAX_VALUE][Math.floor(rnd() * 10)]; break;
      case 2: yield strings[Math.floor(rnd() * strings.length)]! + (rnd() < 0.5 ? '' : String.fromCharCode(1 + Math.floor(rnd() * 0x2ff))); break;
      case 3: yield rnd() < 0.5; break;
      case 4: yield null; break;
      case 5: yield new Date(Math.floor((rnd() - 0.3) * 4e12)); break;
      case 6: yield Math.floor(rnd() * 100); break;
      default: yield strings[Math.floor(rnd() * strings.length)]; break;
    }
  }
}

describe('index keys', () => {
  it('byte order equals MongoDB value order, ascending and descending', () => {
    const vals = [...values(600)];
    for (const dir of [1, -1] as const) {
      const def = index([['v', dir]]);
      const encoded = vals.map((v) => ({ v, key: encodeComponent(def, 0, v).bytes }));
      for (let i = 0; i < encoded.length; i++) {
        for (let j = i + 1; j < Math.min(encoded.length, i + 60); j++) {
          const a = encoded[i]!;
          const b = encoded[j]!;
          expect(Math.sign(Buffer.compare(a.key, b.key)) || 0, `${String(a.v)} vs ${String(b.v)}`).toBe(dir * Math.sign(compareValues(a.v, b.v)) || 0);
        }
      }
    }
  });

  it('compound keys order field by field, and components can be parsed back', () => {
    const def = index([['a', 1], ['b', -1], ['c', 1]]);
    const docs = [...values(120)].map((v, i) => ({ _id: `d${i}`, a: i % 3 === 0 ? null : String(i % 4), b: v, c: i }));
    const keyed = docs.map((d) => ({ d, key: keysForDocument(def, d).keys[0]! }));
    keyed.sort((x, y) => Buffer.compare(x.key, y.key));
    for (let i = 1; i < keyed.length; i++) {
      const x = keyed[i - 1]!.d;
      const y = keyed[i]!.d;
      const ca = compareValues(x.a, y.a);
      const cb = -compareValues(x.b, y.b);
      const cc = compareValues(x.c, y.c);
      expect(ca < 0 || (ca === 0 && (cb < 0 || (cb === 0 && cc <= 0)))).toBe(true);
    }
    for (const { key } of keyed) {
      let pos = 1;
      for (let k = 0; k < 3; k++) pos = componentEnd(key, pos);
      expect(pos).toBe(key.length);
    }
  });

  it('indexes array elements, missing values as null, and skips documents in sparse indexes', () => {
    const def = index([['tags', 1]]);
    const multi = keysForDocument(def, { _id: 'a', tags: ['x', 'y', 'x'] });
    expect(multi.multikey).toBe(true);
    expect(multi.keys).toHaveLength(2);
    expect(keysForDocument(def, { _id: 'b' }).keys).toEqual([Buffer.concat([Buffer.from([def.no]), encodeComponent(def, 0, null).bytes])]);
    expect(keysForDocument(index([['tags', 1]], { sparse: true }), { _id: 'c' }).keys).toEqual([]);
    expect(() => keysForDocument(index([['a', 1], ['b', 1]]), { _id: 'd', a: [1], b: [2] })).toThrow(/parallel arrays/);
  });

  it('truncates very long strings and marks the key inexact', () => {
    const def = index([['title', 1]]);
    const long = 'x'.repeat(5_000);
    const k = keysForDocument(def, { _id: 'a', title: long });
    expect(k.inexact).toBe(true);
    expect(k.keys[0]!.length).toBeLessThan(1978);
    expect(keysForDocument(def, { _id: 'b', title: 'short' }).inexact).toBe(false);
  });
});
