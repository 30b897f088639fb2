/** Marks a song as a favourite (/rest star) or takes the mark away (unstar). */
import { subsonicGet } from '../../../lib/api-client.ts';

export async function starSong(id: string, starred: boolean): Promise<void> {
  await subsonicGet(starred ? 'star' : 'unstar', { id });
}
