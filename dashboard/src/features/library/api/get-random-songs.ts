import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicSong } from './types.ts';

/** /rest getRandomSongs (spec §7: size, default 200; the discover page asks for 8). */
export async function getRandomSongs(size: number, signal?: AbortSignal): Promise<SubsonicSong[]> {
  const answer = await subsonicGet<{ randomSongs?: { song?: SubsonicSong[] } }>('getRandomSongs', { size }, signal);
  return answer.randomSongs?.song ?? [];
}
