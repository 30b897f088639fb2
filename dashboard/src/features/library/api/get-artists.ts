import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicArtist } from './artist-types.ts';

/** The artists list's sorts (spec §2), as getArtists' `type` spells them. */
export type ArtistSort = 'most-albums' | 'a-z' | 'less_cover';

/**
 * /rest getArtists, one page (spec §7: type, size, offset, search). The answer groups the page into index
 * entries (runs of initials); flattened here in the order sent, which is the asked sort.
 */
export async function getArtists(sort: ArtistSort, offset: number, size: number, search = '', signal?: AbortSignal): Promise<SubsonicArtist[]> {
  const params: Record<string, string | number> = { type: sort, offset, size };
  if (search) params.search = search;
  const answer = await subsonicGet<{ artists?: { index?: { artist?: SubsonicArtist[] }[] } }>('getArtists', params, signal);
  return (answer.artists?.index ?? []).flatMap((entry) => entry.artist ?? []);
}
