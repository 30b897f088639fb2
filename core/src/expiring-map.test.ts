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

  it('getOrLoad loads once while fresh, and forgets a rejected promise but not a newer value', async () => {
    const map = new ExpiringMap<string, Promise<number>>(60_000, 10);
    let loads = 0;
    const ok = () => map.getOrLoad('k', async () => ++loads);
    expect(await ok()).toBe(1);
    expect(await ok()).toBe(1);
    const failing = map.getOrLoad('f', () => Promise.reject(new Error('store down')));
    await expect(failing).rejects.toThrow('store down');
    expect(map.get('f')).toBeUndefined();
    // A rejection that lands after the key was set again leaves the newer value alone.
    let fail!: (e: Error) => void;
    const slow = map.getOrLoad('s', () => new Promise<number>((_, reject) => (fail = reject)));
    map.delete('s');
    const newer = map.getOrLoad('s', async () => 7);
    fail(new Error('late'));
    await expect(slow).rejects.toThrow('late');
    expect(map.get('s')).toBe(newer);
  });
});
