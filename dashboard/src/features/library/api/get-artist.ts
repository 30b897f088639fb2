import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicArtistDetail } from './artist-types.ts';

/** /rest getArtist: the artist with its albums (spec §7 `artist.album`). */
export async function getArtist(id: string, signal?: AbortSignal): Promise<SubsonicArtistDetail> {
  const answer = await subsonicGet<{ artist: SubsonicArtistDetail }>('getArtist', { id }, signal);
  return answer.artist;
}
