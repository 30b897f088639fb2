import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicSong } from './types.ts';

/** /rest getTopSongs by the artist's NAME (Subsonic keys top songs by name), most played first. */
export async function getTopSongs(artistName: string, count = 50, signal?: AbortSignal): Promise<SubsonicSong[]> {
  const answer = await subsonicGet<{ topSongs?: { song?: SubsonicSong[] } }>('getTopSongs', { artist: artistName, count }, signal);
  return answer.topSongs?.song ?? [];
}
