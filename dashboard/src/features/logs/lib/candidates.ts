/**
 * The candidate drawers of a task report (spec doc 2 §2 "Task report"): which rows offer them, the candidates a
 * row kept (auto-scrape keeps the best ones it saw for a missed file as `candidate_list`, doc 2 "Candidate
 * song") in the editor's candidate shape, and the lookup a row without any starts with.
 */
import type { LookupQuery } from '../../editor/api/fetch-id3-by-title.ts';
import type { ScoredSong } from '../../editor/api/types.ts';
import type { DetailRow, SectionKey } from '../api/types.ts';

/** Sections whose rows get a candidate link: the misses, the failures and the mode matches (to review). */
export const CANDIDATE_SECTIONS: ReadonlySet<SectionKey> = new Set<SectionKey>(['miss_tag', 'miss_artist', 'miss_album', 'miss_artist_album', 'fail', 'mode_success']);

/** Sections whose rows the drawers may finish (mark success) once the file is saved; mode matches already are. */
export const FINISHABLE_SECTIONS: ReadonlySet<SectionKey> = new Set<SectionKey>(['miss_tag', 'miss_artist', 'miss_album', 'miss_artist_album', 'fail']);

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
const numOrText = (v: unknown): string | number | null => (typeof v === 'number' || typeof v === 'string' ? v : null);
const score = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : Number.NaN);

/**
 * The row's kept candidates as the candidate table shows them. The list is stored JSON a plugin wrote: an entry
 * without an id or a name, or without a source to ask for its lyric, is left out rather than shown half.
 * A missing score stays NaN, which colours nothing.
 */
export function candidatesOf(row: Pick<DetailRow, 'candidate_list'>): ScoredSong[] {
  const list = Array.isArray(row.candidate_list) ? row.candidate_list : [];
  const songs: ScoredSong[] = [];
  for (const entry of list) {
    if (typeof entry !== 'object' || entry === null) continue;
    const c = entry as Record<string, unknown>;
    const id = str(c.id);
    const name = str(c.name);
    const resource = str(c.resource);
    if (!id || !name || !resource) continue;
    songs.push({
      id,
      name,
      artist: str(c.artist),
      album: str(c.album),
      album_img: str(c.album_img),
      year: numOrText(c.year),
      tracknumber: numOrText(c.tracknumber),
      totaltracks: numOrText(c.totaltracks),
      discnumber: numOrText(c.discnumber),
      totaldiscs: numOrText(c.totaldiscs),
      duration: typeof c.duration === 'number' ? c.duration : null,
      resource,
      title_score: score(c.title_score),
      artist_score: score(c.artist_score),
      album_score: score(c.album_score),
    });
  }
  return songs;
}

/**
 * What a row looks its file up by: the title, artist and album the report kept (the file's own before the task),
 * or the file name without its extension when the file had no title. Nothing to search by → null.
 */
export function lookupOf(row: Pick<DetailRow, 'path' | 'title' | 'artist' | 'album' | 'extra'>): Omit<LookupQuery, 'resource'> | null {
  const pick = (...values: (string | null | undefined)[]) => values.find((v) => typeof v === 'string' && v.trim() !== '')?.trim() ?? '';
  const file = row.path?.split(/[\\/]/).pop() ?? '';
  const title = pick(row.title, row.extra?.raw_title, file.replace(/\.[^.]+$/, ''));
  if (!title) return null;
  const query: Omit<LookupQuery, 'resource'> = { title };
  const artist = pick(row.artist, row.extra?.raw_artist);
  const album = pick(row.album, row.extra?.raw_album);
  if (artist) query.artist = artist;
  if (album) query.album = album;
  if (row.path) query.full_path = row.path;
  return query;
}
