import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Bus, ConsumeOptions, DeadLetter, Delivery } from '@tagsonic/core/bus';
import { isTagsonicError, TagsonicError } from '@tagsonic/core/errors';

export interface BusUnderTest {
  bus: Bus;
  cleanup(): Promise<void>;
}

// Short enough to keep the suite fast, long enough that a busy 2-core machine does not make it flaky.
const ACK_WAIT = 400;
/** Timer slack: both drivers and the test run on timers that may fire a few ms early or late. */
const EARLY = 40;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** Unique per test: a NATS server keeps durables and a work queue forbids overlapping filters. */
export function uniqueArea(): string {
  return `t${randomBytes(5).toString('hex')}`;
}

interface Seen {
  deliveryCount: number;
  msgId: string;
  payload: unknown;
  subject: string;
  at: number;
}

const record = (d: Delivery<unknown>): Seen => ({
  deliveryCount: d.deliveryCount,
  msgId: d.msgId,
  payload: d.payload,
  subject: d.subject,
  at: Date.now(),
});

/** A promise the test resolves later, to hold handlers "busy" for as long as it needs. */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/**
 * The bus port's semantics, run against every driver: ack, nak (immediate and delayed), redelivery after the
 * ack wait, working(), max-deliver and term dead letters, msgId dedupe, bounded concurrency, competing
 * consumers, queued-before-consume, wildcard events, draining close.
 */
