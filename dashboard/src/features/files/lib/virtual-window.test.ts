import { describe, expect, it } from 'vitest';
import { rowWindow, scrollToReveal } from './virtual-window.ts';

describe('virtual window', () => {
  it('renders the visible rows plus a buffer, with padding standing in for the rest', () => {
    const w = rowWindow(28 * 1000, 560, 28, 10_000, 20);
    expect(w).toEqual({ start: 980, end: 1041, padTop: 980 * 28, padBottom: (10_000 - 1041) * 28 });
    // Total height is preserved: padding + rendered rows = all rows.
    expect(w.padTop + (w.end - w.start) * 28 + w.padBottom).toBe(10_000 * 28);
  });

  it('clamps at both ends and for tiny lists', () => {
    expect(rowWindow(0, 560, 28, 10_000, 20)).toMatchObject({ start: 0, end: 41, padTop: 0 });
    expect(rowWindow(28 * 10_000, 560, 28, 10_000, 20)).toMatchObject({ end: 10_000, padBottom: 0 });
    expect(rowWindow(-50, 560, 28, 3, 20)).toEqual({ start: 0, end: 3, padTop: 0, padBottom: 0 });
    expect(rowWindow(0, 560, 28, 0, 20)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
  });

  it('snaps to chunks so small scrolls keep the same window', () => {
    const a = rowWindow(28 * 1000, 560, 28, 10_000, 20, 10);
    const b = rowWindow(28 * 1006, 560, 28, 10_000, 20, 10);
    expect(a).toMatchObject({ start: 980, end: 1050 });
    expect(b).toEqual(a);
    const c = rowWindow(28 * 1011, 560, 28, 10_000, 20, 10);
    expect(c.start).toBe(990);
    // Still at least the buffer beyond what is visible.
    expect(c.end).toBeGreaterThanOrEqual(1011 + 21 + 20);
  });

  it('scrolls just enough to reveal a row', () => {
    expect(scrollToReveal(9, 0, 280, 28)).toBeNull();
    expect(scrollToReveal(10, 0, 200, 28)).toBe(11 * 28 - 200);
    expect(scrollToReveal(2, 280, 280, 28)).toBe(56);
  });
});
