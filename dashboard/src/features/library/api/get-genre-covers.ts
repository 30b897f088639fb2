import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { GenreCoverSuggestion } from './artist-types.ts';

/** GET /apimt/genre_playlist_cover/?id=: the genre's albums as cover suggestions. */
export async function getGenreCovers(id: string, signal?: AbortSignal): Promise<GenreCoverSuggestion[]> {
  const answer = await apiCall<GenreCoverSuggestion[]>('/apimt/genre_playlist_cover/', { query: { id }, signal, onError: { title: '查询失败！', timeout: SECONDS.five } });
  return answer.data ?? [];
}
