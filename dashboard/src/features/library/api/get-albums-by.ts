import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicAlbum } from './types.ts';

/** Whose albums: a genre (by name) or an artist (by id) — getAlbumList2 byGenre / byArtist (spec §7). */
export type AlbumsOf = { genre: string } | { artistId: string };

/** /rest getAlbumList2 type byGenre or byArtist, one page (size/offset). */
export async function getAlbumsBy(of: AlbumsOf, offset: number, size: number, signal?: AbortSignal): Promise<SubsonicAlbum[]> {
  const params: Record<string, string | number> = 'genre' in of ? { type: 'byGenre', genre: of.genre } : { type: 'byArtist', artist_id: of.artistId };
  Object.assign(params, { offset, size });
  const answer = await subsonicGet<{ albumList2?: { album?: SubsonicAlbum[] } }>('getAlbumList2', params, signal);
  return answer.albumList2?.album ?? [];
}
