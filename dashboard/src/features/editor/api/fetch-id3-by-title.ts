import { apiCall } from '../../../lib/api-client.ts';
import type { ScoredSong } from './types.ts';

export interface LookupQuery {
  title: string;
  artist?: string;
  album?: string;
  full_path?: string;
  resource: string;
}

/**
 * POST /apimt/fetch_id3_by_title/: candidates for a title (and artist/album) from one source, scored
 * against the file. The results panel shows the failure itself (the source's own words matter on the
 * /mod screen and here), so the client raises no notice.
 */
export async function fetchId3ByTitle(query: LookupQuery, signal?: AbortSignal): Promise<ScoredSong[]> {
  const env = await apiCall<ScoredSong[]>('/apimt/fetch_id3_by_title/', { body: query, signal, onError: false });
  return env.data ?? [];
}

