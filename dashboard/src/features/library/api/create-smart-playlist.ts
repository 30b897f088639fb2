import { subsonicGet } from '../../../lib/api-client.ts';
import type { PlaylistDetail } from './playlist-types.ts';

export interface SmartPlaylistRequest {
  name: string;
  /** The OR-of-AND rule as JSON text (lib/smart-conditions.ts conditionsJson). */
  conditions: string;
  limit: string;
  orderBy: string;
  isDynamic: boolean;
}

/** /rest createPlaylist, the spec's AI form (name, conditions, limit, order_by, is_dynamic). */
export async function createSmartPlaylist(req: SmartPlaylistRequest): Promise<PlaylistDetail> {
  const answer = await subsonicGet<{ playlist: PlaylistDetail }>('createPlaylist', {
    name: req.name.trim(),
    conditions: req.conditions,
    limit: req.limit.trim(),
    order_by: req.orderBy,
    is_dynamic: req.isDynamic ? 'true' : 'false',
  });
  return answer.playlist;
}
