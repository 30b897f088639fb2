/**
 * A token bucket per plugin: the sources' terms cap requests per second (MusicBrainz 1/s, AcoustID 3/s), and
 * a plugin that asks faster waits for its turn instead of getting the installation banned. A caller with a time
 * budget (a plugin invocation has a wall-clock limit) asks with `maxWaitMs`: when its turn would come later, it is
 * told so at once, without taking a turn, instead of queueing past its budget and timing out.
 */

/** Time as the limiter sees it; tests pass a fake one. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** `ok`: the turn came after `waitedMs`; otherwise no turn was taken and it would have come in `retryAfterMs`. */
export type TakeResult = { ok: true; waitedMs: number } | { ok: false; retryAfterMs: number };

export interface RateLimiter {
  /** Requests per second (Infinity: unlimited), for messages. */
  readonly ratePerSec: number;
  /**
   * Resolves when the caller may send one request (immediately while the bucket has a token). With
   * `maxWaitMs`, a turn further away than that is not taken: `{ ok: false, retryAfterMs }` at once.
   */
  take(maxWaitMs?: number): Promise<TakeResult>;
}

/**
 * `ratePerSec` tokens refill per second up to `burst` (default 1: requests evenly spaced, what MusicBrainz asks).
 * Waiters are served in call order: each takes the next free slot when it calls, so none starves.
 */
export function createRateLimiter(ratePerSec: number, burst = 1, clock: Clock = systemClock): RateLimiter {
  if (!(ratePerSec > 0) || !Number.isFinite(ratePerSec)) return { ratePerSec: Infinity, take: async () => ({ ok: true, waitedMs: 0 }) };
  const interval = 1000 / ratePerSec;
  const capacity = Math.max(1, Math.floor(burst));
  let tokens = capacity;
  let updated = clock.now();
  return {
    ratePerSec,
    async take(maxWaitMs = Infinity) {
      const now = clock.now();
      tokens = Math.min(capacity, tokens + (now - updated) / interval);
      updated = now;
      const waitMs = tokens >= 1 ? 0 : (1 - tokens) * interval;
      if (waitMs > maxWaitMs) return { ok: false, retryAfterMs: waitMs }; // the queue is left as it was
      tokens -= 1; // reserve now, possibly going negative: later callers queue behind this one
      if (waitMs > 0) await clock.sleep(waitMs);
      return { ok: true, waitedMs: waitMs };
    },
  };
}

/** "one request every 3 s", "one request per second", "3 requests per second": the pacing in words. */
export function describeRate(ratePerSec: number): string {
  if (ratePerSec < 1) return `one request every ${Math.round((1 / ratePerSec) * 10) / 10} s`;
  if (ratePerSec === 1) return 'one request per second';
  return `${Math.round(ratePerSec * 10) / 10} requests per second`;
}
