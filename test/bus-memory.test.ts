import { describe, expect, it } from 'vitest';
import { createMemoryBus, subjectMatches, patternsOverlap } from '@tagsonic/core/bus';
import { busContract, sleep, waitFor } from './contract/bus-contract.ts';

busContract('memory', async () => {
  const bus = createMemoryBus({ onError: () => {} });
  return { bus, cleanup: () => bus.close() };
});

describe('memory bus specifics', () => {
  it('forgets a msgId once the dedupe window has passed', async () => {
    const bus = createMemoryBus({ dedupeWindowMs: 150 });
    expect(await bus.send('tagsonic.cmd.tags.write', {}, { msgId: 'a' })).toEqual({ duplicate: false });
    expect(await bus.send('tagsonic.cmd.tags.write', {}, { msgId: 'a' })).toEqual({ duplicate: true });
    await sleep(200);
    expect(await bus.send('tagsonic.cmd.tags.write', {}, { msgId: 'a' })).toEqual({ duplicate: false });
    await bus.close();
  });

  it('refuses reusing a durable name for another subject', async () => {
    const bus = createMemoryBus();
    const sub = await bus.consume('tagsonic.cmd.tags.write', async () => {}, { durable: 'x', concurrency: 1, ackWaitMs: 100, maxDeliver: 1 });
    await expect(bus.consume('tagsonic.cmd.tags.read', async () => {}, { durable: 'x', concurrency: 1, ackWaitMs: 100, maxDeliver: 1 }))
      .rejects.toMatchObject({ code: 'TAGSONIC_ERR_BUS_CONSUMER_CONFLICT' });
    await sub.close();
    await bus.close();
  });

  it('hands a handler its own copy of the payload', async () => {
    const bus = createMemoryBus();
    const payload = { tags: ['a'] };
    const got: unknown[] = [];
    await bus.send('tagsonic.cmd.tags.write', payload, { msgId: 'copy' });
    payload.tags.push('mutated after send');
    await bus.consume('tagsonic.cmd.tags.write', async (d) => void got.push(d.payload), { durable: 'copy', concurrency: 1, ackWaitMs: 500, maxDeliver: 1 });
    await waitFor(() => got.length === 1, 'delivery');
    expect(got[0]).toEqual({ tags: ['a'] });
    await bus.close();
  });
});

describe('subject matching', () => {
  it('follows NATS wildcard rules', () => {
    expect(subjectMatches('tagsonic.evt.*', 'tagsonic.evt.task')).toBe(true);
    expect(subjectMatches('tagsonic.evt.*', 'tagsonic.evt.task.progressed')).toBe(false);
    expect(subjectMatches('tagsonic.evt.>', 'tagsonic.evt.task.progressed')).toBe(true);
    expect(subjectMatches('tagsonic.evt.>', 'tagsonic.evt')).toBe(false);
    expect(subjectMatches('tagsonic.*.task.>', 'tagsonic.evt.task.item.failed')).toBe(true);
    expect(subjectMatches('tagsonic.evt.task', 'tagsonic.evt.task')).toBe(true);
    expect(subjectMatches('tagsonic.evt.task', 'tagsonic.evt.tasks')).toBe(false);
  });

  it('detects overlapping filters', () => {
    expect(patternsOverlap('a.>', 'a.b')).toBe(true);
    expect(patternsOverlap('a.*', 'a.b.c')).toBe(false);
    expect(patternsOverlap('a.*.c', 'a.b.*')).toBe(true);
    expect(patternsOverlap('a.b', 'a.c')).toBe(false);
    expect(patternsOverlap('a.>', 'a')).toBe(false);
    expect(patternsOverlap('a.*', 'a.>')).toBe(true);
  });
});
