/**
 * The player's queue rules (spec §4 "Player") as pure functions over (queue, index): the store applies
 * them, the tests pin them. `random` is injectable so shuffles are reproducible in tests.
 */

/** Where the player stands: the queue and the index of the current track in it. */
export interface QueuePosition<T> {
  queue: T[];
  index: number;
}

export type Random = () => number;

/** The previous track restarts instead when the current one has played for more than this (§4). */
export const RESTART_AFTER_SECONDS = 3;

/** An index inside the queue (0 for an empty one): a stored or passed index may be stale or hand-made. */
export function clampIndex(index: number, length: number): number {
  if (length <= 0 || !Number.isInteger(index) || index < 0) return 0;
  return Math.min(index, length - 1);
}

/** next: index + 1, wrapping to 0 past the end. */
export function nextIndex(index: number, length: number): number {
  return length <= 0 ? 0 : (clampIndex(index, length) + 1) % length;
}

/**
 * previous: more than 3 s into the track it restarts the track (same index, `restart`); otherwise it goes
 * back one, wrapping from the first track to the last as `next` wraps from the last to the first.
 */
export function previousStep(index: number, length: number, currentTime: number): { index: number; restart: boolean } {
  const at = clampIndex(index, length);
  if (length <= 0) return { index: 0, restart: false };
  if (currentTime > RESTART_AFTER_SECONDS) return { index: at, restart: true };
  return { index: (at - 1 + length) % length, restart: false };
}

/**
 * A track ended: on to the next one if there is one or repeat is on (wrapping); otherwise back to the
 * first track, paused.
 */
export function endedStep(index: number, length: number, repeat: boolean): { index: number; playing: boolean } {
  if (length <= 0) return { index: 0, playing: false };
  const at = clampIndex(index, length);
  if (at + 1 < length) return { index: at + 1, playing: true };
  return repeat ? { index: 0, playing: true } : { index: 0, playing: false };
}

/** Fisher–Yates over a copy. */
export function shuffled<T>(items: readonly T[], random: Random = Math.random): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The queue reshuffled with the track at `index` first (index becomes 0). */
export function shuffleKeepingFirst<T>(queue: readonly T[], index: number, random: Random = Math.random): QueuePosition<T> {
  if (queue.length === 0) return { queue: [], index: 0 };
  const at = clampIndex(index, queue.length);
  const rest = queue.filter((_, i) => i !== at);
  return { queue: [queue[at], ...shuffled(rest, random)], index: 0 };
}

/** Clearing the queue keeps only the current track. */
export function clearKeepingCurrent<T>(queue: readonly T[], index: number): QueuePosition<T> {
  if (queue.length === 0) return { queue: [], index: 0 };
  return { queue: [queue[clampIndex(index, queue.length)]], index: 0 };
}

/**
 * Playing a list: without an index it starts at a random track if shuffle is on, else at the first; with
 * shuffle the list is reshuffled with the chosen track first.
 */
export function startList<T>(tracks: readonly T[], index: number | undefined, shuffle: boolean, random: Random = Math.random): QueuePosition<T> {
  if (tracks.length === 0) return { queue: [], index: 0 };
  const chosen = index === undefined ? (shuffle ? Math.floor(random() * tracks.length) : 0) : clampIndex(index, tracks.length);
  return shuffle ? shuffleKeepingFirst(tracks, chosen, random) : { queue: tracks.slice(), index: chosen };
}

/** Jumping to a queue entry; an index outside the queue keeps the current one. */
export function jumpIndex(current: number, target: number, length: number): number {
  return Number.isInteger(target) && target >= 0 && target < length ? target : clampIndex(current, length);
}
