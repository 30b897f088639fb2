import { describe, expect, it } from 'vitest';
import { nextSort, sortRows, UNSORTED } from './sort-cycle.ts';

describe('table sort cycle (§4)', () => {
  it('none → ascending → descending → ascending, one active key', () => {
    const a = nextSort(UNSORTED, 'title');
    expect(a).toEqual({ key: 'title', direction: 'asc' });
    const b = nextSort(a, 'title');
    expect(b).toEqual({ key: 'title', direction: 'desc' });
    expect(nextSort(b, 'title')).toEqual({ key: 'title', direction: 'asc' });
    // Another column takes over and starts ascending.
    expect(nextSort(b, 'year')).toEqual({ key: 'year', direction: 'asc' });
  });

  it('sorts numbers, CJK and numbered text naturally and keeps empty values last', () => {
    const rows = [{ t: '第10首' }, { t: null }, { t: '第2首' }, { t: 'b' }, { t: 'A' }];
    const asc = sortRows(rows, { key: 't', direction: 'asc' }, (r, k) => r[k as 't']).map((r) => r.t);
    expect(asc.indexOf('A')).toBe(asc.indexOf('b') - 1);
    expect(asc.indexOf('第2首')).toBeLessThan(asc.indexOf('第10首'));
    expect(asc.at(-1)).toBeNull();
    const desc = sortRows(rows, { key: 't', direction: 'desc' }, (r, k) => r[k as 't']).map((r) => r.t);
    expect(desc.at(-1)).toBeNull();
    expect(desc.indexOf('第10首')).toBeLessThan(desc.indexOf('第2首'));
    expect(sortRows([{ n: 3 }, { n: 1 }], { key: 'n', direction: 'asc' }, (r) => r.n).map((r) => r.n)).toEqual([1, 3]);
    expect(sortRows(rows, UNSORTED, () => 0)).toEqual(rows);
  });
});
