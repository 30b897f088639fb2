import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicSong } from './types.ts';

/** Whose songs: a genre (by name) or an artist (by id) — getSongsByGenre takes either (spec §7). */
export type SongsOf = { genre: string } | { artistId: string };

/** /rest getSongsByGenre, one page (count/offset), optionally narrowed by a search term. */
export async function getSongsBy(of: SongsOf, offset: number, count: number, search = '', signal?: AbortSignal): Promise<SubsonicSong[]> {
  const params: Record<string, string | number> = 'genre' in of ? { genre: of.genre } : { artist_id: of.artistId };
  Object.assign(params, { offset, count });
  if (search) params.search = search;
  const answer = await subsonicGet<{ songsByGenre?: { song?: SubsonicSong[] } }>('getSongsByGenre', params, signal);
  return answer.songsByGenre?.song ?? [];
}
