/**
 * Scores a source's candidate against a file's tags (the spec's title_score, artist_score, album_score),
 * decides whether an auto-match mode (宽松 simple / 标准 normal / 严格 hard) accepts it, and ranks
 * candidates: scores first, then a weighted distance over duration, track number, year and album track
 * count, in the spirit of beets' autotagger, so ties go to the candidate that is most the same recording.
 */
import { containsWords, normalise, normaliseArtists, normaliseTitle, type NormalisedTitle } from './normalise.ts';

/** Exact after normalisation. */
export const EXACT = 2;
/** One contains the other (whole words), or the same name in another version ("晴天" vs "晴天 (Live)"). */
export const CONTAINED = 1;
export const NO_MATCH = 0;
/** The file names an artist and the candidate's artists are all someone else. */
export const ARTIST_DISAGREES = -2;

export type Score = typeof EXACT | typeof CONTAINED | typeof NO_MATCH | typeof ARTIST_DISAGREES;

/** The spec's three scores, as the results table colours them (2 grey, 1 yellow, 0 red, other plain). */
export interface CandidateScores {
  title_score: Score;
  artist_score: Score;
  album_score: Score;
}

/** What the file already says; `duration` in seconds. Missing fields score 0 and add no distance. */
export interface FileTags {
  title: string;
  artist?: string | null;
  album?: string | null;
  duration?: number | null;
  track?: number | string | null;
  year?: number | string | null;
  trackCount?: number | string | null;
}

/**
 * The part of the spec's "Search result song" matching reads. `duration` (seconds) is not a spec field;
 * sources that know it should send it, since the hard mode's duration guard and the distance use it.
 */
export interface CandidateSong {
  name: string;
  artist?: string | null;
  album?: string | null;
  tracknumber?: number | string | null;
  totaltracks?: number | string | null;
  year?: number | string | null;
  duration?: number | null;
}

/** 宽松 simple, 标准 normal, 严格 hard (the spec's select_mode values). */
export type MatchMode = 'simple' | 'normal' | 'hard';
export const MATCH_MODES: readonly MatchMode[] = ['simple', 'normal', 'hard'];

/**
 * The largest duration difference, in seconds, the hard mode accepts: encoders and sources disagree by a
 * second or two (leading silence, rounding), a different recording or edit differs by far more.
 */
export const HARD_DURATION_TOLERANCE = 3;

function titleLike(file: NormalisedTitle, cand: NormalisedTitle): Score {
  if (!file.name || !cand.name) return NO_MATCH;
  if (file.name === cand.name) return sameList(file.versions, cand.versions) ? EXACT : CONTAINED;
  const a = file.name.replace(/ /g, '');
  const b = cand.name.replace(/ /g, '');
  if (a === b) return sameList(file.versions, cand.versions) ? EXACT : CONTAINED;
  return containsWords(file.name, cand.name) || containsWords(cand.name, file.name) ? CONTAINED : NO_MATCH;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v));
}

/**
 * Title score: 2 when name and version suffixes agree, 1 when one name contains the other or only the
 * versions differ (so the studio recording outranks the live one for a file without a suffix), else 0.
 */
export function titleScore(fileTitle: string | null | undefined, candTitle: string | null | undefined): Score {
  return titleLike(normaliseTitle(fileTitle ?? ''), normaliseTitle(candTitle ?? ''));
}

/** Album score: as the title ("Album (Deluxe Edition)" contains "Album": 1); never negative. */
export function albumScore(fileAlbum: string | null | undefined, candAlbum: string | null | undefined): Score {
  return titleLike(normaliseTitle(fileAlbum ?? ''), normaliseTitle(candAlbum ?? ''));
}

/**
 * Artist score, on the sets of names (order and separators do not matter, guests named in either
 * title count as artists): 2 when the sets are equal, 1 when they share a name or one artist string
 * contains the other, −2 when the file names artists and the candidate's are all others, 0 when either
 * side names none.
 */
export function artistScore(
  fileArtist: string | null | undefined,
  candArtist: string | null | undefined,
  guests: { file?: readonly string[]; cand?: readonly string[] } = {},
): Score {
  const file = normaliseArtists(fileArtist ?? '').map(compact);
  const cand = normaliseArtists(candArtist ?? '').map(compact);
  if (file.length === 0 || cand.length === 0) return NO_MATCH;
  const fileAll = union(file, guests.file?.map(compact));
  const candAll = union(cand, guests.cand?.map(compact));
  if (sameList(file, cand) || sameList(fileAll, candAll)) return EXACT;
  if (fileAll.some((n) => candAll.includes(n))) return CONTAINED;
  const a = normalise(fileArtist ?? '');
  const b = normalise(candArtist ?? '');
  if (containsWords(a, b) || containsWords(b, a)) return CONTAINED;
  return ARTIST_DISAGREES;
}

/** A name without its spaces: "S.H.E" (→ "s h e") and "SHE" are one name, as are "Jay Chou" and "JayChou". */
const compact = (name: string) => name.replace(/ /g, '');

function union(a: readonly string[], b: readonly string[] = []): string[] {
  return [...a, ...b.filter((n) => !a.includes(n))];
}

