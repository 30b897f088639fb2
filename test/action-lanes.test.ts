/**
 * How many batch-action items a worker runs at once (workers/src/action-lanes.ts), on the real runtime's bus and
 * plugin registry: at command concurrency 2, items of a files-only plugin (check-duplicate) run 16 at once, items
 * of a tags plugin (replace-text: its sandbox bounds the covers it holds) more than 2 in lanes of their own, while
 * the items of a plugin granted ffmpeg (format-music: two tool processes) keep the old 2 lanes, and wait their
 * turn without being redelivered.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@tagsonic/core/config';
import { builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import { openRuntime, type Runtime } from '@tagsonic/cli';
import type { Manifest } from '@tagsonic/sdk';
import { actionLanes } from '../workers/src/action-lanes.ts';

let home: string;
let rt: Runtime;

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-action-lanes-'));
  rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  for (const id of ['check-duplicate', 'replace-text', 'format-music']) {
    const { manifest, code } = await builtinPlugin(id);
    await rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
  }
}, 60_000);

afterAll(async () => {
  await rt?.close();
  await rm(home, { recursive: true, force: true });
});

describe('action item lanes', () => {
  it('runs many items of a files-only plugin at once, and the others\' items at the command concurrency', async () => {
    const lanes = actionLanes(2, rt.plugins);
    expect(lanes.inFlight).toBe(16);
    const running = new Map<string, number>();
    let narrowRunning = 0;
    let narrowMost = 0;
    const most = new Map<string, number>();
    const deliveries = new Map<string, number>();
    let done = 0;
    let allDone: () => void;
    const finished = new Promise<void>((resolve) => (allDone = resolve));
    const handler = lanes.wrap<{ pluginId: string; n: number }>(async (delivery) => {
      const { pluginId, n } = delivery.payload;
      deliveries.set(`${pluginId}:${n}`, (deliveries.get(`${pluginId}:${n}`) ?? 0) + 1);
      running.set(pluginId, (running.get(pluginId) ?? 0) + 1);
      most.set(pluginId, Math.max(most.get(pluginId) ?? 0, running.get(pluginId)!));
      const narrow = pluginId === 'format-music';
      if (narrow) narrowMost = Math.max(narrowMost, ++narrowRunning);
      // An item that waits (on the disk, a site): the others run meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 150));
      running.set(pluginId, running.get(pluginId)! - 1);
      if (narrow) narrowRunning--;
      if (++done === 48) allDone();
    });
    const subject = 'tagsonic.cmd.test.lanes';
    const sub = await rt.bus.consume(subject, handler, { durable: 'test-lanes', concurrency: lanes.inFlight, ackWaitMs: 30_000, maxDeliver: 3 });
    try {
      for (let n = 0; n < 16; n++) {
        await rt.bus.send(subject, { pluginId: 'format-music', n }, { msgId: `f${n}` });
        await rt.bus.send(subject, { pluginId: 'replace-text', n }, { msgId: `r${n}` });
        await rt.bus.send(subject, { pluginId: 'check-duplicate', n }, { msgId: `c${n}` });
      }
      await finished;
    } finally {
      await sub.close();
    }
    // The narrow plugin never had more than the command concurrency in flight; the tags plugin had more.
    expect(narrowMost).toBe(2);
    expect(most.get('replace-text')).toBeGreaterThan(2);
    // More than the command concurrency (waiting narrow items hold bus lanes too, so not always all 16).
    expect(most.get('check-duplicate')).toBeGreaterThan(2);
    expect([...deliveries.values()].every((count) => count === 1)).toBe(true);
    expect(deliveries.size).toBe(48);
  }, 60_000);
});
