import { subsonicGet } from '../../../lib/api-client.ts';
import type { PlaylistDetail } from './playlist-types.ts';

/** /rest getPlaylist: the playlist with its songs (a dynamic one is evaluated on this read). */
export async function getPlaylist(id: string, signal?: AbortSignal): Promise<PlaylistDetail> {
  const answer = await subsonicGet<{ playlist: PlaylistDetail }>('getPlaylist', { id }, signal);
  return { ...answer.playlist, entry: answer.playlist.entry ?? [] };
}
