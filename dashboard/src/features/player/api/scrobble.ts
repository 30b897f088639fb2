/**
 * Tells /rest a song started playing: a now-playing notice (submission=false, so getNowPlaying shows it to
 * other clients), then the play itself (submission=true, §7: its play count and the play log).
 */
import { subsonicGet } from '../../../lib/api-client.ts';

export async function scrobble(id: string): Promise<void> {
  await subsonicGet('scrobble', { id, submission: 'false' });
  await subsonicGet('scrobble', { id, submission: 'true' });
}
