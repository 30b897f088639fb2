import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicGenre } from './artist-types.ts';

/** The genres list's tabs (spec §2), as getGenres' `type` spells them. */
export type GenreSort = 'a-z' | 'most-albums' | 'most-tracks';

/** /rest getGenres in the tab's order (the whole list: genres are few). */
export async function getGenres(sort: GenreSort, signal?: AbortSignal): Promise<SubsonicGenre[]> {
  const answer = await subsonicGet<{ genres?: { genre?: SubsonicGenre[] } }>('getGenres', { type: sort }, signal);
  return answer.genres?.genre ?? [];
}
