/**
 * The quiet-time collection: after a busy spell that left a large old generation of garbage, one
 * memory-reducing collection runs QUIET_MS after the last activity and the heap gives its pages back;
 * activity keeps postponing it, and a process that stays quiet runs no more.
 */
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { idleCollections, noteActivity, QUIET_MS } from './index.ts';

const heapMb = () => v8.getHeapStatistics().total_heap_size / 1e6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('idle collection', () => {
  it('collects once the process has been quiet for QUIET_MS, giving the old generation back', { timeout: 60_000 }, async () => {
    // A busy spell: objects that live long enough to be promoted, then die.
    let kept: unknown[][] = [];
    for (let round = 0; round < 8; round++) {
      kept.push(Array.from({ length: 200_000 }, (_, i) => ({ i, s: `item ${i} of ${round}` })));
      await sleep(0);
    }
    kept = [];
    const grown = heapMb();
    expect(grown).toBeGreaterThan(100);
    const before = idleCollections();
    noteActivity();
    // Activity within the quiet time postpones the collection.
    await sleep(QUIET_MS / 2);
    noteActivity();
    await sleep(QUIET_MS / 2 + 500);
    expect(idleCollections()).toBe(before);
    await expect.poll(idleCollections, { timeout: QUIET_MS }).toBe(before + 1);
    expect(heapMb()).toBeLessThan(grown / 2);
    expect(kept).toEqual([]);
    // Quiet from here on: nothing more runs.
    await sleep(QUIET_MS + 500);
    expect(idleCollections()).toBe(before + 1);
  });
});
