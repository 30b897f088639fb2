import { subsonicGet } from '../../../lib/api-client.ts';

/** /rest exportPlaylist: a signed link to the .m3u8 (valid one hour), which the page opens in a new tab. */
export async function exportPlaylist(id: string): Promise<string> {
  const answer = await subsonicGet<{ playlistExport: { url: string } }>('exportPlaylist', { id });
  return answer.playlistExport.url;
}
