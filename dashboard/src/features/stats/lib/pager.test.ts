import { describe, expect, it } from 'vitest';
import { resize, turnPage } from './pager.ts';

describe('turnPage', () => {
  const at = (page: number) => ({ page, pageSize: 10 });
  it('moves within 1..pages', () => {
    expect(turnPage(at(1), 2, 3)).toEqual(at(2));
    expect(turnPage(at(3), 2, 3)).toEqual(at(2));
  });
  it('ignores a page outside 1..pages (the same state comes back)', () => {
    const first = at(1);
    expect(turnPage(first, 0, 3)).toBe(first);
    const last = at(3);
    expect(turnPage(last, 4, 3)).toBe(last);
    expect(turnPage(first, 1.5, 3)).toBe(first);
  });
  it('treats no pages as one page', () => {
    const first = at(1);
    expect(turnPage(first, 2, 0)).toBe(first);
  });
});

describe('resize', () => {
  it('starts again at page 1 with the new size', () => {
    expect(resize({ page: 3, pageSize: 10 }, 20)).toEqual({ page: 1, pageSize: 20 });
  });
  it('keeps the page when the size does not change', () => {
    const s = { page: 3, pageSize: 10 };
    expect(resize(s, 10)).toBe(s);
  });
});
