import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicAlbumDetail } from './types.ts';

/** /rest getAlbum: the album with its songs in disc/track order. */
export async function getAlbum(id: string, signal?: AbortSignal): Promise<SubsonicAlbumDetail> {
  const answer = await subsonicGet<{ album: SubsonicAlbumDetail }>('getAlbum', { id }, signal);
  return answer.album;
}
