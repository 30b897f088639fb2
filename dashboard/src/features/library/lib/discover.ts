/**
 * The discover page's rules over the getDiscover payload (spec doc 2 §2 "Discover", §8, §9): a failure is
 * logged and leaves every section empty, similar artists show 3, random songs 8.
 */
import type { Discover } from '../api/discover-types.ts';

/** Spec §9: random songs on discover. */
export const DISCOVER_RANDOM_COUNT = 8;
/** Spec §9: similar artists shown on discover. */
export const DISCOVER_SIMILAR_COUNT = 3;

/** What the page shows before the answer and after a failure (§8: "Discover failure: logged; data emptied"). */
export function emptyDiscover(): Discover {
  return { hot_artists: [], hot_track: null, random_songs: [], recommend_albums: [], new_albums: [], album: null, similar_artists: [], recent_plays: [] };
}

/**
 * The payload with every list present (an older or partial server may leave one out) and the displayed
 * counts of §9 applied, so the sections can render it as is.
 */
export function normalizeDiscover(raw: Partial<Discover> | undefined | null): Discover {
  const d = { ...emptyDiscover(), ...(raw ?? {}) };
  const list = <T,>(v: T[] | undefined | null): T[] => (Array.isArray(v) ? v : []);
  return {
    hot_artists: list(d.hot_artists),
    hot_track: d.hot_track ?? null,
    random_songs: list(d.random_songs).slice(0, DISCOVER_RANDOM_COUNT),
    recommend_albums: list(d.recommend_albums),
    new_albums: list(d.new_albums),
    album: d.album ?? null,
    similar_artists: list(d.similar_artists).slice(0, DISCOVER_SIMILAR_COUNT),
    recent_plays: list(d.recent_plays),
  };
}

/** The five stars of a rating (0–5, halves rounded down): 'full' or 'empty' per star, for the new-release cards. */
export function ratingStars(rating: number): Array<'full' | 'empty'> {
  const n = Number.isFinite(rating) ? Math.max(0, Math.min(5, Math.floor(rating))) : 0;
  return Array.from({ length: 5 }, (_, i) => (i < n ? 'full' : 'empty'));
}

