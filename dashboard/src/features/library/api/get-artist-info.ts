import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicArtistInfo } from './artist-types.ts';

/** /rest getArtistInfo2: the description (`biography`) and similar artists of the artist detail page. */
export async function getArtistInfo(id: string, signal?: AbortSignal): Promise<SubsonicArtistInfo> {
  const answer = await subsonicGet<{ artistInfo2?: SubsonicArtistInfo }>('getArtistInfo2', { id }, signal);
  return answer.artistInfo2 ?? {};
}
