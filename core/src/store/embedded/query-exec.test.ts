/**
 * The embedded store matches simple filters (top-level equalities and `$in` lists) without mingo;
 * they must answer exactly what mingo answers, arrays, missing fields and mixed types included.
 */
import { describe, expect, it } from 'vitest';
import { Query } from 'mingo';
import { compileFilter } from './query-exec.ts';
import type { Doc, Filter } from '../port.ts';

const docs: Doc[] = [
  { _id: 'a', state: 'pending', n: 1, flag: true, tags: ['x', 'y'], nested: { state: 'pending' } },
  { _id: 'b', state: 'committed', n: 1.0, flag: false, tags: [], when: new Date(5) },
  { _id: 'c', state: 'failed', n: '1', flag: 'true', tags: [['x']] },
  { _id: 'd', n: 0, flag: null, tags: 'x' },
  { _id: 'e', state: ['pending', 'failed'], n: -0, tags: [1, 2] },
];

const filters: Filter[] = [
  { state: 'pending' },
  { state: { $in: ['pending', 'committed'] } },
  { state: { $eq: 'failed' } },
  { n: 1 },
  { n: 0 },
  { n: { $in: [1, '1'] } },
  { flag: true },
  { flag: false },
  { tags: 'x' },
  { tags: 2 },
  { tags: { $in: ['y', 1] } },
  { _id: 'c', state: 'failed' },
  { _id: { $in: ['a', 'b', 'zz'] }, n: 1 },
  { missing: 'x' },
  { state: { $in: [] } },
];

describe('simple filters', () => {
  for (const filter of filters) {
    it(JSON.stringify(filter), () => {
      const q = new Query(filter, {});
      const expected = docs.filter((d) => q.test(d)).map((d) => d._id);
      expect(docs.filter(compileFilter(filter)).map((d) => d._id)).toEqual(expected);
    });
  }

  it('still hands everything else to mingo', () => {
    const test = compileFilter({ 'nested.state': 'pending', n: { $gte: 1 } });
    expect(docs.filter(test).map((d) => d._id)).toEqual(['a']);
  });
});
