import { subsonicGet } from '../../../lib/api-client.ts';
import type { PlaylistDetail } from './playlist-types.ts';

/** /rest createPlaylist with a name and its first song (the plain form, not the smart one). */
export async function createPlaylist(name: string, songId: string): Promise<PlaylistDetail> {
  const answer = await subsonicGet<{ playlist: PlaylistDetail }>('createPlaylist', { name: name.trim(), songId });
  return answer.playlist;
}
