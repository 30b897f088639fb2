import { subsonicGet } from '../../../lib/api-client.ts';

/** /rest getAlbumInfo2: `notes` is the album's comment (the library's own one when set on the album screen). */
export async function getAlbumComment(id: string, signal?: AbortSignal): Promise<string> {
  const answer = await subsonicGet<{ albumInfo?: { notes?: string } }>('getAlbumInfo2', { id }, signal);
  return answer.albumInfo?.notes ?? '';
}
