import { subsonicGet } from '../../../lib/api-client.ts';

/** /rest updatePlaylistProps: 'exclude' marks a filter list, 'normal' unmarks it. */
export async function updatePlaylistProps(id: string, props: 'exclude' | 'normal'): Promise<void> {
  await subsonicGet('updatePlaylistProps', { id, props });
}
