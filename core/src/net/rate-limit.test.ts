import { describe, expect, it } from 'vitest';
import { createRateLimiter, type Clock } from './rate-limit.ts';

/** A clock that only moves when someone sleeps, so the schedule is exact. */
function fakeClock(): Clock {
  let t = 0;
  return {
    now: () => t,
    sleep: async (ms) => {
      t += ms;
    },
  };
}

describe('rate limiter', () => {
  it('MusicBrainz 1/s: calls start one second apart, in call order', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter(1, 1, clock);
    const order: number[] = [];
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      await limiter.take();
      order.push(i);
      starts.push(clock.now());
    }
    expect(order).toEqual([0, 1, 2]);
    expect(starts).toEqual([0, 1000, 2000]);
  });

  it('a burst of 3 at 3/s: three at once, then one every 333 ms; idle time refills', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter(3, 3, clock);
    const starts: number[] = [];
    for (let i = 0; i < 5; i++) {
      await limiter.take();
      starts.push(Math.round(clock.now()));
    }
    expect(starts).toEqual([0, 0, 0, 333, 667]);
    await clock.sleep(10_000);
    const t = clock.now();
    await limiter.take();
    expect(clock.now()).toBe(t);
  });

  it('0 or less means unlimited', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter(0, 1, clock);
    for (let i = 0; i < 10; i++) await limiter.take();
    expect(clock.now()).toBe(0);
  });
});

describe('rate limiter with a wait budget', () => {
  it('a turn further away than maxWaitMs is refused at once, with when it would come, and leaves the queue as it was', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter(1 / 3, 1, clock);
    expect(await limiter.take(0)).toEqual({ ok: true, waitedMs: 0 });
    expect(await limiter.take(2_000)).toEqual({ ok: false, retryAfterMs: 3_000 });
    expect(clock.now()).toBe(0);
    // The refusal took no turn: the next caller with enough budget gets the 3 s slot, not a 6 s one.
    expect(await limiter.take(3_000)).toEqual({ ok: true, waitedMs: 3_000 });
    expect(clock.now()).toBe(3_000);
    expect(await limiter.take(1_000)).toEqual({ ok: false, retryAfterMs: 3_000 });
  });
});
