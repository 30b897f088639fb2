import { subsonicGet } from '../../../lib/api-client.ts';
import type { PlaylistSummary } from './playlist-types.ts';

export type PlaylistSort = 'recently-added' | 'a-z';

/** /rest getPlaylists with the spec's `type` (the two tabs of the playlists page). */
export async function getPlaylists(sort: PlaylistSort, signal?: AbortSignal): Promise<PlaylistSummary[]> {
  const answer = await subsonicGet<{ playlists?: { playlist?: PlaylistSummary[] } }>('getPlaylists', { type: sort }, signal);
  return answer.playlists?.playlist ?? [];
}
