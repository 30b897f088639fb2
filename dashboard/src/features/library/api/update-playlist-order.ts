import { subsonicGet } from '../../../lib/api-client.ts';

/** /rest updatePlaylistOrder: one drag (the entry at oldIndex now sits at newIndex). */
export async function updatePlaylistOrder(id: string, oldIndex: number, newIndex: number): Promise<void> {
  await subsonicGet('updatePlaylistOrder', { id, oldIndex, newIndex });
}
