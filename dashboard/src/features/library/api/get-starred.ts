import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicArtist } from './artist-types.ts';
import type { SubsonicAlbum, SubsonicSong } from './types.ts';

export interface StarredKinds {
  album: SubsonicAlbum;
  artist: SubsonicArtist;
  song: SubsonicSong;
}

const TYPE = { album: 'album', artist: 'artist', song: 'track' } as const;

/** /rest getStarred2 of one kind, one batch (type/size/offset, the favourites tabs' infinite scroll). */
export async function getStarred<K extends keyof StarredKinds>(kind: K, offset: number, size: number, signal?: AbortSignal): Promise<StarredKinds[K][]> {
  const answer = await subsonicGet<{ starred2?: { [P in keyof StarredKinds]?: StarredKinds[P][] } }>('getStarred2', { type: TYPE[kind], offset, size }, signal);
  return (answer.starred2?.[kind] ?? []) as StarredKinds[K][];
}
