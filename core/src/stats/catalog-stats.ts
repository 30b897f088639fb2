/**
 * Statistics of the catalogue itself (no plays): the home dashboard's totals with their month-over-month
 * change and 12 months of additions (getMusicCount), and the scrape-completeness counts and pages of
 * /progress (getProgressStatic, getProgressRate). Read from the in-memory catalogue, which already holds
 * every track, album and artist (a 10k-track pass is about a millisecond; the store would decode each).
 *
 * "Added in a month" = first seen by the scanner (`createdAt`) in that local calendar month. The count at
 * this month's start is that of the items now present first seen before it (items deleted since are not
 * known), so `*_mom` = this month's additions ÷ that count, null when it is 0.
 */
import type { Catalog } from '../library/catalog.ts';
import type { TrackDoc } from '../library/model.ts';
import { addMonths, civilDateOf, growth, instantOf, isoMonth, bucketOf, type CivilDate } from './periods.ts';

export type MissKind = 'lyrics' | 'cover' | 'album' | 'artist' | 'genre' | 'year';
export const MISS_KINDS: readonly MissKind[] = ['lyrics', 'cover', 'album', 'artist', 'genre', 'year'];
export const PROGRESS_PAGE_SIZES = [10, 20, 50] as const;
export const TREND_MONTHS = 12;

/** What a track misses, per /progress section: lyrics and cover count sidecars and folder images too. */
export const MISSES: Record<MissKind, (t: TrackDoc) => boolean> = {
  lyrics: (t) => !t.hasLyrics && t.lrcPath === null,
  cover: (t) => !t.hasArt && t.folderCover === null,
  album: (t) => t.missing.includes('album'),
  artist: (t) => t.missing.includes('artist'),
  genre: (t) => t.missing.includes('genre'),
  year: (t) => t.missing.includes('year'),
};

export interface MusicCount {
  track_count: number;
  track_diff: number;
  track_mom: number | null;
  song_size: string;
  song_size_raw: number;
  finished_rate: number;
  active_tasks_count: number;
  album_count: number;
  album_diff: number;
  album_mom: number | null;
  artist_count: number;
  artist_diff: number;
  artist_mom: number | null;
  song_duration: string;
  song_duration_raw: number;
  trends: { x_axis: string[]; track: number[]; album: number[]; artist: number[] };
}

export interface MissingItem {
  id: string;
  name: string;
  artist_name: string;
  album_name: string;
  year: number | null;
  genre: string | null;
  lyrics: boolean;
  album_cover: string | null;
  path: string;
}

export interface MissingPage {
  items: MissingItem[];
  total_page: number;
  count: number;
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** '12.3 GB': 1024-based, one decimal (bytes whole). */
export function formatBytes(bytes: number): string {
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v} B` : `${v.toFixed(1)} ${UNITS[u]}`;
}

/** 'H:MM:SS' with unbounded hours: language neutral, the dashboard shows it as is. */
export function formatHms(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Per item: additions per trend month and how many existed before this month. */
function additions(dates: Iterable<Date>, monthStarts: readonly number[], end: number): { perMonth: number[]; before: number; total: number } {
  const perMonth = new Array<number>(monthStarts.length).fill(0);
  const thisMonth = monthStarts[monthStarts.length - 1]!;
  let before = 0;
  let total = 0;
  for (const d of dates) {
    const t = d.getTime();
    total++;
    if (t < thisMonth) before++;
    const i = bucketOf(monthStarts, end, t);
    if (i >= 0) perMonth[i]!++;
  }
  return { perMonth, before, total };
}

export function musicCount(catalog: Catalog, input: { now: number; zone: string; activeTasks: number }): MusicCount {
  const today = civilDateOf(input.now, input.zone);
  const thisMonth: CivilDate = { year: today.year, month: today.month, day: 1 };
  const months = Array.from({ length: TREND_MONTHS }, (_, i) => addMonths(thisMonth, i - (TREND_MONTHS - 1)));
  const starts = months.map((m) => instantOf(m, input.zone));
  const end = instantOf(addMonths(thisMonth, 1), input.zone);
  let size = 0;
  let duration = 0;
  let complete = 0;
  const trackDates: Date[] = [];
  for (const t of catalog.tracks.values()) {
    size += t.size;
    duration += t.duration;
    trackDates.push(t.createdAt);
    if (!MISS_KINDS.some((k) => MISSES[k](t))) complete++;
  }
  const tracks = additions(trackDates, starts, end);
  const albums = additions([...catalog.albums.values()].map((a) => a.createdAt), starts, end);
  const artists = additions([...catalog.artists.values()].map((a) => a.createdAt), starts, end);
  const diff = (x: { total: number; before: number }) => x.total - x.before;
  return {
    track_count: tracks.total,
    track_diff: diff(tracks),
    track_mom: growth(tracks.total, tracks.before),
    song_size: formatBytes(size),
    song_size_raw: size,
    finished_rate: tracks.total === 0 ? 0 : Math.round((complete / tracks.total) * 10_000) / 10_000,
    active_tasks_count: input.activeTasks,
    album_count: albums.total,
    album_diff: diff(albums),
    album_mom: growth(albums.total, albums.before),
    artist_count: artists.total,
    artist_diff: diff(artists),
    artist_mom: growth(artists.total, artists.before),
    song_duration: formatHms(duration),
    song_duration_raw: Math.round(duration),
    trends: { x_axis: months.map(isoMonth), track: tracks.perMonth, album: albums.perMonth, artist: artists.perMonth },
  };
}

export function progressStatic(catalog: Catalog): Record<`miss_${MissKind}_count`, number> {
  const counts = { lyrics: 0, cover: 0, album: 0, artist: 0, genre: 0, year: 0 };
  for (const t of catalog.tracks.values()) for (const k of MISS_KINDS) if (MISSES[k](t)) counts[k]++;
  return {
    miss_lyrics_count: counts.lyrics,
    miss_cover_count: counts.cover,
    miss_album_count: counts.album,
    miss_artist_count: counts.artist,
    miss_genre_count: counts.genre,
    miss_year_count: counts.year,
  };
}

/** The cover getCoverArt serves for a track: its own picture, else its album's folder image; null when none. */
const coverOf = (t: TrackDoc): string | null => (t.hasArt ? t._id : t.folderCover !== null ? t.albumId : null);

/**
 * One page (from 1) of the tracks missing `mode`, in library order. A page past the last is empty (with the
 * real page count), not clamped: the dashboard ignores page changes outside 1..total_page anyway.
 */
export function progressRate(catalog: Catalog, mode: MissKind, page: number, pageSize: number): MissingPage {
  const miss = MISSES[mode];
  const all = catalog.view().tracks.filter(miss);
  const from = (page - 1) * pageSize;
  return {
    items: all.slice(from, from + pageSize).map((t) => ({
      id: t._id,
      name: t.title,
      artist_name: t.artist,
      album_name: t.album,
      year: t.year,
      genre: t.genre,
      lyrics: !MISSES.lyrics(t),
      album_cover: coverOf(t),
      path: t.path,
    })),
    total_page: Math.ceil(all.length / pageSize),
    count: all.length,
  };
}
