/**
 * The sandbox's budget of large capability results held by invocations in flight (crossing-budget.ts): many
 * invocations at once each receiving a cover wait their turn instead of filling the isolate, an invocation that
 * already holds bytes never waits (no deadlock), one alone always goes, and small results never wait.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CrossingBudget } from './crossing-budget.ts';
import { createSandbox, type Sandbox } from './index.ts';

const open: Sandbox[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

/**
 * A plugin that asks for `size` bytes, then holds them across a slow host call; the host counts how many
 * invocations are between the two at once.
 */
function coverPlugin(memoryLimitMb: number, size: number, calls = 1) {
  let holding = 0;
  let most = 0;
  const s = createSandbox({
    id: `covers${open.length}`, memoryLimitMb, timeoutMs: 20_000,
    code: `exports.run = async (o, caps) => {
      const covers = await Promise.all(Array.from({ length: ${calls} }, () => caps.tags.cover()));
      await caps.tags.hold();
      return covers.reduce((n, c) => n + c.length, 0);
    };`,
    capabilities: {
      tags: {
        cover: () => new Uint8Array(size),
        hold: async () => {
          most = Math.max(most, ++holding);
          await new Promise((resolve) => setTimeout(resolve, 40));
          holding--;
        },
      },
    },
  });
  open.push(s);
  return { sandbox: s, most: () => most };
}

describe('crossing budget', () => {
  it('holds 1 MB results of 12 invocations at once to a quarter of a 16 MB isolate', async () => {
    const { sandbox, most } = coverPlugin(16, 1024 * 1024);
    const sizes = await Promise.all(Array.from({ length: 12 }, () => sandbox.invoke('run', {})));
    expect(sizes).toEqual(Array(12).fill(1024 * 1024));
    // 4 MiB budget: three results of 1 MiB plus their JSON fit, a fourth does not.
    expect(most()).toBe(3);
  }, 30_000);

  it('lets small results through without waiting', async () => {
    const { sandbox, most } = coverPlugin(16, 64 * 1024);
    await Promise.all(Array.from({ length: 12 }, () => sandbox.invoke('run', {})));
    expect(most()).toBe(12);
  }, 30_000);

  it('never deadlocks invocations asking for several large results at once, and lets one over the budget through alone', async () => {
    // Each invocation wants 3 × 1.5 MB at once of a 4 MB budget: the first call of each may be admitted, the
    // others of the same invocation then go too.
    const { sandbox } = coverPlugin(16, 1536 * 1024, 3);
    const sizes = await Promise.all(Array.from({ length: 6 }, () => sandbox.invoke('run', {})));
    expect(sizes).toEqual(Array(6).fill(3 * 1536 * 1024));
    // One result larger than the whole budget goes when nothing else is held.
    const big = coverPlugin(16, 6 * 1024 * 1024);
    await expect(big.sandbox.invoke('run', {})).resolves.toBe(6 * 1024 * 1024);
  }, 30_000);

  it('a timeout spent mostly waiting for others\' large results is congestion, not the plugin\'s failure', async () => {
    let first = true;
    const s = createSandbox({
      id: 'queued', memoryLimitMb: 16, timeoutMs: 1_000, maxConsecutiveFailures: 1,
      code: 'exports.run = async (o, caps) => { const c = await caps.tags.cover(); await caps.tags.hold(); return c.length; };',
      capabilities: {
        tags: {
          // The first invocation holds 6 MB (over the 4 MB budget) for 700 ms; the second waits ~650 ms of its 1 s.
          cover: () => { const size = first ? 6 * 1024 * 1024 : 1024 * 1024; first = false; return new Uint8Array(size); },
          hold: () => new Promise((resolve) => setTimeout(resolve, 700)),
        },
      },
    });
    open.push(s);
    const holder = s.invoke('run', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    const error = await s.invoke('run', {}).then(() => null, (e: unknown) => e as Error & { code: string; details?: Record<string, unknown> });
    await expect(holder).resolves.toBe(6 * 1024 * 1024);
    expect(error?.code).toBe('TAGSONIC_ERR_PLUGIN_TIMEOUT');
    expect(error?.message).toMatch(/waiting for the plugin's other calls to release their large results/);
    expect(error?.details?.crossingWaitMs).toBeGreaterThan(500);
    // Not counted towards auto-disable (one failure in a row would have disabled it).
    expect(s.stats()).toMatchObject({ disabled: false, consecutiveFailures: 0 });
  }, 30_000);

  it('admits in order, releases when an invocation ends, and forgets a waiter whose invocation ended', async () => {
    const budget = new CrossingBudget(10);
    const a = { held: 0 };
    const b = { held: 0 };
    const c = { held: 0 };
    expect(await budget.take(a, 8, new AbortController().signal)).toBe(0);
    // a holds bytes: it never waits, even over the budget.
    await budget.take(a, 8, new AbortController().signal);
    expect(budget.held).toBe(16);
    const ended = new AbortController();
    const bWaits = budget.take(b, 4, ended.signal);
    let cIn = false;
    const cWaits = budget.take(c, 4, new AbortController().signal).then(() => (cIn = true));
    ended.abort();
    await expect(bWaits).rejects.toThrow('the invocation has ended');
    expect(cIn).toBe(false);
    budget.release(a);
    await cWaits;
    expect(budget.held).toBe(4);
    budget.release(c);
    expect(budget.held).toBe(0);
  });
});
