import { subsonicGet } from '../../../lib/api-client.ts';

/** Which Subsonic parameter names the item: a song is `id`, an album `albumId`, an artist `artistId`. */
export type StarKind = 'song' | 'album' | 'artist';

const PARAM: Record<StarKind, string> = { song: 'id', album: 'albumId', artist: 'artistId' };

/** /rest star or unstar (spec §7; GET, which Subsonic allows). */
export async function setStarred(kind: StarKind, id: string, starred: boolean): Promise<void> {
  await subsonicGet(starred ? 'star' : 'unstar', { [PARAM[kind]]: id });
}
