import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { addDays, bucketOf, daysBetween, growth, instantOf, isoDate, LocalHours, periodRange } from './periods.ts';

const iso = (t: number) => new Date(t).toISOString();
const at = (s: string) => Date.parse(s);
const range = (period: 'week' | 'month' | 'year', now: string, zone: string) => {
  const r = periodRange(period, at(now), zone);
  return { start: iso(r.start), end: iso(r.end), lastStart: iso(r.lastStart), days: `${isoDate(r.firstDay)}..${isoDate(r.lastDay)}` };
};

describe('periodRange in Asia/Shanghai (UTC+8, no DST)', () => {
  const zone = 'Asia/Shanghai';

  it('week is the ISO week from Monday 00:00 local, last week the one before', () => {
    // Wednesday 2026-11-25 21:28 local.
    expect(range('week', '2026-11-25T13:28:00Z', zone)).toEqual({
      start: '2026-11-22T16:00:00.000Z',
      end: '2026-11-29T16:00:00.000Z',
      lastStart: '2026-11-15T16:00:00.000Z',
      days: '2026-11-23..2026-11-29',
    });
    // Sunday 23:59 local still belongs to the week begun on Monday; Monday 00:00 starts the next.
    expect(range('week', '2026-11-29T15:59:59Z', zone).start).toBe('2026-11-22T16:00:00.000Z');
    expect(range('week', '2026-11-29T16:00:00Z', zone).start).toBe('2026-11-29T16:00:00.000Z');
  });

  it('crosses the year boundary by local time, not UTC', () => {
    // 2027-01-01 00:30 local is still 2026 in UTC.
    const now = '2026-12-31T16:30:00Z';
    expect(range('year', now, zone)).toEqual({
      start: '2026-12-31T16:00:00.000Z',
      end: '2027-12-31T16:00:00.000Z',
      lastStart: '2025-12-31T16:00:00.000Z',
      days: '2027-01-01..2027-12-31',
    });
    expect(range('month', now, zone)).toEqual({
      start: '2026-12-31T16:00:00.000Z',
      end: '2027-01-31T16:00:00.000Z',
      lastStart: '2026-11-30T16:00:00.000Z',
      days: '2027-01-01..2027-01-31',
    });
    // The ISO week of Friday 2027-01-01 began on Monday 2026-12-28.
    expect(range('week', now, zone)).toEqual({
      start: '2026-12-27T16:00:00.000Z',
      end: '2027-01-03T16:00:00.000Z',
      lastStart: '2026-12-20T16:00:00.000Z',
      days: '2026-12-28..2027-01-03',
    });
  });

  it('month lengths: February of a leap year, last month of January is December', () => {
    expect(range('month', '2028-02-15T00:00:00Z', zone).days).toBe('2028-02-01..2028-02-29');
    expect(range('month', '2027-01-10T00:00:00Z', zone).lastStart).toBe('2026-11-30T16:00:00.000Z');
  });
});

