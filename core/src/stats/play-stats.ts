/**
 * Listening statistics of one user from the play log (Subsonic scrobbles with submission=true): the all-time
 * listening record and, per period (see periods.ts for the definitions of week/month/year, "last" and growth),
 * the /record screen's week record, best music, hot genres and decades, platforms, listening stats and clock.
 *
 * The plays come from the user's in-memory copy of the play log (play-cache.ts: one small indexed read of the
 * plays added since the last request), not from a store aggregation per request: grouping by local day and hour
 * needs the zone's DST rules, which the embedded store's mingo lacks (fixed offsets only), and decoding a year's
 * plays per request cost about a second for 50 000 of them (bench/ui/stats-api.ts). Concurrent requests for
 * the same user and period (the /record screen asks for seven statistics at once) share one pass.
 * Names, covers and years come from the catalogue as it is now: plays of tracks deleted since are counted in
 * totals, clock, platforms and genres (the log carries those) but not in rankings or decades.
 */
import type { Annotations } from '../library/annotations.ts';
import type { Catalog } from '../library/catalog.ts';
import type { LibraryStore } from '../library/library-store.ts';
import type { ItemType } from '../library/model.ts';
import { formatHms } from './catalog-stats.ts';
import { PlayCache, type Play } from './play-cache.ts';
import {
  addDays,
  addMonths,
  bucketOf,
  civilDateOf,
  daysBetween,
  growth,
  instantOf,
  isoDate,
  isoMonth,
  LocalHours,
  periodRange,
  type CivilDate,
  type Period,
  type PeriodRange,
} from './periods.ts';

export const LISTENING_RECORD_SIZE = 8;
export const LISTENING_RECORD_MAX = 50;
/** How many entries perfect_music ranks, and how many genres hot_genres follows. */
export const BEST_LIST_SIZE = 10;
export const HOT_GENRES = 5;
/** platform_stats' name for plays without a client (Subsonic `c` absent). */
export const UNKNOWN_CLIENT = '未知';

/**
 * week_record's remark: a fixed set, so the dashboard translates it like any other text.
 */
export const WEEK_REMARKS = {
  none: '还没有听歌记录，去听听音乐吧',
  first: '开始记录你的听歌时光吧',
  more: '比上一期听得更多，继续保持！',
  same: '和上一期听得一样多',
  less: '比上一期听得少了，记得多听听音乐哦',
} as const;

interface Days {
  days: CivilDate[];
  starts: number[];
  end: number;
}

/** One user's plays of this and the last period, with the day grid of both. */
export interface PeriodPlays {
  period: Period;
  now: number;
  zone: string;
  range: PeriodRange;
  current: Play[];
  last: Play[];
  days: Days;
  lastDays: Days;
  /** The buckets of hot_genres/hot_decades: the days, or the months of a year. */
  buckets: { labels: string[]; starts: number[] };
  clock: LocalHours;
}

/** The day grids of a period and the one before, its buckets and clock: the zone's rules asked once per period. */
type Calendar = Pick<PeriodPlays, 'days' | 'lastDays' | 'buckets' | 'clock'>;
const MAX_CALENDARS = 16;

export type Ranked = [string, number, string];
export interface BestOf {
  count: number;
  rate: number | null;
  newest: Ranked | null;
  list: Ranked[];
}

export interface ListeningEntry {
  record: { id: string; name: string; artist?: string; coverArt: string };
  count: number;
}

const dayGrid = (first: CivilDate, last: CivilDate, end: number, zone: string): Days => {
  const days = daysBetween(first, last);
  return { days, starts: days.map((d) => instantOf(d, zone)), end };
};

const round2 = (n: number) => Math.round(n * 100) / 100;

export class ListeningStatistics {
  private readonly catalog: Catalog;
  private readonly annotations: Annotations;
  private readonly inFlight = new Map<string, Promise<PeriodPlays>>();
  private readonly calendars = new Map<string, Calendar>();
  private readonly cache: PlayCache;

  constructor(deps: { library: LibraryStore; catalog: Catalog; annotations: Annotations }) {
    this.catalog = deps.catalog;
    this.annotations = deps.annotations;
    this.cache = new PlayCache(deps.library.playLog);
  }

