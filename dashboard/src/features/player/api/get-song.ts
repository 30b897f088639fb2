/** One song from /rest getSong (the bar reads whether it is a favourite: `starred`). */
import { subsonicGet } from '../../../lib/api-client.ts';
import type { SubsonicChild } from '../lib/track.ts';

export async function getSong(id: string, signal?: AbortSignal): Promise<SubsonicChild & { starred?: string }> {
  const answer = await subsonicGet<{ song: SubsonicChild & { starred?: string } }>('getSong', { id }, signal);
  return answer.song;
}
