import { describe, expect, it } from 'vitest';
import { fitColumnWidths } from './column-widths.ts';

const cols = [{ width: 48, min: 48 }, { width: 220 }, { width: 180 }, { width: 80, min: 64 }, { width: 70, min: 52 }];

describe('fitColumnWidths', () => {
  it('shares the room in proportion and fills it', () => {
    const w = fitColumnWidths(cols, 1196);
    expect(w.reduce((a, b) => a + b)).toBeGreaterThan(1190);
    expect(w.reduce((a, b) => a + b)).toBeLessThanOrEqual(1196);
    expect(w[1]! / w[2]!).toBeCloseTo(220 / 180, 1);
  });

  it('shrinks to fit, keeping each column at its minimum at least', () => {
    const w = fitColumnWidths(cols, 400);
    expect(w.reduce((a, b) => a + b)).toBeLessThanOrEqual(400);
    expect(w[0]).toBe(48);
    expect(w[3]).toBeGreaterThanOrEqual(64);
    expect(w[4]).toBeGreaterThanOrEqual(52);
  });

  it('stops at the minimums when there is no room (the table then scrolls)', () => {
    expect(fitColumnWidths(cols, 100)).toEqual([48, 56, 56, 64, 52]);
    expect(fitColumnWidths(cols, 0)).toEqual([48, 220, 180, 80, 70]);
  });
});
