/**
 * Calendar periods in a named time zone, as instants (ms since the epoch), for the listening statistics.
 *
 * Definitions (binding for every statistics route):
 * - week  = the ISO week: from Monday 00:00 local time to the next Monday 00:00;
 * - month = the calendar month, from the 1st 00:00 local; year = the calendar year, from 1 January 00:00 local;
 * - "last" = the previous period of the same kind (last week, last month, last year), whole;
 * - growth = (this − last) / last, a fraction (0.25 = +25 %), null when last is 0.
 *
 * Local days are not 24 h long across daylight-saving changes, so nothing here adds milliseconds to move
 * between days: civil dates are stepped with UTC date arithmetic and each one is turned into its own first
 * instant through the zone's offset (Intl). A day whose midnight falls in a DST gap starts when the gap ends.
 */

export type Period = 'week' | 'month' | 'year';
export const PERIODS: readonly Period[] = ['week', 'month', 'year'];

/** A civil (wall-calendar) date; month 1–12. */
export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

export interface PeriodRange {
  /** First instant of this period. */
  start: number;
  /** First instant of the next period (exclusive end). */
  end: number;
  /** First instant of the previous period of the same kind (it ends at `start`). */
  lastStart: number;
  /** First and last civil day of this period. */
  firstDay: CivilDate;
  lastDay: CivilDate;
}

const HOUR = 3_600_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The process's zone (the TZ environment variable, else the system's), which the server's statistics use. */
export function processTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Wall-clock fields of an instant in a zone. */
export function wallTime(t: number, zone: string): CivilDate & { hour: number; minute: number; second: number } {
  const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const p of formatter(zone).formatToParts(t)) {
    if (p.type in out) out[p.type as keyof typeof out] = Number(p.value);
  }
  return out;
}

/** The zone's offset from UTC at an instant, in ms (Shanghai: +8 h). */
export function offsetAt(t: number, zone: string): number {
  const w = wallTime(t, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - (t - (((t % 1000) + 1000) % 1000));
}

/**
 * The first instant at which the zone's clocks read `hour`:00 on that civil date. Ambiguous (a clock set back)
 * → the earlier instant; inside a gap (a clock set forward) → the end of the gap.
 */
export function instantOf(date: CivilDate, zone: string, hour = 0): number {
  const utc = Date.UTC(date.year, date.month - 1, date.day, hour);
  // Offsets a day before and after: on a change day they are the old and the new one (changes are months apart).
  const candidates = [...new Set([utc - offsetAt(utc - 86_400_000, zone), utc - offsetAt(utc + 86_400_000, zone), utc - offsetAt(utc, zone)])];
  const reads = (t: number) => {
    const w = wallTime(t, zone);
    return w.year === date.year && w.month === date.month && w.day === date.day && w.hour === hour && w.minute === 0 && w.second === 0;
  };
  const exact = candidates.filter(reads);
  return exact.length > 0 ? Math.min(...exact) : Math.max(...candidates);
}

/** Civil date arithmetic (no zone involved). */
export function addDays(d: CivilDate, days: number): CivilDate {
  const u = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: u.getUTCFullYear(), month: u.getUTCMonth() + 1, day: u.getUTCDate() };
}

export function addMonths(d: CivilDate, months: number): CivilDate {
  const u = new Date(Date.UTC(d.year, d.month - 1 + months, 1));
  return { year: u.getUTCFullYear(), month: u.getUTCMonth() + 1, day: 1 };
}

/** 0 = Monday … 6 = Sunday. */
function isoWeekday(d: CivilDate): number {
  return (new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay() + 6) % 7;
}

export function civilDateOf(t: number, zone: string): CivilDate {
  const w = wallTime(t, zone);
  return { year: w.year, month: w.month, day: w.day };
}

/** First civil day of the period containing `day`, and the first day of the next and of the previous one. */
function periodDays(period: Period, day: CivilDate): { first: CivilDate; next: CivilDate; previous: CivilDate } {
  if (period === 'week') {
    const first = addDays(day, -isoWeekday(day));
    return { first, next: addDays(first, 7), previous: addDays(first, -7) };
  }
  if (period === 'month') {
    const first = { year: day.year, month: day.month, day: 1 };
    return { first, next: addMonths(first, 1), previous: addMonths(first, -1) };
  }
  const first = { year: day.year, month: 1, day: 1 };
  return { first, next: { year: day.year + 1, month: 1, day: 1 }, previous: { year: day.year - 1, month: 1, day: 1 } };
}

/** This period (the one containing `now`) and where the last one starts, in `zone`. */
export function periodRange(period: Period, now: number, zone: string): PeriodRange {
  const { first, next, previous } = periodDays(period, civilDateOf(now, zone));
  return {
    start: instantOf(first, zone),
    end: instantOf(next, zone),
    lastStart: instantOf(previous, zone),
    firstDay: first,
    lastDay: addDays(next, -1),
  };
}

/** Every civil day from `first` to `last` inclusive. */
export function daysBetween(first: CivilDate, last: CivilDate): CivilDate[] {
  const out: CivilDate[] = [];
  const end = Date.UTC(last.year, last.month - 1, last.day);
  for (let d = first; Date.UTC(d.year, d.month - 1, d.day) <= end; d = addDays(d, 1)) out.push(d);
  return out;
}

export const isoDate = (d: CivilDate): string => `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
export const isoMonth = (d: CivilDate): string => `${d.year}-${String(d.month).padStart(2, '0')}`;

/** (this − last) / last rounded to 4 decimals; null when last is 0 (no base to compare with). */
export function growth(current: number, last: number): number | null {
  if (last === 0) return null;
  return Math.round(((current - last) / last) * 10_000) / 10_000;
}

/**
 * Index of the bucket holding `t` among ascending bucket starts (the last bucket ends at `end`); -1 outside.
 * Binary search: a year of days is 366 buckets and 50 000 plays.
 */
export function bucketOf(starts: readonly number[], end: number, t: number): number {
  if (starts.length === 0 || t < starts[0]! || t >= end) return -1;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The local hour (0–23) of instants inside known days. Inside a day without an offset change, the hour is the
 * time since the day's start in whole hours (no Intl call per play); on a DST day it asks the zone.
 */
export class LocalHours {
  private readonly dayStarts: readonly number[];
  private readonly end: number;
  private readonly zone: string;
  private readonly steady: boolean[];

  constructor(dayStarts: readonly number[], end: number, zone: string) {
    this.dayStarts = dayStarts;
    this.end = end;
    this.zone = zone;
    this.steady = dayStarts.map((s, i) => offsetAt(s, zone) === offsetAt((dayStarts[i + 1] ?? end) - 1, zone));
  }

  hourOf(t: number): number {
    const i = bucketOf(this.dayStarts, this.end, t);
    if (i >= 0 && this.steady[i]) return Math.floor((t - this.dayStarts[i]!) / HOUR);
    return wallTime(t, this.zone).hour;
  }
}
