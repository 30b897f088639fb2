import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { ArtistCandidate } from './artist-types.ts';

/** POST /apimt/fetch_artists/: a tag source's artist candidates for the edit drawer's suggestions (spec: kuwo). */
export async function fetchArtists(title: string, resource = 'kuwo', signal?: AbortSignal): Promise<ArtistCandidate[]> {
  const answer = await apiCall<ArtistCandidate[]>('/apimt/fetch_artists/', { body: { title, resource }, signal, onError: { title: '查询失败！', timeout: SECONDS.five } });
  return answer.data ?? [];
}