describe('periodRange in America/New_York (DST)', () => {
  const zone = 'America/New_York';

  it('the week clocks go forward is 167 hours long (EST start, EDT end)', () => {
    const r = range('week', '2026-03-08T12:00:00Z', zone);
    expect(r).toEqual({
      start: '2026-03-02T05:00:00.000Z',
      end: '2026-03-09T04:00:00.000Z',
      lastStart: '2026-02-23T05:00:00.000Z',
      days: '2026-03-02..2026-03-08',
    });
    expect(at(r.end) - at(r.start)).toBe(167 * 3_600_000);
  });

  it('the week clocks go back is 169 hours long', () => {
    const r = range('week', '2026-11-01T12:00:00Z', zone);
    expect(r.start).toBe('2026-10-26T04:00:00.000Z');
    expect(r.end).toBe('2026-11-02T05:00:00.000Z');
    expect(at(r.end) - at(r.start)).toBe(169 * 3_600_000);
  });

  it('year and month boundaries are local midnight in EST', () => {
    expect(range('year', '2027-01-01T03:00:00Z', zone).start).toBe('2026-01-01T05:00:00.000Z'); // still 2026 locally
    expect(range('year', '2027-01-01T05:00:00Z', zone).start).toBe('2027-01-01T05:00:00.000Z');
    expect(range('month', '2026-11-15T12:00:00Z', zone)).toMatchObject({ start: '2026-11-01T04:00:00.000Z', end: '2026-12-01T05:00:00.000Z', lastStart: '2026-10-01T04:00:00.000Z' });
  });

  it('local hours across the change: 04:30 EDT on the change day is hour 4', () => {
    const days = daysBetween({ year: 2026, month: 3, day: 2 }, { year: 2026, month: 3, day: 8 });
    const starts = days.map((d) => instantOf(d, zone));
    expect(iso(starts[6]!)).toBe('2026-03-08T05:00:00.000Z');
    const hours = new LocalHours(starts, at('2026-03-09T04:00:00Z'), zone);
    expect(hours.hourOf(at('2026-03-08T08:30:00Z'))).toBe(4);
    expect(hours.hourOf(at('2026-03-08T06:59:00Z'))).toBe(1);
    expect(hours.hourOf(at('2026-03-08T07:00:00Z'))).toBe(3);
    expect(hours.hourOf(at('2026-03-05T15:10:00Z'))).toBe(10);
    expect(hours.hourOf(at('2026-03-09T03:59:00Z'))).toBe(23);
  });
});

describe('instantOf', () => {
  it('a midnight inside a DST gap starts the day when the gap ends (Santiago, 2026-09-06 00:00 → 01:00)', () => {
    expect(iso(instantOf({ year: 2026, month: 9, day: 6 }, 'America/Santiago'))).toBe('2026-09-06T04:00:00.000Z');
    expect(iso(instantOf({ year: 2026, month: 9, day: 7 }, 'America/Santiago'))).toBe('2026-09-07T03:00:00.000Z');
  });

  it('an hour that happens twice (clocks set back) is its first occurrence', () => {
    // New York 2026-11-01 01:00 happens at 05:00Z (EDT) and again at 06:00Z (EST).
    expect(iso(instantOf({ year: 2026, month: 11, day: 1 }, 'America/New_York', 1))).toBe('2026-11-01T05:00:00.000Z');
  });
});

describe('helpers', () => {
  it('growth is (this − last) / last, null without a base', () => {
    expect(growth(3, 2)).toBe(0.5);
    expect(growth(0, 4)).toBe(-1);
    expect(growth(1, 3)).toBe(-0.6667);
    expect(growth(5, 0)).toBeNull();
  });

  it('bucketOf finds the bucket by its start, -1 outside', () => {
    expect(bucketOf([10, 20, 30], 40, 9)).toBe(-1);
    expect(bucketOf([10, 20, 30], 40, 10)).toBe(0);
    expect(bucketOf([10, 20, 30], 40, 29)).toBe(1);
    expect(bucketOf([10, 20, 30], 40, 39)).toBe(2);
    expect(bucketOf([10, 20, 30], 40, 40)).toBe(-1);
  });

  it('addDays crosses months and leap days', () => {
    expect(addDays({ year: 2028, month: 2, day: 28 }, 1)).toEqual({ year: 2028, month: 2, day: 29 });
    expect(addDays({ year: 2026, month: 12, day: 31 }, 1)).toEqual({ year: 2027, month: 1, day: 1 });
  });

  it('the server follows the process zone (TZ)', () => {
    const module = fileURLToPath(new URL('./periods.ts', import.meta.url));
    const script = `import('${module}').then((m) => { const r = m.periodRange('week', Date.parse('2026-11-25T13:28:00Z'), m.processTimeZone()); console.log(m.processTimeZone(), new Date(r.start).toISOString()); })`;
    const run = (tz: string) => execFileSync(process.execPath, ['-e', script], { env: { ...process.env, TZ: tz }, encoding: 'utf8' }).trim();
    expect(run('Asia/Shanghai')).toBe('Asia/Shanghai 2026-11-22T16:00:00.000Z');
    expect(run('America/New_York')).toBe('America/New_York 2026-11-23T05:00:00.000Z');
  });
});