/** The three scores of one candidate against the file's tags. */
export function scoreCandidate(file: FileTags, cand: CandidateSong): CandidateScores {
  const fileTitle = normaliseTitle(file.title ?? '');
  const candTitle = normaliseTitle(cand.name ?? '');
  return {
    title_score: titleLike(fileTitle, candTitle),
    artist_score: artistScore(file.artist, cand.artist, { file: fileTitle.guests, cand: candTitle.guests }),
    album_score: albumScore(file.album, cand.album),
  };
}

/** Seconds between the two durations, or null when either is unknown. */
export function durationDifference(file: FileTags, cand: CandidateSong): number | null {
  const a = positive(file.duration);
  const b = positive(cand.duration);
  return a === null || b === null ? null : Math.abs(a - b);
}

/**
 * Whether a mode takes a candidate (the spec's auto-match rules): simple — the title matches (contained
 * or exact); normal — title, artist and album each contained or exact; hard — all three exact and, when
 * both durations are known, no more than `HARD_DURATION_TOLERANCE` seconds apart.
 */
export function accepts(mode: MatchMode, scores: CandidateScores, durationDiff: number | null): boolean {
  const { title_score: t, artist_score: ar, album_score: al } = scores;
  switch (mode) {
    case 'simple':
      return t >= CONTAINED;
    case 'normal':
      return t >= CONTAINED && ar >= CONTAINED && al >= CONTAINED;
    case 'hard':
      return t === EXACT && ar === EXACT && al === EXACT && (durationDiff === null || durationDiff <= HARD_DURATION_TOLERANCE);
  }
}

/** Weights of the distance's parts (beets weighs track length 2, index and year 1). */
const WEIGHTS = { duration: 2, track: 1, year: 1, trackCount: 1 } as const;
/** Durations this close are the same recording; beyond, the penalty grows to its maximum at +30 s. */
const DURATION_GRACE = 2;
const DURATION_MAX = 30;
/** Years this far apart (or more) count as fully different (a reissue is a few years off, not a match). */
const YEAR_MAX = 10;
/** A candidate without a value the file has is half as far as one that contradicts it. */
const UNKNOWN = 0.5;

/**
 * Weighted distance from 0 (same recording in every known respect) to 1, over the parts the file knows:
 * duration difference (past a 2 s grace), track number, year, album track count. Only breaks ties between
 * equally scored candidates; a part the file does not know is left out for every candidate alike.
 */
export function distance(file: FileTags, cand: CandidateSong): number {
  let sum = 0;
  let weights = 0;
  const add = (weight: number, fileValue: number | null, candValue: number | null, part: (a: number, b: number) => number) => {
    if (fileValue === null) return;
    weights += weight;
    sum += weight * (candValue === null ? UNKNOWN : part(fileValue, candValue));
  };
  add(WEIGHTS.duration, positive(file.duration), positive(cand.duration), (a, b) =>
    Math.min(1, Math.max(0, Math.abs(a - b) - DURATION_GRACE) / (DURATION_MAX - DURATION_GRACE)),
  );
  add(WEIGHTS.track, leadingInt(file.track), leadingInt(cand.tracknumber), (a, b) => (a === b ? 0 : 1));
  add(WEIGHTS.year, leadingInt(file.year), leadingInt(cand.year), (a, b) => Math.min(1, Math.abs(a - b) / YEAR_MAX));
  add(WEIGHTS.trackCount, leadingInt(file.trackCount), leadingInt(cand.totaltracks), (a, b) => (a === b ? 0 : 1));
  return weights === 0 ? 0 : sum / weights;
}

/** A candidate with its scores, whether the mode accepts it, and its distance. */
export type RankedCandidate<C extends CandidateSong> = C &
  CandidateScores & { accepted: boolean; distance: number; duration_diff: number | null };

/**
 * All candidates scored and ordered best first — accepted ones first, then by total score, then title
 * score (the simple mode prefers an exact title), then distance; equal candidates keep the source's
 * order. `best` is the first accepted one, or null when the mode accepts none: auto-matching then
 * leaves the file alone rather than writing a near miss.
 */
export function rank<C extends CandidateSong>(
  file: FileTags,
  candidates: readonly C[],
  mode: MatchMode,
): { best: RankedCandidate<C> | null; ranked: RankedCandidate<C>[] } {
  const ranked = candidates
    .map((cand, index) => {
      const scores = scoreCandidate(file, cand);
      const diff = durationDifference(file, cand);
      return { index, item: { ...cand, ...scores, accepted: accepts(mode, scores, diff), distance: distance(file, cand), duration_diff: diff } };
    })
    .sort((x, y) => compare(x.item, y.item) || x.index - y.index)
    .map((x) => x.item);
  return { best: ranked[0]?.accepted ? ranked[0] : null, ranked };
}

function compare(a: RankedCandidate<CandidateSong>, b: RankedCandidate<CandidateSong>): number {
  if (a.accepted !== b.accepted) return a.accepted ? -1 : 1;
  const total = (c: CandidateScores) => c.title_score + c.artist_score + c.album_score;
  return total(b) - total(a) || b.title_score - a.title_score || a.distance - b.distance;
}

function positive(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

/** "3", 3, "3/12", "2003-05-01" → 3, 3, 3, 2003; anything else → null. */
function leadingInt(value: number | string | null | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? Math.trunc(value) : null;
  if (typeof value !== 'string') return null;
  const m = /^\s*(\d+)/.exec(value);
  const n = m ? Number(m[1]) : 0;
  return n > 0 ? n : null;
}
