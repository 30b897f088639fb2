import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicAlbum } from './types.ts';

/** getAlbumList2 types our /rest serves, the spec's extensions included (gateway/src/subsonic/README.md). */
export type AlbumListType = 'newest' | 'recent' | 'frequent' | 'alphabeticalByName' | 'alphabeticalByArtist' | 'less_cover' | 'search' | 'random' | 'starred';

/**
 * One batch of /rest getAlbumList2. `search` is the text for type=search (the global search term);
 * it is ignored by the other types.
 */
export async function getAlbumList(type: AlbumListType, offset: number, size: number, search?: string, signal?: AbortSignal): Promise<SubsonicAlbum[]> {
  const params: Record<string, string | number> = { type, offset, size };
  if (type === 'search') params.search = search ?? '';
  const answer = await subsonicGet<{ albumList2?: { album?: SubsonicAlbum[] } }>('getAlbumList2', params, signal);
  return answer.albumList2?.album ?? [];
}
