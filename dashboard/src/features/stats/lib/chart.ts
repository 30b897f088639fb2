/**
 * What the statistics charts draw, as plain data: category labels along x (months, dates, hours) and one named
 * series of numbers per line or bar set. The uPlot wrapper draws it; the tests check it without a canvas.
 */
import { CLOCK_HOURS } from './constants.ts';
import type { HotDecades, HotGenres, ListeningClock, MusicCount } from '../api/types.ts';

export interface ChartSeries {
  /** An i18n key or a name from the data (a genre), shown in the legend. */
  label: string;
  values: number[];
}

export interface ChartModel {
  labels: string[];
  series: ChartSeries[];
}

/** A value the server left out or sent as text counts as 0, so every series is as long as the labels. */
const fit = (values: unknown, length: number): number[] =>
  Array.from({ length }, (_, i) => {
    const v = Array.isArray(values) ? Number(values[i]) : 0;
    return Number.isFinite(v) ? v : 0;
  });

/** The home dashboard's monthly trend: tracks, albums and artists over trends.x_axis. */
export function trendChart(trends: MusicCount['trends'] | null | undefined): ChartModel {
  const labels = trends?.x_axis ?? [];
  return {
    labels,
    series: [
      { label: '歌曲', values: fit(trends?.track, labels.length) },
      { label: '专辑', values: fit(trends?.album, labels.length) },
      { label: '艺术家', values: fit(trends?.artist, labels.length) },
    ],
  };
}

/** Hot genres: one line per genre over date_list, in the server's order (hottest first). */
export function genresChart(data: HotGenres | null | undefined): ChartModel {
  const labels = data?.date_list ?? [];
  return { labels, series: (data?.genres ?? []).map((g) => ({ label: g, values: fit(data?.daily_genres?.[g], labels.length) })) };
}

/** Hot decades as totals over the period, one bar per decade (their daily values summed). */
export function decadeTotals(data: HotDecades | null | undefined): { name: string; value: number }[] {
  return (data?.decades ?? []).map((d) => {
    const daily = data?.daily_decades?.[d];
    return { name: d, value: Array.isArray(daily) ? fit(daily, daily.length).reduce((a, b) => a + b, 0) : 0 };
  });
}

/** The 24-hour listening clock: hours "0".."23" and the plays started in each. */
export function clockChart(data: ListeningClock | null | undefined): ChartModel {
  const labels = Array.from({ length: CLOCK_HOURS }, (_, h) => String(h));
  return { labels, series: [{ label: '播放次数', values: fit(data?.hours, CLOCK_HOURS) }] };
}

/** The share of each value in the largest one (0..100), for the bar lists (platforms, decades). */
export function shares(rows: { name: string; value: number }[]): { name: string; value: number; share: number }[] {
  const max = Math.max(0, ...rows.map((r) => r.value));
  return rows.map((r) => ({ ...r, share: max > 0 ? Math.round((r.value / max) * 1000) / 10 : 0 }));
}
