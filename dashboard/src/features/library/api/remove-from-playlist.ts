import { subsonicGet } from '../../../lib/api-client.ts';

/** /rest updatePlaylist songIndexToRemove: drops the entry at that index (the same song elsewhere stays). */
export async function removeFromPlaylist(playlistId: string, index: number): Promise<void> {
  await subsonicGet('updatePlaylist', { playlistId, songIndexToRemove: index });
}