export function busContract(name: string, make: () => Promise<BusUnderTest>): void {
  describe(`bus contract: ${name}`, () => {
    let bus: Bus;
    let cleanup: () => Promise<void>;
    let area: string;
    const cmd = (verb: string) => `tagsonic.cmd.${area}.${verb}`;
    const opts = ({ durable = 'w', ...rest }: Partial<ConsumeOptions> = {}): ConsumeOptions => ({
      durable: `${area}-${durable}`,
      concurrency: 4,
      ackWaitMs: ACK_WAIT,
      maxDeliver: 5,
      ...rest,
    });

    beforeEach(async () => {
      ({ bus, cleanup } = await make());
      area = uniqueArea();
    });
    afterEach(async () => {
      await cleanup();
    });

    it('reports its driver as healthy', async () => {
      const health = await bus.health();
      expect(health.ok).toBe(true);
      expect(health.driver).toBe(bus.driver);
    });

    it('delivers a command once with subject, msgId and a JSON copy of the payload, and acks when the handler returns', async () => {
      const seen: Seen[] = [];
      const when = new Date('2026-01-02T03:04:05.000Z');
      await bus.send(cmd('write'), { file: 'a.mp3', when, tags: { title: 'Ä' } }, { msgId: 'item-1' });
      await bus.send(cmd('write'), { file: 'b.mp3' }, { msgId: 'item-2' });
      const sub = await bus.consume(
        cmd('write'),
        async (d) => {
          seen.push(record(d));
          if (d.msgId === 'item-2') await d.ack(); // settling explicitly must not ack twice or fail
        },
        opts(),
      );
      await waitFor(() => seen.length === 2, 'two deliveries');
      await sleep(ACK_WAIT * 2);
      expect(seen).toHaveLength(2);
      const first = seen.find((s) => s.msgId === 'item-1')!;
      expect(first.subject).toBe(cmd('write'));
      expect(first.deliveryCount).toBe(1);
      // Dates cross as ISO strings in both drivers, exactly as over the wire.
      expect(first.payload).toEqual({ file: 'a.mp3', when: when.toISOString(), tags: { title: 'Ä' } });
      await sub.close();
    });

    it('redelivers at once after nak()', async () => {
      const seen: Seen[] = [];
      await bus.send(cmd('write'), { n: 1 }, { msgId: 'nak-now' });
      const sub = await bus.consume(
        cmd('write'),
        async (d) => {
          seen.push(record(d));
          if (d.deliveryCount === 1) await d.nak();
        },
        opts({ ackWaitMs: 5_000 }),
      );
      await waitFor(() => seen.length === 2, 'the redelivery');
      expect(seen.map((s) => s.deliveryCount)).toEqual([1, 2]);
      // Far sooner than the 5 s ack wait: the nak itself caused it.
      expect(seen[1].at - seen[0].at).toBeLessThan(1_500);
      await sub.close();
    });

    it('holds the delay of nak(delayMs) before redelivering', async () => {
      const seen: Seen[] = [];
      let nakAt = 0;
      await bus.send(cmd('write'), { n: 1 }, { msgId: 'nak-later' });
      const sub = await bus.consume(
        cmd('write'),
        async (d) => {
          seen.push(record(d));
          if (d.deliveryCount === 1) {
            nakAt = Date.now();
            await d.nak(600);
          }
        },
        opts({ ackWaitMs: 5_000 }),
      );
      await waitFor(() => seen.length === 2, 'the delayed redelivery');
      const waited = seen[1].at - nakAt;
      expect(waited).toBeGreaterThanOrEqual(600 - EARLY);
      expect(waited).toBeLessThan(2_500);
      await sub.close();
    });

    it('retries a throwing handler after retryDelayMs, then acks its success', async () => {
      const seen: Seen[] = [];
      const asked: number[] = [];
      await bus.send(cmd('write'), { n: 1 }, { msgId: 'throw-once' });
      const sub = await bus.consume(
        cmd('write'),
        async (d) => {
          seen.push(record(d));
          if (d.deliveryCount === 1) throw new Error('disk busy');
        },
        opts({
          ackWaitMs: 5_000,
          retryDelayMs: (n) => {
            asked.push(n);
            return 500;
          },
        }),
      );
      await waitFor(() => seen.length === 2, 'the retry');
      await sleep(ACK_WAIT);
      expect(seen.map((s) => s.deliveryCount)).toEqual([1, 2]);
      expect(asked).toEqual([1]);
      expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(500 - EARLY);
      await sub.close();
    });

    it('redelivers after the ack wait when a delivery is not settled, counting deliveries', async () => {
      const seen: Seen[] = [];
      const stuck = gate();
      await bus.send(cmd('write'), { n: 1 }, { msgId: 'slow' });
      const sub = await bus.consume(
        cmd('write'),
        async (d) => {
          seen.push(record(d));
          if (d.deliveryCount < 3) await stuck.wait;
        },
        opts({ concurrency: 3 }),
      );
      await waitFor(() => seen.length === 3, 'three deliveries', 5_000);
      await sleep(ACK_WAIT * 2);
      expect(seen.map((s) => s.deliveryCount)).toEqual([1, 2, 3]);
      expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(ACK_WAIT - EARLY);
      expect(seen[2].at - seen[1].at).toBeGreaterThanOrEqual(ACK_WAIT - EARLY);
      stuck.open();
      await sub.close();
    });

    it('does not redeliver a long job that keeps calling working()', async () => {
      const seen: Seen[] = [];
      await bus.send(cmd('write'), { n: 1 }, { msgId: 'long' });
      const sub = await bus.consume(
        cmd('write'),
        async (d) => {
          seen.push(record(d));
          // Three ack waits long, reporting progress several times per ack wait.
          for (let elapsed = 0; elapsed < ACK_WAIT * 3; elapsed += ACK_WAIT / 4) {
            await sleep(ACK_WAIT / 4);
            await d.working();
          }
        },
        opts({ concurrency: 2 }),
      );
      await waitFor(() => seen.length >= 1, 'the delivery');
      await sleep(ACK_WAIT * 5);
      expect(seen.map((s) => s.deliveryCount)).toEqual([1]);
      await sub.close();
    });

    it('dead-letters once, with payload and the last error, when the handler keeps throwing', async () => {
      const seen: Seen[] = [];
      const letters: DeadLetter[] = [];
      await bus.send(cmd('write'), { file: 'bad.flac' }, { msgId: 'poison' });
      const sub = await bus.consume(
        cmd('write'),
        async (d) => {
          seen.push(record(d));
          throw new Error(`cannot parse (attempt ${d.deliveryCount})`);
        },
        opts({ maxDeliver: 3, retryDelayMs: () => 50, onDeadLetter: (l) => void letters.push(l) }),
      );
      await waitFor(() => letters.length === 1, 'the dead letter');
      await sleep(ACK_WAIT * 3);
      expect(seen.map((s) => s.deliveryCount)).toEqual([1, 2, 3]);
      expect(letters).toHaveLength(1);
      expect(letters[0]).toMatchObject({
        subject: cmd('write'),
        msgId: 'poison',
        payload: { file: 'bad.flac' },
        deliveryCount: 3,
        reason: 'max-deliver',
        error: 'cannot parse (attempt 3)',
      });
      expect(letters[0].at).toBeInstanceOf(Date);
      await sub.close();
    });

    it('dead-letters once with reason max-deliver when the handler keeps timing out', async () => {
      const seen: Seen[] = [];
      const letters: DeadLetter[] = [];
      const stuck = gate();
      await bus.send(cmd('write'), { file: 'hang.mp3' }, { msgId: 'hang' });
      const sub = await bus.consume(
        cmd('write'),
        async (d) => {
          seen.push(record(d));
          await stuck.wait;
          throw new Error('gave up late');
        },
        opts({ maxDeliver: 2, concurrency: 3, onDeadLetter: (l) => void letters.push(l) }),
      );
      await waitFor(() => letters.length === 1, 'the dead letter', 6_000);
      expect(seen.map((s) => s.deliveryCount)).toEqual([1, 2]);
      expect(letters[0]).toMatchObject({
        subject: cmd('write'),
        msgId: 'hang',
        payload: { file: 'hang.mp3' },
        deliveryCount: 2,
        reason: 'max-deliver',
      });
      // The stuck handlers finally fail: that must neither redeliver nor dead-letter a second time.
      stuck.open();
      await sleep(ACK_WAIT * 3);
      expect(letters).toHaveLength(1);
      expect(seen).toHaveLength(2);
      await sub.close();
    });

    it('dead-letters when the handler naks its last allowed delivery', async () => {
      const seen: Seen[] = [];
      const letters: DeadLetter[] = [];
      await bus.send(cmd('write'), { n: 1 }, { msgId: 'nak-last' });
      const sub = await bus.consume(
        cmd('write'),
        async (d) => {
          seen.push(record(d));
          await d.nak();
        },
        opts({ maxDeliver: 2, onDeadLetter: (l) => void letters.push(l) }),
      );
      await waitFor(() => letters.length === 1, 'the dead letter');
      await sleep(ACK_WAIT * 2);
      expect(seen.map((s) => s.deliveryCount)).toEqual([1, 2]);
      expect(letters).toHaveLength(1);
      expect(letters[0]).toMatchObject({ msgId: 'nak-last', reason: 'max-deliver', deliveryCount: 2 });
      await sub.close();
    });

    it('dead-letters at once with reason term when the handler calls term()', async () => {
      const seen: Seen[] = [];
      const letters: DeadLetter[] = [];
      await bus.send(cmd('write'), { file: 'gone.mp3' }, { msgId: 'term-me' });
      const sub = await bus.consume(
        cmd('write'),
        async (d) => {
          seen.push(record(d));
          await d.term('file no longer exists');
        },
        opts({ onDeadLetter: (l) => void letters.push(l) }),
      );
      await waitFor(() => letters.length === 1, 'the dead letter');
      await sleep(ACK_WAIT * 2);
      expect(seen).toHaveLength(1);
      expect(letters).toHaveLength(1);
      expect(letters[0]).toMatchObject({
        msgId: 'term-me',
        payload: { file: 'gone.mp3' },
        deliveryCount: 1,
        reason: 'term',
        error: 'file no longer exists',
      });
      await sub.close();
    });

    it('drops a second send with the same msgId inside the dedupe window', async () => {
      const seen: Seen[] = [];
      expect(await bus.send(cmd('write'), { v: 1 }, { msgId: 'same' })).toEqual({ duplicate: false });
      expect(await bus.send(cmd('write'), { v: 2 }, { msgId: 'same' })).toEqual({ duplicate: true });
      expect(await bus.send(cmd('write'), { v: 3 }, { msgId: 'other' })).toEqual({ duplicate: false });
      const sub = await bus.consume(cmd('write'), async (d) => void seen.push(record(d)), opts());
      await waitFor(() => seen.length === 2, 'two deliveries');
      await sleep(ACK_WAIT);
      expect(seen.map((s) => s.payload)).toEqual([{ v: 1 }, { v: 3 }]);
      // Still a duplicate after the first one was consumed: the window counts from the send.
      expect(await bus.send(cmd('write'), { v: 4 }, { msgId: 'same' })).toEqual({ duplicate: true });
      await sub.close();
    });

    it('never runs more handlers at once than its concurrency', async () => {
      let inFlight = 0;
      let maxInFlight = 0;
      let done = 0;
      for (let i = 0; i < 24; i++) await bus.send(cmd('write'), { i }, { msgId: `c${i}` });
      const sub = await bus.consume(
        cmd('write'),
        async () => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await sleep(40);
          inFlight--;
          done++;
        },
        opts({ concurrency: 3 }),
      );
      await waitFor(() => done === 24, 'all 24 commands');
      expect(maxInFlight).toBe(3);
      await sub.close();
    });

    it('shares work between competing consumers of one durable without processing a command twice', async () => {
      const byConsumer: Record<string, string[]> = { a: [], b: [] };
      const total = 30;
      const handler = (who: 'a' | 'b') => async (d: Delivery<unknown>) => {
        byConsumer[who].push(d.msgId);
        await sleep(15);
      };
      const a = await bus.consume(cmd('write'), handler('a'), opts({ concurrency: 2 }));
      const b = await bus.consume(cmd('write'), handler('b'), opts({ concurrency: 2 }));
      for (let i = 0; i < total; i++) await bus.send(cmd('write'), { i }, { msgId: `m${i}` });
      await waitFor(() => byConsumer.a.length + byConsumer.b.length >= total, 'all commands');
      await sleep(ACK_WAIT);
      const all = [...byConsumer.a, ...byConsumer.b];
      expect(all).toHaveLength(total);
      expect(new Set(all).size).toBe(total);
      expect(byConsumer.a.length).toBeGreaterThan(0);
      expect(byConsumer.b.length).toBeGreaterThan(0);
      await Promise.all([a.close(), b.close()]);
    });

    it('keeps commands sent before any consumer existed, in order', async () => {
      for (let i = 0; i < 3; i++) await bus.send(cmd('scan'), { i }, { msgId: `early${i}` });
      await sleep(100);
      const seen: Seen[] = [];
      const sub = await bus.consume(cmd('scan'), async (d) => void seen.push(record(d)), opts({ concurrency: 1 }));
      await waitFor(() => seen.length === 3, 'the queued commands');
      expect(seen.map((s) => s.payload)).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
      await sub.close();
    });

    it('routes by wildcard filter: * is one token, > the rest', async () => {
      const tags: string[] = [];
      const lib: string[] = [];
      const s1 = await bus.consume(cmd('tags.*'), async (d) => void tags.push(d.subject), opts({ durable: 'tags' }));
      const s2 = await bus.consume(cmd('lib.>'), async (d) => void lib.push(d.subject), opts({ durable: 'lib' }));
      await bus.send(cmd('tags.write'), {}, { msgId: 'r1' });
      await bus.send(cmd('lib.scan.full'), {}, { msgId: 'r2' });
      await bus.send(cmd('lib.scan'), {}, { msgId: 'r3' });
      await waitFor(() => tags.length + lib.length === 3, 'routed commands');
      expect(tags).toEqual([cmd('tags.write')]);
      expect(lib.sort()).toEqual([cmd('lib.scan'), cmd('lib.scan.full')]);
      await Promise.all([s1.close(), s2.close()]);
    });

    it('refuses a durable whose filter overlaps another durable on the work queue', async () => {
      const first = await bus.consume(cmd('>'), async () => {}, opts({ durable: 'all' }));
      const err = await bus.consume(cmd('write'), async () => {}, opts({ durable: 'some' })).catch((e: unknown) => e);
      expect(isTagsonicError(err) && err.kind === 'conflict').toBe(true);
      await first.close();
    });

    it('rejects subjects outside its namespaces', async () => {
      const errors = await Promise.all([
        bus.send('tagsonic.evt.track.updated', {}, { msgId: 'x' }).catch((e: unknown) => e),
        bus.send(`tagsonic.cmd.${area}.*`, {}, { msgId: 'x' }).catch((e: unknown) => e),
        bus.publish('tagsonic.cmd.tags.write', {}).catch((e: unknown) => e),
      ]);
      for (const e of errors) expect(isTagsonicError(e) && e.code === 'TAGSONIC_ERR_BUS_SUBJECT_INVALID').toBe(true);
    });

    it('delivers events asynchronously to every matching pattern', async () => {
      const got: Record<string, string[]> = { star: [], tail: [], exact: [] };
      const evt = (rest: string) => `tagsonic.evt.${area}.${rest}`;
      const subs = [
        bus.subscribe(`tagsonic.evt.${area}.task.*`, (s) => void got.star.push(s)),
        bus.subscribe(`tagsonic.evt.${area}.>`, (s) => void got.tail.push(s)),
        bus.subscribe(evt('track.updated'), (s, p) => void got.exact.push(`${s}:${JSON.stringify(p)}`)),
      ];
      await bus.publish(evt('task.progressed'), { done: 1 });
      await bus.publish(evt('track.updated'), { id: 't1' });
      await bus.publish(evt('task.item.failed'), { id: 'i1' });
      // Nothing is delivered inside publish(): subscribers run later, as over the network.
      const syncCount = got.star.length + got.tail.length + got.exact.length;
      await waitFor(() => got.tail.length === 3, 'events');
      await sleep(100);
      expect(syncCount).toBe(0);
      expect(got.star).toEqual([evt('task.progressed')]);
      expect(got.tail).toEqual([evt('task.progressed'), evt('track.updated'), evt('task.item.failed')]);
      expect(got.exact).toEqual([`${evt('track.updated')}:{"id":"t1"}`]);
      await Promise.all(subs.map((s) => s.close()));
      await bus.publish(evt('task.progressed'), {});
      await sleep(100);
      expect(got.star).toHaveLength(1);
    });

    it('keeps delivering events to others when one subscriber throws', async () => {
      const evt = `tagsonic.evt.${area}.task.progressed`;
      let thrower = 0;
      const calm: unknown[] = [];
      const a = bus.subscribe(evt, () => {
        thrower++;
        throw new Error('subscriber bug');
      });
      const b = bus.subscribe(evt, (_s, p) => void calm.push(p));
      await bus.publish(evt, { n: 1 });
      await bus.publish(evt, { n: 2 });
      await waitFor(() => calm.length === 2 && thrower === 2, 'both events at both subscribers');
      expect(calm).toEqual([{ n: 1 }, { n: 2 }]);
      await Promise.all([a.close(), b.close()]);
    });

    it('closing a consumer waits for its in-flight handlers, and their acks stick', async () => {
      const started = gate();
      let finished = false;
      await bus.send(cmd('write'), { n: 1 }, { msgId: 'drain' });
      const sub = await bus.consume(
        cmd('write'),
        async () => {
          started.open();
          await sleep(300);
          finished = true;
        },
        opts({ durable: 'drain' }),
      );
      await started.wait;
      const t0 = Date.now();
      await sub.close();
      expect(finished).toBe(true);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
      // The ack happened: a new consumer on the same durable gets nothing.
      const again: Seen[] = [];
      const sub2 = await bus.consume(cmd('write'), async (d) => void again.push(record(d)), opts({ durable: 'drain' }));
      await sleep(ACK_WAIT * 2);
      expect(again).toHaveLength(0);
      await sub2.close();
    });

    it('close() on the bus drains in-flight handlers and is idempotent', async () => {
      const started = gate();
      let finished = false;
      await bus.send(cmd('write'), { n: 1 }, { msgId: 'bus-drain' });
      await bus.consume(
        cmd('write'),
        async () => {
          started.open();
          await sleep(300);
          finished = true;
        },
        opts(),
      );
      await started.wait;
      await bus.close();
      expect(finished).toBe(true);
      await bus.close();
      const err = await bus.send(cmd('write'), {}, { msgId: 'after' }).catch((e: unknown) => e);
      expect(isTagsonicError(err) && err.kind === 'unavailable').toBe(true);
      expect((await bus.health()).ok).toBe(false);
    });

    describe('request/reply', () => {
      const rpc = (verb: string) => `tagsonic.rpc.${area}.${verb}`;
      const serveOpts = { queue: 'workers', concurrency: 2 };

      it('answers with the handler\'s JSON value', async () => {
        const sub = await bus.serve<{ a: number; b: number; at: Date }>(rpc('add'), async ({ a, b, at }) => ({ sum: a + b, at }), serveOpts);
        const at = new Date('2026-01-02T03:04:05.000Z');
        expect(await bus.request(rpc('add'), { a: 2, b: 3, at })).toEqual({ sum: 5, at: at.toISOString() });
        expect(await bus.request(rpc('add'), { a: 1, b: 1, at })).toEqual({ sum: 2, at: at.toISOString() });
        await sub.close();
      });

      it('rethrows a handler\'s TagsonicError with its kind, code, message and details; other errors as internal', async () => {
        const sub = await bus.serve<{ fail: string }>(
          rpc('fail'),
          async ({ fail }) => {
            if (fail === 'tagsonic') throw new TagsonicError('not_found', 'TAGSONIC_ERR_PLUGIN_NOT_FOUND', 'No plugin "x".', { details: { pluginId: 'x', status: 404 } });
            throw new Error('boom');
          },
          serveOpts,
        );
        const err = await bus.request(rpc('fail'), { fail: 'tagsonic' }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(TagsonicError);
        expect(err).toMatchObject({ kind: 'not_found', code: 'TAGSONIC_ERR_PLUGIN_NOT_FOUND', message: 'No plugin "x".', details: { pluginId: 'x', status: 404 } });
        const other = await bus.request(rpc('fail'), { fail: 'plain' }).catch((e: unknown) => e);
        expect(other).toMatchObject({ kind: 'internal', code: 'TAGSONIC_ERR_BUS_HANDLER_FAILED', message: 'boom' });
        await sub.close();
      });

      it('reports no responder, and a timeout when the responder is too slow', async () => {
        const none = await bus.request(rpc('nobody'), {}).catch((e: unknown) => e);
        expect(none).toMatchObject({ kind: 'unavailable', code: 'TAGSONIC_ERR_BUS_NO_RESPONDER' });
        const sub = await bus.serve(rpc('slow'), () => sleep(600).then(() => 'late'), serveOpts);
        const t0 = Date.now();
        const slow = await bus.request(rpc('slow'), {}, { timeoutMs: 200 }).catch((e: unknown) => e);
        expect(slow).toMatchObject({ kind: 'unavailable', code: 'TAGSONIC_ERR_BUS_TIMEOUT' });
        expect(Date.now() - t0).toBeLessThan(550);
        await sub.close();
      });

      it('shares requests between the responders of one queue group, each within its concurrency', async () => {
        const served = { a: 0, b: 0 };
        let running = 0;
        let maxRunning = 0;
        const handler = (who: 'a' | 'b') => async (n: number) => {
          served[who]++;
          running++;
          maxRunning = Math.max(maxRunning, running);
          await sleep(20);
          running--;
          return n * 2;
        };
        const a = await bus.serve(rpc('double'), handler('a'), { queue: 'workers', concurrency: 1 });
        const b = await bus.serve(rpc('double'), handler('b'), { queue: 'workers', concurrency: 1 });
        const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => bus.request<number>(rpc('double'), i)));
        expect(replies).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
        expect(served.a + served.b).toBe(20);
        expect(served.a).toBeGreaterThan(0);
        expect(served.b).toBeGreaterThan(0);
        expect(maxRunning).toBeLessThanOrEqual(2);
        await a.close();
        await b.close();
      });

      it('stops answering once the subscription is closed, after finishing what it had started', async () => {
        const started = gate();
        const sub = await bus.serve(
          rpc('once'),
          async () => {
            started.open();
            await sleep(200);
            return 'done';
          },
          serveOpts,
        );
        const pending = bus.request(rpc('once'), {});
        await started.wait;
        await sub.close();
        expect(await pending).toBe('done');
        const after = await bus.request(rpc('once'), {}, { timeoutMs: 500 }).catch((e: unknown) => e);
        expect(isTagsonicError(after) && ['TAGSONIC_ERR_BUS_NO_RESPONDER', 'TAGSONIC_ERR_BUS_TIMEOUT'].includes(after.code)).toBe(true);
      });

      it('refuses subjects outside tagsonic.rpc. and bad serve options', async () => {
        await expect(bus.request('tagsonic.cmd.x.y', {})).rejects.toMatchObject({ code: 'TAGSONIC_ERR_BUS_SUBJECT_INVALID' });
        await expect(bus.serve(rpc('bad'), async () => null, { queue: 'w', concurrency: 0 })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_BUS_OPTIONS_INVALID' });
      });
    });
  });
}
