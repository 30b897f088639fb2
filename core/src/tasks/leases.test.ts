import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '../store/index.ts';
import type { Store } from '../store/port.ts';
import { createMemoryBus } from '../bus/memory.ts';
import type { Bus } from '../bus/port.ts';
import { Records } from '../records/records.ts';
import { TaskLeases, type TaskLeaseOptions } from './leases.ts';
import { Tasks, type TaskDoc, type TaskItemDoc } from './tasks.ts';

let dir: string;
let store: Store;
let bus: Bus;
let clock: number;
const TTL = 30_000;
const opened: TaskLeases[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-leases-'));
  store = await openEmbeddedStore({ dir });
  bus = createMemoryBus();
  clock = Date.UTC(2026, 0, 1);
});
afterEach(async () => {
  for (const l of opened.splice(0)) await l.close();
  await bus.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

function lease(ownerId: string, options: TaskLeaseOptions = {}): TaskLeases {
  const l = new TaskLeases(store, { ownerId, ttlMs: TTL, now: () => clock, host: `host-${ownerId}`, pid: 100, pidAlive: () => true, ...options });
  opened.push(l);
  return l;
}

describe('TaskLeases', () => {
  it('holds a lease until its ttl runs out without a heartbeat, and a heartbeat renews it', async () => {
    const a = lease('A');
    const observer = lease('O');
    await a.heartbeat();
    clock += TTL - 1;
    expect([...(await observer.liveOwners(['A', 'nobody', null]))]).toEqual(['A']);
    await a.heartbeat();
    clock += TTL - 1;
    expect((await observer.liveOwners(['A'])).has('A')).toBe(true);
    clock += 1;
    expect((await observer.liveOwners(['A'])).size).toBe(0);
    expect(await observer.othersAlive()).toBe(false);
  });

  it('on the same host, a lease whose process is gone is dead at once (kill -9, then a restart)', async () => {
    const running = new Set([100]);
    const old = lease('old', { host: 'box', pid: 100 });
    await old.heartbeat();
    const fresh = lease('fresh', { host: 'box', pid: 200, pidAlive: (pid) => running.has(pid) });
    expect((await fresh.liveOwners(['old'])).has('old')).toBe(true);
    running.delete(100);
    expect((await fresh.liveOwners(['old'])).size).toBe(0);
    // A container restart: the new process has the dead one's pid.
    const container = lease('container', { host: 'box', pid: 100, pidAlive: () => true });
    expect((await container.liveOwners(['old'])).size).toBe(0);
    // Another host's process cannot be probed: only its expiry counts.
    const remote = lease('remote', { host: 'elsewhere', pid: 100, pidAlive: () => false });
    await remote.heartbeat();
    expect((await fresh.liveOwners(['remote'])).has('remote')).toBe(true);
  });

  it('gives the lease up on close, and forgets owners expired for a day', async () => {
    const a = lease('A');
    const b = lease('B');
    await a.ensure();
    expect(await b.othersAlive()).toBe(true);
    await a.close();
    expect((await b.liveOwners(['A'])).size).toBe(0);
    await b.heartbeat();
    clock += 25 * 3600_000;
    await b.forgetExpired();
    expect(await store.collection('task_owners').countDocuments({})).toBe(0);
  });
});

const SUBJECT = 'tagsonic.cmd.test.work';

describe('settling tasks of dead owners', () => {
  async function twoProcesses() {
    const a = new Tasks(store, bus, { leases: lease('A') });
    const b = new Tasks(store, bus, { leases: lease('B') });
    await a.init();
    const task = await a.create({
      kind: 'test',
      action: '手动修改',
      actor: 'alice',
      subject: SUBJECT,
      items: [1, 2, 3, 4].map((n) => ({ path: `/m/${n}`, payload: { n } })),
    });
    const items = await a.listItems(task._id);
    return { a, b, task, items };
  }

  it('leaves a task alone while its owner or a worker on it is live, then resumes it with counts recounted', async () => {
    const { a, b, task, items } = await twoProcesses();
    // A settled item 1 but died before counting it; item 2 was in flight; 3 and 4 were queued.
    await a.startItem(items[0]._id);
    await store.collection<TaskItemDoc>('task_items').updateOne({ _id: items[0]._id }, { $set: { status: 'success' } });
    await a.startItem(items[1]._id);
    expect((await a.get(task._id)).counts.success).toBe(0);

    expect(await b.settleOrphans()).toEqual([]);
    // A's lease runs out, but worker C, live, still holds item 2: still not B's to settle.
    const c = new Tasks(store, bus, { leases: lease('C') });
    await c.startItem(items[1]._id);
    clock += TTL;
    await c.leases.heartbeat();
    expect(await b.settleOrphans()).toEqual([]);
    clock += TTL;

    const [report] = await b.settleOrphans();
    expect(report).toMatchObject({ taskId: task._id, status: 'running', succeeded: 0, failed: 0, resumed: 3, counts: { success: 1 } });
    const settled = await b.get(task._id);
    expect(settled).toMatchObject({ status: 'running', owner: 'B', settling: null, counts: { success: 1, fail: 0 } });
    expect((await b.listItems(task._id)).map((i) => i.status)).toEqual(['success', 'pending', 'pending', 'pending']);

    // The resumed commands are on the bus again; a worker finishes the task with the right counts.
    const seen: number[] = [];
    await bus.consume<{ itemId: string; n: number }>(
      SUBJECT,
      async (d) => {
        if (!(await b.startItem(d.payload.itemId))) return;
        seen.push(d.payload.n);
        await b.finishItem(d.payload.itemId, { status: 'success' });
      },
      { durable: 'resume', concurrency: 1, ackWaitMs: 5000, maxDeliver: 3 },
    );
    await expect.poll(async () => (await b.get(task._id)).status).toBe('success');
    expect(seen).toEqual([2, 3, 4]);
    expect((await b.get(task._id)).counts).toEqual({ success: 4, fail: 0, miss: 0, skip: 0, stop: 0 });
  });

  it('fails items that cannot be resumed with the reason, ends the task and raises its notification', async () => {
    const { b, task } = await twoProcesses();
    clock += TTL;
    const [report] = await b.settleOrphans({
      settlers: {
        test: async () => async (item: TaskItemDoc) =>
          item.path === '/m/1' ? { status: 'success' as const, result: { from: 'journal' } } : { status: 'fail' as const, error: `${item.path} is gone` },
      },
    });
    expect(report).toMatchObject({ status: 'success', succeeded: 1, failed: 3, resumed: 0 });
    const done = await b.get(task._id);
    expect(done.status).toBe('success');
    expect(done.completedAt).toBeInstanceOf(Date);
    expect(done.counts).toEqual({ success: 1, fail: 3, miss: 0, skip: 0, stop: 0 });
    const records = await new Records(store).failed('alice', 20);
    expect(records.unread_count).toBe(1);
    expect(records.items[0]).toMatchObject({ task_id: task._id, title: '手动修改 失败', content: '3 个文件失败（共 4 个）：/m/2: /m/2 is gone' });
    expect(await store.collection('audit_log').findOne({ taskId: task._id })).toMatchObject({ status: 'success', level: 'warning' });
  });

  it('fails a task whose kind nobody can resume (a task from before subjects were recorded)', async () => {
    const { b, task } = await twoProcesses();
    await store.collection<TaskDoc>('tasks').updateOne({ _id: task._id }, { $unset: { subject: '', owner: '', settling: '' } });
    const [report] = await b.settleOrphans({ graceMs: 0 });
    expect(report.status).toBe('fail');
    const items = await b.listItems(task._id);
    expect(items.every((i) => i.status === 'fail' && i.error === 'No worker knows how to resume a "test" task after a crash.')).toBe(true);
  });

  it('one settler wins a task; workers leave its items alone while it settles', async () => {
    const { b, task, items } = await twoProcesses();
    clock += TTL;
    const d = new Tasks(store, bus, { leases: lease('D') });
    await store.collection<TaskDoc>('tasks').updateOne({ _id: task._id }, { $set: { settling: 'B', owner: 'B' } });
    await b.leases.ensure();
    expect(await d.startItem(items[2]._id)).toBeNull();
    expect((await d.listItems(task._id))[2]).toMatchObject({ status: 'pending', owner: null, attempts: 0 });
    expect(await d.settleOrphans()).toEqual([]);
  });

  it('gives the task back when a live worker had started an item just before the claim, and re-queues what was put back', async () => {
    const { b, task, items } = await twoProcesses();
    clock += TTL;
    const c = lease('C');
    await c.heartbeat();
    const itemsCol = store.collection<TaskItemDoc>('task_items');
    // While B waits after its claim, worker C turns out to hold item 1.
    setTimeout(() => void itemsCol.updateOne({ _id: items[0]._id }, { $set: { status: 'running', owner: 'C' } }), 20);
    expect(await b.settleOrphans({ graceMs: 150 })).toEqual([]);
    expect(await b.get(task._id)).toMatchObject({ status: 'running', settling: null, owner: 'B' });
    expect((await b.listItems(task._id)).map((i) => i.status)).toEqual(['running', 'pending', 'pending', 'pending']);
    const seen: number[] = [];
    await bus.consume<{ n: number }>(SUBJECT, async (d) => void seen.push(d.payload.n), { durable: 'back', concurrency: 1, ackWaitMs: 5000, maxDeliver: 1 });
    // The original commands of the dead creator are still queued in the in-process bus, plus B's copies of 2-4.
    await expect.poll(() => seen.length).toBe(7);
    expect(seen.slice(4).sort()).toEqual([2, 3, 4]);
  });

  it('ends a task a live process holds once all its items are final but a dead worker never counted the last one', async () => {
    const { a, task, items } = await twoProcesses();
    for (const item of items.slice(0, 3)) {
      await a.startItem(item._id);
      await a.finishItem(item._id, { status: 'success' });
    }
    // Worker W settled item 4 and died before its count.
    await store.collection<TaskItemDoc>('task_items').updateOne({ _id: items[3]._id }, { $set: { status: 'fail', owner: 'W', error: 'bad file' } });
    expect(await a.settleOrphans({ graceMs: 10 })).toMatchObject([{ taskId: task._id, status: 'success', counts: { success: 3, fail: 1 } }]);
    expect(await a.get(task._id)).toMatchObject({ status: 'success', owner: 'A', counts: { success: 3, fail: 1 } });
    expect(await a.settleOrphans({ graceMs: 10 })).toEqual([]);
  });
});
