import { subsonicGet } from '../../../lib/api-client.ts';

/** /rest deletePlaylist (the owner's own playlist only; the server refuses others'). */
export async function deletePlaylist(id: string): Promise<void> {
  await subsonicGet('deletePlaylist', { id });
}
