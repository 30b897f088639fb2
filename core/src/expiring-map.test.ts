import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExpiringMap } from './expiring-map.ts';

afterEach(() => vi.useRealTimers());

describe('ExpiringMap', () => {
  it('answers while fresh, forgets after the delay, and starts over when full', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const map = new ExpiringMap<string, number>(2_000, 2);
    map.set('a', 1);
    vi.advanceTimersByTime(1_999);
    expect(map.get('a')).toBe(1);
    vi.advanceTimersByTime(1);
    expect(map.get('a')).toBeUndefined();
    map.set('a', 1);
    map.set('b', 2);
    map.set('b', 3); // replacing a key does not count as a new entry
    expect([map.get('a'), map.get('b')]).toEqual([1, 3]);
    map.set('c', 4);
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([undefined, undefined, 4]);
    map.delete('c');
    expect(map.get('c')).toBeUndefined();
  });
});