  /** This and the last period's plays of a user (concurrent identical requests share one read). */
  periodPlays(userId: string, period: Period, now: number, zone: string): Promise<PeriodPlays> {
    const range = periodRange(period, now, zone);
    const key = `${userId}\u0000${period}\u0000${zone}\u0000${range.start}`;
    let p = this.inFlight.get(key);
    if (!p) {
      p = this.readPlays(userId, period, now, zone, range).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, p);
    }
    return p;
  }

  private async readPlays(userId: string, period: Period, now: number, zone: string, range: PeriodRange): Promise<PeriodPlays> {
    const [all] = await Promise.all([this.cache.plays(userId), this.catalog.sync()]);
    const current: Play[] = [];
    const last: Play[] = [];
    for (const play of all) {
      const t = play.playedAt.getTime();
      if (t >= range.start && t < range.end) current.push(play);
      else if (t >= range.lastStart && t < range.start) last.push(play);
    }
    return { period, now, zone, range, current, last, ...this.calendar(period, zone, range) };
  }

  /** Building a year's grids asks the zone ~4 000 times (Intl), ~20 ms: they are kept per period. */
  private calendar(period: Period, zone: string, range: PeriodRange): Calendar {
    const key = `${period}\u0000${zone}\u0000${range.start}`;
    let c = this.calendars.get(key);
    if (c) return c;
    const days = dayGrid(range.firstDay, range.lastDay, range.end, zone);
    let buckets = { labels: days.days.map(isoDate), starts: days.starts };
    if (period === 'year') {
      const months = Array.from({ length: 12 }, (_, i) => addMonths(range.firstDay, i));
      buckets = { labels: months.map(isoMonth), starts: months.map((m) => instantOf(m, zone)) };
    }
    c = {
      days,
      lastDays: dayGrid(civilDateOf(range.lastStart, zone), addDays(range.firstDay, -1), range.start, zone),
      buckets,
      clock: new LocalHours(days.starts, range.end, zone),
    };
    if (this.calendars.size >= MAX_CALENDARS) this.calendars.delete(this.calendars.keys().next().value!);
    this.calendars.set(key, c);
    return c;
  }

  /** The user's all-time most played tracks, albums and artists (play counts of the annotations). */
  async listeningRecord(userId: string, size: number): Promise<{ track_list: ListeningEntry[]; album_list: ListeningEntry[]; artist_list: ListeningEntry[] }> {
    await this.catalog.sync();
    const [track_list, album_list, artist_list] = await Promise.all([
      this.mostPlayed(userId, 'track', size),
      this.mostPlayed(userId, 'album', size),
      this.mostPlayed(userId, 'artist', size),
    ]);
    return { track_list, album_list, artist_list };
  }

  /** Skips items no longer in the catalogue, reading further pages until `size` are found. */
  private async mostPlayed(userId: string, type: ItemType, size: number): Promise<ListeningEntry[]> {
    const out: ListeningEntry[] = [];
    for (let skip = 0; out.length < size; ) {
      const docs = await this.annotations.ordered(userId, type, 'playCount', skip, size);
      for (const d of docs) {
        const record = recordOf(this.catalog, type, d.itemId);
        if (record && out.length < size) out.push({ record, count: d.playCount });
      }
      if (docs.length < size) break;
      skip += docs.length;
    }
    return out;
  }

  // ---- the /record statistics of a period

  weekRecord(p: PeriodPlays): { date_range: string; this_week_total: number; last_week_total: number; week_rate: number | null; jocker: string; record: Array<{ date: string; count: number }> } {
    const perDay = countPerBucket(p.current, p.days.starts, p.days.end);
    const now = p.current.length;
    const last = p.last.length;
    const jocker = now === 0 && last === 0 ? WEEK_REMARKS.none : last === 0 ? WEEK_REMARKS.first : now > last ? WEEK_REMARKS.more : now === last ? WEEK_REMARKS.same : WEEK_REMARKS.less;
    return {
      date_range: `${isoDate(p.range.firstDay)} ~ ${isoDate(p.range.lastDay)}`,
      this_week_total: now,
      last_week_total: last,
      week_rate: growth(now, last),
      jocker,
      record: p.days.days.map((d, i) => ({ date: isoDate(d), count: perDay[i]! })),
    };
  }

  perfectMusic(p: PeriodPlays): { artist_record: BestOf; album_record: BestOf; track_record: BestOf } {
    return {
      artist_record: this.best(p, 'artist', (play) => play.artistIds),
      album_record: this.best(p, 'album', (play) => [play.albumId]),
      track_record: this.best(p, 'track', (play) => [play.trackId]),
    };
  }

  private best(p: PeriodPlays, type: ItemType, idsOf: (play: Play) => string[]): BestOf {
    const current = new Map<string, { id: string; plays: number; lastAt: number }>();
    for (const play of p.current) {
      const at = play.playedAt.getTime();
      for (const id of idsOf(play)) {
        const e = current.get(id);
        if (!e) current.set(id, { id, plays: 1, lastAt: at });
        else {
          e.plays++;
          if (at > e.lastAt) e.lastAt = at;
        }
      }
    }
    const lastIds = new Set<string>();
    for (const play of p.last) for (const id of idsOf(play)) lastIds.add(id);
    // Names only for what is shown: a year holds thousands of distinct tracks.
    const row = (e: { id: string; plays: number }): Ranked | null => {
      const r = recordOf(this.catalog, type, e.id);
      return r ? [r.name, e.plays, r.coverArt] : null;
    };
    const entries = [...current.values()];
    entries.sort((a, b) => b.plays - a.plays || b.lastAt - a.lastAt || (a.id < b.id ? -1 : 1));
    const list: Ranked[] = [];
    for (const e of entries) {
      if (list.length === BEST_LIST_SIZE) break;
      const r = row(e);
      if (r) list.push(r);
    }
    let newest: Ranked | null = null;
    let newestAt = -Infinity;
    for (const e of entries) {
      if (e.lastAt <= newestAt) continue;
      const r = row(e);
      if (r) [newest, newestAt] = [r, e.lastAt];
    }
    return { count: current.size, rate: growth(current.size, lastIds.size), newest, list };
  }

  hotGenres(p: PeriodPlays): { genres: string[]; date_list: string[]; daily_genres: Record<string, number[]> } {
    const { labels, series } = this.seriesBy(p, (play) => play.genres);
    const genres = [...series.entries()]
      .sort((a, b) => sum(b[1]) - sum(a[1]) || (a[0] < b[0] ? -1 : 1))
      .slice(0, HOT_GENRES)
      .map(([g]) => g);
    return { genres, date_list: labels, daily_genres: Object.fromEntries(genres.map((g) => [g, series.get(g)!])) };
  }

  hotDecades(p: PeriodPlays): { decades: string[]; date_list: string[]; daily_decades: Record<string, number[]> } {
    const { labels, series } = this.seriesBy(p, (play) => {
      const year = this.catalog.tracks.get(play.trackId)?.year;
      return typeof year === 'number' && year > 0 ? [`${Math.floor(year / 10) * 10}s`] : [];
    });
    const decades = [...series.entries()].sort((a, b) => sum(b[1]) - sum(a[1]) || (a[0] < b[0] ? -1 : 1)).map(([d]) => d);
    return { decades, date_list: labels, daily_decades: Object.fromEntries(decades.map((d) => [d, series.get(d)!])) };
  }

  /** Plays per key per bucket: days of a week or month, months of a year. */
  private seriesBy(p: PeriodPlays, keysOf: (play: Play) => string[]): { labels: string[]; series: Map<string, number[]> } {
    const { labels, starts } = p.buckets;
    const series = new Map<string, number[]>();
    for (const play of p.current) {
      const i = bucketOf(starts, p.range.end, play.playedAt.getTime());
      if (i < 0) continue;
      for (const key of new Set(keysOf(play))) {
        let s = series.get(key);
        if (!s) series.set(key, (s = new Array<number>(labels.length).fill(0)));
        s[i]!++;
      }
    }
    return { labels, series };
  }

  platformStats(p: PeriodPlays): Array<{ name: string; value: number }> {
    const m = new Map<string, number>();
    for (const play of p.current) {
      const name = play.client || UNKNOWN_CLIENT;
      m.set(name, (m.get(name) ?? 0) + 1);
    }
    return [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name, value]) => ({ name, value }));
  }

  listeningStats(p: PeriodPlays): {
    duration: { total_seconds: number; formatted: string; last_week: number; growth_rate: number | null };
    average: { count: number; last_week: number; growth_rate: number | null };
    most_active: { count: number; date: string | null; last_week: number; growth_rate: number | null };
  } {
    const seconds = Math.round(p.current.reduce((s, x) => s + x.duration, 0));
    const lastSeconds = Math.round(p.last.reduce((s, x) => s + x.duration, 0));
    // Days of this period so far (today included): the average of a week on Tuesday is over two days.
    const daysSoFar = Math.max(1, p.days.starts.filter((s) => s <= p.now).length);
    const average = round2(p.current.length / daysSoFar);
    const lastAverage = round2(p.last.length / p.lastDays.days.length);
    const perDay = countPerBucket(p.current, p.days.starts, p.days.end);
    const lastPerDay = countPerBucket(p.last, p.lastDays.starts, p.lastDays.end);
    const most = Math.max(0, ...perDay);
    const lastMost = Math.max(0, ...lastPerDay);
    return {
      duration: { total_seconds: seconds, formatted: formatHms(seconds), last_week: lastSeconds, growth_rate: growth(seconds, lastSeconds) },
      average: { count: average, last_week: lastAverage, growth_rate: growth(average, lastAverage) },
      most_active: { count: most, date: most === 0 ? null : isoDate(p.days.days[perDay.indexOf(most)]!), last_week: lastMost, growth_rate: growth(most, lastMost) },
    };
  }

  listeningClock(p: PeriodPlays): { listening_count: number; hours: number[] } {
    const hours = new Array<number>(24).fill(0);
    for (const play of p.current) hours[p.clock.hourOf(play.playedAt.getTime())]!++;
    return { listening_count: p.current.length, hours };
  }
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function countPerBucket(plays: readonly Play[], starts: readonly number[], end: number): number[] {
  const out = new Array<number>(starts.length).fill(0);
  for (const play of plays) {
    const i = bucketOf(starts, end, play.playedAt.getTime());
    if (i >= 0) out[i]!++;
  }
  return out;
}

/** Name, artist and cover id (as Subsonic lists give them) of a catalogue item; null when it is gone. */
function recordOf(catalog: Catalog, type: ItemType, id: string): ListeningEntry['record'] | null {
  if (type === 'track') {
    const t = catalog.tracks.get(id);
    return t ? { id, name: t.title, artist: t.artist, coverArt: t.hasArt ? t._id : t.albumId } : null;
  }
  if (type === 'album') {
    const a = catalog.albums.get(id);
    return a ? { id, name: a.name, artist: a.artist, coverArt: a._id } : null;
  }
  const a = catalog.artists.get(id);
  return a ? { id, name: a.name, coverArt: a._id } : null;
}
