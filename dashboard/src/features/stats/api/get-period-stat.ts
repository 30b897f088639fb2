import { apiCall } from '../../../lib/api-client.ts';
import { QUERY_FAILED } from './query-notice.ts';
import type { HotDecades, HotGenres, ListeningClock, ListeningStats, PerfectMusic, Period, PlatformStats, WeekRecord } from './types.ts';

/**
 * The /record statistics, each `GET /apimt/<route>/?period=` (spec doc 2 §7: WeekRecord, getPerfectMusic,
 * getHotGenres, getHotDecades, getPlatformStats, getListeningStats, getListeningClock each take {period}).
 * One table instead of seven identical files: the calls differ only by route and answer.
 */
export interface PeriodStats {
  week_record: WeekRecord;
  perfect_music: PerfectMusic;
  hot_genres: HotGenres;
  hot_decades: HotDecades;
  platform_stats: PlatformStats;
  listening_stats: ListeningStats;
  listening_clock: ListeningClock;
}

export type PeriodStat = keyof PeriodStats;

export async function getPeriodStat<K extends PeriodStat>(route: K, period: Period, signal?: AbortSignal): Promise<PeriodStats[K]> {
  return (await apiCall<PeriodStats[K]>(`/apimt/${route}/`, { query: { period }, signal, onError: QUERY_FAILED })).data;
}
