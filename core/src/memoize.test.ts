import { describe, expect, it } from 'vitest';
import { memoize } from './memoize.ts';

describe('memoize', () => {
  it('calls the function once per argument, undefined results included, and starts over past its bound', () => {
    const calls: string[] = [];
    const f = memoize((s: string) => (calls.push(s), s === 'none' ? undefined : s.length), 3);
    expect([f('a'), f('bb'), f('a'), f('none'), f('none')]).toEqual([1, 2, 1, undefined, undefined]);
    expect(calls).toEqual(['a', 'bb', 'none']);
    f('cccc'); // a fourth argument: the cache starts over
    f('a');
    expect(calls).toEqual(['a', 'bb', 'none', 'cccc', 'a']);
  });
});
