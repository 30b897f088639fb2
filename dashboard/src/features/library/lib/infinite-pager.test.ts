import { describe, expect, it } from 'vitest';
import { InfinitePager } from './infinite-pager.ts';

const library = Array.from({ length: 120 }, (_, i) => i);

function recorder(source: number[]) {
  const calls: [number, number][] = [];
  const load = async (offset: number, size: number) => {
    calls.push([offset, size]);
    return source.slice(offset, offset + size);
  };
  return { calls, load };
}

describe('InfinitePager (the library lists: 50 per batch until a short page)', () => {
  it('asks 50 at a time from the end of what it has and stops after the short last page', async () => {
    const { calls, load } = recorder(library);
    const pager = new InfinitePager(load, 50);
    await pager.more();
    await pager.more();
    expect(pager.snapshot.items).toHaveLength(100);
    expect(pager.snapshot.done).toBe(false);
    await pager.more();
    expect(pager.snapshot.items).toEqual(library);
    expect(pager.snapshot.done).toBe(true);
    await pager.more();
    expect(calls).toEqual([
      [0, 50],
      [50, 50],
      [100, 50],
    ]);
  });

  it('stops at the first empty page when the library is an exact multiple of the batch', async () => {
    const { calls, load } = recorder(library.slice(0, 60));
    const pager = new InfinitePager(load, 30);
    for (let i = 0; i < 5; i++) await pager.more();
    expect(pager.snapshot.items).toHaveLength(60);
    expect(pager.snapshot.done).toBe(true);
    expect(calls.map(([offset]) => offset)).toEqual([0, 30, 60]);
  });

  it('shares one call between scroll events that fire while a batch is loading', async () => {
    const { calls, load } = recorder(library);
    const pager = new InfinitePager(load, 50);
    await Promise.all([pager.more(), pager.more(), pager.more()]);
    expect(calls).toEqual([[0, 50]]);
  });

  it('keeps a failure and asks nothing more until the list is rebuilt', async () => {
    let calls = 0;
    const states: boolean[] = [];
    const pager = new InfinitePager(
      async () => {
        calls++;
        throw new Error('Subsonic down');
      },
      50,
      (s) => states.push(s.loading),
    );
    await pager.more();
    await pager.more();
    expect(calls).toBe(1);
    expect((pager.snapshot.error as Error).message).toBe('Subsonic down');
    expect(states).toEqual([true, false]);
  });

  it('refuses a batch size that is not a positive whole number', () => {
    expect(() => new InfinitePager(async () => [], 0)).toThrow(RangeError);
  });
});
