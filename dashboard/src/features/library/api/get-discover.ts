import { subsonicGet } from '../../../lib/api-client.ts';
import { emptyDiscover, normalizeDiscover } from '../lib/discover.ts';
import type { Discover } from './discover-types.ts';

/**
 * /rest getDiscover (spec §7). Spec §8 "Discover failure: logged; data emptied": a failure is written to the
 * console and answers the empty payload, so the page shows its empty sections instead of an error screen.
 * An abort is passed on (the page went away).
 */
export async function getDiscover(signal?: AbortSignal): Promise<Discover> {
  try {
    const answer = await subsonicGet<{ discover?: Partial<Discover> }>('getDiscover', {}, signal);
    return normalizeDiscover(answer.discover);
  } catch (e) {
    if (signal?.aborted) throw e;
    console.error('getDiscover failed', e);
    return emptyDiscover();
  }
}
