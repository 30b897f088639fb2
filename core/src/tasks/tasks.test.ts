import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '../store/index.ts';
import type { Store } from '../store/port.ts';
import { createMemoryBus } from '../bus/memory.ts';
import type { Bus } from '../bus/port.ts';
import { Tasks, type TaskProgress } from './tasks.ts';
import { SUBJECTS } from './subjects.ts';

let dir: string;
let store: Store;
let bus: Bus;
let tasks: Tasks;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-tasks-'));
  store = await openEmbeddedStore({ dir });
  bus = createMemoryBus();
  tasks = new Tasks(store, bus);
  await tasks.init();
});
afterEach(async () => {
  await bus.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const SUBJECT = 'tagsonic.cmd.test.work';

describe('Tasks', () => {
  it('queues one command per item and finishes once every item settled', async () => {
    const completed: TaskProgress[] = [];
    bus.subscribe<TaskProgress>(SUBJECTS.taskCompleted, (_s, p) => completed.push(p));
    const task = await tasks.create({
      kind: 'test',
      action: '手动修改',
      actor: 'admin',
      subject: SUBJECT,
      items: ['a', 'b', 'c'].map((p) => ({ path: `/m/${p}`, payload: { p } })),
    });
    const seen: string[] = [];
    await bus.consume<{ itemId: string; p: string; taskId: string }>(
      SUBJECT,
      async (d) => {
        expect(d.msgId).toBe(d.payload.itemId);
        expect(d.payload.taskId).toBe(task._id);
        const item = await tasks.startItem(d.payload.itemId);
        if (!item) return;
        seen.push(d.payload.p);
        await tasks.finishItem(item._id, d.payload.p === 'b' ? { status: 'fail', error: 'boom' } : { status: 'success' });
      },
      { durable: 'test', concurrency: 2, ackWaitMs: 5000, maxDeliver: 3 },
    );
    await expect.poll(() => completed.length).toBe(1);
    expect(seen.sort()).toEqual(['a', 'b', 'c']);
    const done = await tasks.get(task._id);
    expect(done.status).toBe('success');
    expect(done.counts).toMatchObject({ success: 2, fail: 1 });
    expect(done.completedAt).toBeInstanceOf(Date);
    const items = await tasks.listItems(task._id);
    expect(items.map((i) => i.status)).toEqual(['success', 'fail', 'success']);
    expect(items[1].error).toBe('boom');
    const audit = await store.collection('audit_log').find({ taskId: task._id });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ user: 'admin', action: '手动修改', status: 'success', level: 'warning' });
  });

  it('counts an item once however often it is settled or redelivered', async () => {
    const task = await tasks.create({ kind: 'test', action: 'x', actor: 'a', subject: SUBJECT, items: [{ path: null, payload: {} }] });
    const [item] = await tasks.listItems(task._id);
    expect(await tasks.startItem(item._id)).not.toBeNull();
    const results = await Promise.all(Array.from({ length: 10 }, () => tasks.finishItem(item._id, { status: 'success' })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await tasks.startItem(item._id)).toBeNull();
    const t = await tasks.get(task._id);
    expect(t.counts.success).toBe(1);
    expect(t.status).toBe('success');
  });

  it('stops a task: queued items end as stop and the task stays stopped', async () => {
    const task = await tasks.create({
      kind: 'test',
      action: 'x',
      actor: 'a',
      subject: SUBJECT,
      items: [1, 2, 3].map((n) => ({ path: null, payload: { n } })),
    });
    await tasks.stop(task._id);
    await expect(tasks.stop(task._id)).rejects.toMatchObject({ code: 'TAGSONIC_ERR_TASK_NOT_RUNNING' });
    for (const item of await tasks.listItems(task._id)) expect(await tasks.startItem(item._id)).toBeNull();
    const t = await tasks.get(task._id);
    expect(t.status).toBe('stop');
    expect(t.counts.stop).toBe(3);
    expect((await tasks.listItems(task._id)).every((i) => i.status === 'stop')).toBe(true);
  });

  it('turns bus dead letters into failed items visible in the report', async () => {
    const task = await tasks.create({ kind: 'test', action: 'x', actor: 'a', subject: SUBJECT, items: [{ path: '/m/x', payload: {} }] });
    await bus.consume(
      SUBJECT,
      async () => {
        throw new Error('disk on fire');
      },
      { durable: 'dead', concurrency: 1, ackWaitMs: 2000, maxDeliver: 2, retryDelayMs: () => 10, onDeadLetter: (l) => tasks.deadLetter(l) },
    );
    await expect.poll(async () => (await tasks.get(task._id)).status).toBe('fail');
    const [item] = await tasks.listItems(task._id);
    expect(item.dead).toBe(true);
    expect(item.error).toMatch(/Gave up after 2 attempt\(s\): disk on fire/);
  });

  it('reports unknown tasks clearly', async () => {
    await expect(tasks.get('nope')).rejects.toMatchObject({ kind: 'not_found', code: 'TAGSONIC_ERR_TASK_NOT_FOUND' });
  });
});
