import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicSong } from './types.ts';

/** /rest getAlbum, only its songs: what a play button on an album card queues. */
export async function getAlbumSongs(albumId: string, signal?: AbortSignal): Promise<SubsonicSong[]> {
  const answer = await subsonicGet<{ album?: { song?: SubsonicSong[] } }>('getAlbum', { id: albumId }, signal);
  return answer.album?.song ?? [];
}
