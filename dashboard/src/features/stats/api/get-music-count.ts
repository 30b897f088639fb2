import { apiCall } from '../../../lib/api-client.ts';
import { QUERY_FAILED } from './query-notice.ts';
import type { MusicCount } from './types.ts';

/** getMusicCount (spec doc 2 §7): GET /apimt/music_count/, the home dashboard's tiles and trend chart. */
export async function getMusicCount(signal?: AbortSignal): Promise<MusicCount> {
  return (await apiCall<MusicCount>('/apimt/music_count/', { signal, onError: QUERY_FAILED })).data;
}
