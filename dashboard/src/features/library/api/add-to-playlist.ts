import { subsonicGet } from '../../../lib/api-client.ts';

/** /rest updatePlaylist songIdToAdd: the song goes to the end of the user's own (non-dynamic) playlist. */
export async function addToPlaylist(playlistId: string, songId: string): Promise<void> {
  await subsonicGet('updatePlaylist', { playlistId, songIdToAdd: songId });
}
