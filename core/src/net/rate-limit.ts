/**
 * A token bucket per plugin: the sources' terms cap requests per second (MusicBrainz 1/s, AcoustID 3/s), and
 * a plugin that asks faster waits for its turn instead of getting the installation banned.
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

export interface RateLimiter {
  /** Resolves when the caller may send one request (immediately while the bucket has a token). */
  take(): Promise<void>;
}

/**
 * `ratePerSec` tokens refill per second up to `burst` (default 1: requests evenly spaced, what MusicBrainz asks).
 * Waiters are served in call order: each takes the next free slot when it calls, so none starves.
 */
export function createRateLimiter(ratePerSec: number, burst = 1, clock: Clock = systemClock): RateLimiter {
  if (!(ratePerSec > 0) || !Number.isFinite(ratePerSec)) return { take: async () => {} };
  const interval = 1000 / ratePerSec;
  const capacity = Math.max(1, Math.floor(burst));
  let tokens = capacity;
  let updated = clock.now();
  return {
    async take() {
      const now = clock.now();
      tokens = Math.min(capacity, tokens + (now - updated) / interval);
      updated = now;
      tokens -= 1; // reserve now, possibly going negative: later callers queue behind this one
      if (tokens >= 0) return;
      await clock.sleep(-tokens * interval);
    },
  };
}
