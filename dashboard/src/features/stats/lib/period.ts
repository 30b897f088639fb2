import { PERIODS, type Period } from '../api/types.ts';

/** The /record tabs (spec doc 2 §2 "Record screen"): Last.week, Last.month, Last.year. */
export const PERIOD_TABS: { id: Period; title: string }[] = [
  { id: 'week', title: 'Last.week' },
  { id: 'month', title: 'Last.month' },
  { id: 'year', title: 'Last.year' },
];

/** The period in the address (`?period=month`), week when absent or unknown. */
export function periodFromSearch(search: string): Period {
  const p = new URLSearchParams(search).get('period');
  return (PERIODS as readonly string[]).includes(p ?? '') ? (p as Period) : 'week';
}
