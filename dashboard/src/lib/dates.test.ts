import { describe, expect, it } from 'vitest';
import { formatDateTime } from './dates.ts';

describe('formatDateTime', () => {
  it('writes the UI locale: zh-CN 2026-11-24 23:36, English 24 Nov 2026, 23:36 (local time, 24-hour)', () => {
    const d = new Date(2026, 10, 24, 23, 36, 59);
    expect(formatDateTime(d, 'zh-CN')).toBe('2026-11-24 23:36');
    expect(formatDateTime(d.toISOString(), 'en')).toBe('24 Nov 2026, 23:36');
    expect(formatDateTime(new Date(2026, 0, 2, 3, 4).getTime(), 'zh-CN')).toBe('2026-01-02 03:04');
  });

  it('shows an unreadable value as given', () => {
    expect(formatDateTime('not a date', 'zh-CN')).toBe('not a date');
  });
});
