/**
 * The statistics API's shapes (spec doc 2 §3 "Music count summary" … "Listening stats"; §7 Statistics), written
 * out here because the dashboard may not import server packages. Snake case as the wire carries it.
 */

/** week | month | year: this calendar week (from Monday), month or year in the server's time zone (§4 Period). */
export type Period = 'week' | 'month' | 'year';
export const PERIODS: readonly Period[] = ['week', 'month', 'year'];

/** getMusicCount: the library's totals with their month-over-month changes and 12 months of trends. */
export interface MusicCount {
  track_count: number;
  /** Growth of the track count since this month's start, a fraction (0.25 = +25 %); null when there was none. */
  track_mom: number | null;
  /** Tracks first seen this month. */
  track_diff?: number;
  /** Library size, already formatted by the server ("12.3 GB"), and in bytes. */
  song_size: string;
  song_size_raw?: number;
  /** Scrape completeness: the fraction (0..1) of tracks missing nothing. */
  finished_rate: number;
  active_tasks_count: number;
  album_count: number;
  /** Albums added this month (the count minus last month's). */
  album_diff: number;
  album_mom: number | null;
  artist_count: number;
  artist_diff: number;
  artist_mom: number | null;
  /** Total duration, 'H:MM:SS' with unbounded hours. */
  song_duration: string;
  /** Total duration in seconds. */
  song_duration_raw: number;
  trends: { x_axis: string[]; track: number[]; album: number[]; artist: number[] };
}

/** An entry of the listening record: what was played and how often. */
export interface ListeningEntry {
  /** albumId: a track's album, when the server gives it (the entry links there). */
  record: { id: string; name: string; artist?: string; coverArt: string | null; albumId?: string };
  count: number;
}

export interface ListeningRecord {
  track_list: ListeningEntry[];
  album_list: ListeningEntry[];
  artist_list: ListeningEntry[];
}

/** getProgressStatic: how many tracks miss each field. */
export interface ProgressStatic {
  miss_lyrics_count: number;
  miss_cover_count: number;
  miss_album_count: number;
  miss_artist_count: number;
  miss_genre_count: number;
  miss_year_count: number;
}

/** The /progress sections, in the spec's order. */
export type MissKind = 'lyrics' | 'cover' | 'album' | 'artist' | 'genre' | 'year';
export const MISS_KINDS: readonly MissKind[] = ['lyrics', 'cover', 'album', 'artist', 'genre', 'year'];

/** A track missing something (§3 "Missing item"). */
export interface MissingItem {
  id: string;
  name: string;
  artist_name: string;
  album_name: string;
  year: number | null;
  genre: string | null;
  /** Has embedded lyrics or an .lrc beside it. */
  lyrics: boolean;
  /** The cover's id for getCoverArt, null without a cover. */
  album_cover: string | null;
  /** Absolute file path. */
  path: string;
  /** The track's album id, when the server gives it (the action column's fallback link). */
  album_id?: string;
}

export interface MissingPage {
  /** Empty for a page beyond the last. */
  items: MissingItem[];
  /** 0 when nothing is missing. */
  total_page: number;
  count: number;
}

/** A ranked entry of the best-music lists: [name, plays, coverArt id]. */
export type RankedEntry = [string, number, string | null];

export interface BestOf {
  /** Distinct items played in the period. */
  count: number;
  /** Growth of `count` against the last period, a fraction; null when the last had none. */
  rate: number | null;
  /** The item played most recently in the period. */
  newest: RankedEntry | null;
  /** The top 10 by plays. */
  list: RankedEntry[];
}

export interface PerfectMusic {
  artist_record: BestOf;
  album_record: BestOf;
  track_record: BestOf;
}

/** "week" in the names means the period (week, month or year). */
export interface WeekRecord {
  /** 'YYYY-MM-DD ~ YYYY-MM-DD'. */
  date_range: string;
  this_week_total: number;
  last_week_total: number;
  week_rate: number | null;
  /** The spec's own spelling: one of a fixed set of Chinese remarks on the period (an i18n key). */
  jocker: string;
  /** Every day of the period, oldest first. */
  record: { date: string; count: number }[];
}

export interface HotGenres {
  /** Up to 5, most played first. */
  genres: string[];
  /** Days 'YYYY-MM-DD' (week, month) or months 'YYYY-MM' (year). */
  date_list: string[];
  daily_genres: Record<string, number[]>;
}

export interface HotDecades {
  /** '1990s'…, most played first. */
  decades: string[];
  date_list?: string[];
  daily_decades: Record<string, number[]>;
}

/** Plays per Subsonic client (`c`), most first; no client is named 未知. */
export type PlatformStats = { name: string; value: number }[];

/** `last_week` is the last period's figure; growth rates are fractions, null when the last period had none. */
export interface ListeningStats {
  duration: { total_seconds: number; formatted: string; last_week: number; growth_rate: number | null };
  average: { count: number; last_week: number; growth_rate: number | null };
  most_active: { count: number; date: string | null; last_week: number; growth_rate: number | null };
}

export interface ListeningClock {
  listening_count: number;
  hours: number[];
}

/** What the task routes answer (missing_music_task, rule_tag, batch_auto_update_artist). */
export interface TaskCreated {
  task_id?: string;
  total?: number;
}
