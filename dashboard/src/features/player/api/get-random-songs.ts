/** Random songs of the library (/rest getRandomSongs; the spec's default size is 200) for "random play". */
import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicChild } from '../lib/track.ts';

export async function getRandomSongs(size = 200): Promise<SubsonicChild[]> {
  const answer = await subsonicGet<{ randomSongs?: { song?: SubsonicChild[] } }>('getRandomSongs', { size });
  return answer.randomSongs?.song ?? [];
}
