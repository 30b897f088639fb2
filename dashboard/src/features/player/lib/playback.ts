/**
 * The pure parts of playback the audio engine uses: fade volume steps (§4/§9: 200 ms in 10 ms steps, seek
 * half of it), which track to preload, and the document title.
 */
import { endedStep } from './queue.ts';
import type { PlayerTrack } from './track.ts';

export const FADE_MS = 200;
export const SEEK_FADE_MS = FADE_MS / 2;
export const FADE_STEP_MS = 10;
export const PRODUCT_NAME = 'Tagsonic';

/** The volumes a fade sets, one per 10 ms step, ending exactly at `to`. */
export function fadeSteps(from: number, to: number, ms: number, stepMs = FADE_STEP_MS): number[] {
  const n = Math.max(1, Math.round(ms / stepMs));
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? to : from + ((to - from) * (i + 1)) / n));
}

/**
 * The track the current one ends into (the same rule as a track end), to preload; none when the queue
 * stops there (last track, repeat off) or it is the current track again.
 */
export function trackToPreload(queue: readonly PlayerTrack[], index: number, repeat: boolean): PlayerTrack | undefined {
  const step = endedStep(index, queue.length, repeat);
  if (!step.playing || step.index === index) return undefined;
  return queue[step.index];
}

/** The tab's title: "<stream or track title> - <artist or album>", the product name when nothing is queued. */
export function documentTitle(track: PlayerTrack | undefined, shown: (name: string) => string = (n) => n): string {
  if (!track) return PRODUCT_NAME;
  const by = track.artist || track.album;
  return by ? `${shown(track.title)} - ${shown(by)}` : shown(track.title);
}

/**
 * Whether a track must be streamed transcoded: its audio type is known and the browser says it cannot play it
 * (`canPlayType` answers ''), e.g. ALAC in Chromium, APE or WMA anywhere. Unknown types are tried as they are.
 */
export function needsTranscode(track: PlayerTrack, canPlay: (type: string) => string): boolean {
  if (track.isStream || track.url || !track.mime) return false;
  return canPlay(track.mime) === '';
}
