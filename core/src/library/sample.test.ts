import { describe, expect, it } from 'vitest';
import { sample, sampleWhere } from './queries.ts';

const numbers = Array.from({ length: 1000 }, (_, i) => i);

describe('sample and sampleWhere', () => {
  it('sampleWhere picks distinct items that pass, as many as asked', () => {
    const even = (n: number) => n % 2 === 0;
    const picked = sampleWhere(numbers, 10, even);
    expect(picked).toHaveLength(10);
    expect(new Set(picked).size).toBe(10);
    expect(picked.every(even)).toBe(true);
  });

  it('sampleWhere gives every passing item when few pass, and none when none does', () => {
    const few = sampleWhere(numbers, 10, (n) => n === 7 || n === 500 || n === 999);
    expect([...few].sort((a, b) => a - b)).toEqual([7, 500, 999]);
    expect(sampleWhere(numbers, 10, () => false)).toEqual([]);
    expect(sampleWhere([], 3, () => true)).toEqual([]);
  });

  it('sampleWhere draws the passing items evenly', () => {
    const passing = new Set([3, 150, 299, 420, 555, 600, 777, 801, 950, 998]);
    const counts = new Map<number, number>();
    for (let i = 0; i < 3000; i++) for (const n of sampleWhere(numbers, 2, (x) => passing.has(x))) counts.set(n, (counts.get(n) ?? 0) + 1);
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual([...passing].sort((a, b) => a - b));
    // 6 000 picks over 10 items: 600 each on average.
    for (const c of counts.values()) expect(c).toBeGreaterThan(450);
  });

  it('sample gives a shuffled copy when asked for everything', () => {
    expect([...sample(numbers.slice(0, 5), 10)].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(new Set(sample(numbers, 20)).size).toBe(20);
  });
});
