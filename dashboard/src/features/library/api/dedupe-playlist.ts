import { subsonicGet } from '../../../lib/api-client.ts';
import type { PlaylistDetail } from './playlist-types.ts';

/** /rest duplicatePlaylist — the spec's name for "dedupe" (去重): answers the playlist without its repeats. */
export async function dedupePlaylist(id: string): Promise<PlaylistDetail> {
  const answer = await subsonicGet<{ playlist: PlaylistDetail }>('duplicatePlaylist', { id });
  return { ...answer.playlist, entry: answer.playlist.entry ?? [] };
}
