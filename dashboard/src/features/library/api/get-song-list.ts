import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicSong } from './types.ts';

/** The /tracks tabs: /rest getSongList's orders (Tagsonic's extension, gateway/src/subsonic/README.md). */
export type SongListType = 'recently-added' | 'recently-played' | 'most-played' | 'a-z';

/** One batch of /rest getSongList; `search` (the global term) narrows it to matching songs. */
export async function getSongList(type: SongListType, offset: number, size: number, search?: string, signal?: AbortSignal): Promise<SubsonicSong[]> {
  const params: Record<string, string | number> = { type, offset, size };
  if (search) params.search = search;
  const answer = await subsonicGet<{ songList?: { song?: SubsonicSong[] } }>('getSongList', params, signal);
  return answer.songList?.song ?? [];
}
