import type { Collection, Store } from '../store/port.ts';
import type { Bus, DeadLetter } from '../bus/port.ts';
import { newId } from '../ids.ts';
import { conflict, notFound } from '../errors/errors.ts';
import { SUBJECTS } from './subjects.ts';
import { TaskLeases } from './leases.ts';
import { finalStatus, settleOrphanedTasks, type SettleOptions, type SettleReport } from './settle.ts';
import type { AuditLogDoc, ItemOutcome, ItemStatus, TaskDoc, TaskItemDoc, TaskProgress } from './model.ts';

export type { AuditLogDoc, ItemOutcome, ItemStatus, TaskDoc, TaskItemDoc, TaskProgress, TaskStatus } from './model.ts';

const FINAL_ITEM: ItemStatus[] = ['success', 'fail', 'miss', 'skip', 'stop'];

/**
 * Tasks and their items: every batch action is a task with one item per file/folder, each item one
 * bus command (msgId = item id). Item state changes are conditional updates, so redelivered commands
 * and concurrent workers never count an item twice.
 */
export class Tasks {
  private readonly tasks: Collection<TaskDoc>;
  private readonly items: Collection<TaskItemDoc>;
  private readonly audit: Collection<AuditLogDoc>;
  private readonly bus: Bus;
  /** This process's lease: its owner id is stamped on the tasks it creates and the items it works on. */
  readonly leases: TaskLeases;

  constructor(store: Store, bus: Bus, options: { leases?: TaskLeases } = {}) {
    this.tasks = store.collection<TaskDoc>('tasks');
    this.items = store.collection<TaskItemDoc>('task_items');
    this.audit = store.collection<AuditLogDoc>('audit_log');
    this.bus = bus;
    this.leases = options.leases ?? new TaskLeases(store);
  }

  /** Gives this process's lease up (what it left is then settled by the next start). */
  async close(): Promise<void> {
    await this.leases.close();
  }

  async init(): Promise<void> {
    await this.tasks.createIndexes([{ keys: { createdAt: -1 } }, { keys: { status: 1 } }]);
    await this.items.createIndexes([{ keys: { taskId: 1, seq: 1 } }, { keys: { taskId: 1, status: 1 } }]);
    await this.audit.createIndexes([{ keys: { createdAt: -1 } }, { keys: { taskId: 1 } }, { keys: { action: 1, createdAt: -1 } }]);
  }

  /** Records the task, its items and its audit entry, then queues one command per item. */
  async create(input: {
    kind: string;
    action: string;
    actor: string;
    subject: string;
    items: Array<{ path: string | null; payload: Record<string, unknown> }>;
    extra?: string;
    /** The task's id when the caller needed it before creating it (e.g. to journal work done first). */
    id?: string;
  }): Promise<TaskDoc> {
    await this.leases.ensure();
    const now = new Date();
    const task: TaskDoc = {
      _id: input.id ?? newId(),
      kind: input.kind,
      action: input.action,
      actor: input.actor,
      status: input.items.length ? 'running' : 'success',
      total: input.items.length,
      counts: { success: 0, fail: 0, miss: 0, skip: 0, stop: 0 },
      createdAt: now,
      completedAt: input.items.length ? null : now,
      owner: this.leases.ownerId,
      subject: input.subject,
      settling: null,
    };
    const items: TaskItemDoc[] = input.items.map((it, seq) => ({
      _id: newId(),
      taskId: task._id,
      seq,
      path: it.path,
      status: 'pending',
      payload: it.payload,
      error: null,
      errorCode: null,
      result: null,
      attempts: 0,
      dead: false,
      owner: null,
      updatedAt: now,
    }));
    await this.tasks.insertOne(task);
    if (items.length) await this.items.insertMany(items);
    await this.audit.insertOne({
      _id: newId(),
      taskId: task._id,
      user: input.actor,
      level: 'info',
      action: input.action,
      extra: input.extra ?? `${items.length} item(s)`,
      status: task.status,
      createdAt: now,
    });
    for (const item of items) {
      await this.bus.send(input.subject, { taskId: task._id, itemId: item._id, ...item.payload }, { msgId: item._id });
    }
    return task;
  }

  async get(taskId: string): Promise<TaskDoc> {
    const t = await this.tasks.findOne({ _id: taskId });
    if (!t) throw notFound('TAGSONIC_ERR_TASK_NOT_FOUND', `No task ${taskId}.`);
    return t;
  }

  async listItems(taskId: string): Promise<TaskItemDoc[]> {
    return this.items.find({ taskId }, { sort: { seq: 1 } });
  }

  /**
   * Claims an item for work under this process's lease. Returns null when there is nothing to do:
   * already finished (a redelivery), its task was stopped (the item is then marked stop), or a
   * settle after a crash is under way (the item goes back to pending; the settle queues it again).
   */
  async startItem(itemId: string): Promise<TaskItemDoc | null> {
    await this.leases.ensure();
    const owner = this.leases.ownerId;
    const item = await this.items.findOneAndUpdate(
      { _id: itemId, status: { $in: ['pending', 'running'] } },
      { $set: { status: 'running', owner, updatedAt: new Date() }, $inc: { attempts: 1 } },
    );
    if (!item) return null;
    const task = await this.tasks.findOne({ _id: item.taskId });
    if (!task || task.status === 'stop') {
      await this.finishItem(itemId, { status: 'stop' });
      return null;
    }
    if (task.settling) {
      await this.items.updateOne({ _id: itemId, status: 'running', owner }, { $set: { status: 'pending', owner: null }, $inc: { attempts: -1 } });
      return null;
    }
    return item;
  }

  /** Settles an item once; later calls for the same item change nothing. */
  async finishItem(itemId: string, outcome: ItemOutcome): Promise<TaskProgress | null> {
    const item = await this.items.findOneAndUpdate(
      { _id: itemId, status: { $nin: FINAL_ITEM } },
      {
        $set: {
          status: outcome.status,
          error: outcome.error ?? null,
          errorCode: outcome.errorCode ?? null,
          result: outcome.result ?? null,
          dead: outcome.dead ?? false,
          updatedAt: new Date(),
        },
      },
    );
    if (!item) return null;
    const task = await this.tasks.findOneAndUpdate({ _id: item.taskId }, { $inc: { [`counts.${outcome.status}`]: 1 } });
    if (!task) return null;
    const done = Object.values(task.counts).reduce((a, b) => a + b, 0);
    let status = task.status;
    if (done >= task.total && task.status === 'running') {
      status = finalStatus(task.counts);
      const finished = await this.tasks.findOneAndUpdate(
        { _id: task._id, status: 'running' },
        { $set: { status, completedAt: new Date() } },
      );
      if (finished) {
        await this.audit.updateMany({ taskId: task._id }, { $set: { status, level: task.counts.fail ? 'warning' : 'info' } });
      }
    }
    const progress: TaskProgress = { taskId: task._id, status, total: task.total, done, counts: task.counts };
    await this.bus.publish(SUBJECTS.taskProgressed, progress);
    if (done >= task.total) await this.bus.publish(SUBJECTS.taskCompleted, progress);
    return progress;
  }

  /** Stops a running task: queued items end as stop when a worker reaches them. */
  async stop(taskId: string): Promise<void> {
    const res = await this.tasks.updateOne({ _id: taskId, status: 'running' }, { $set: { status: 'stop', completedAt: new Date() } });
    if (res.matchedCount === 0) {
      await this.get(taskId);
      throw conflict('TAGSONIC_ERR_TASK_NOT_RUNNING', 'The task is not running.');
    }
    await this.audit.updateMany({ taskId }, { $set: { status: 'stop' } });
  }

  /**
   * Settles the tasks left unfinished by processes that died (their leases are dead): see
   * settle.ts. Run at a worker's start, before it consumes, and then now and then.
   */
  async settleOrphans(options: SettleOptions = {}): Promise<SettleReport[]> {
    return settleOrphanedTasks({ tasks: this.tasks, items: this.items, audit: this.audit, bus: this.bus, leases: this.leases }, options);
  }

  /** Bus dead letters end as failed items, visible in the task report. */
  async deadLetter(letter: DeadLetter): Promise<void> {
    const payload = letter.payload as { itemId?: string } | null;
    if (!payload?.itemId) return;
    await this.finishItem(payload.itemId, {
      status: 'fail',
      dead: true,
      errorCode: 'TAGSONIC_ERR_TASK_GAVE_UP',
      error: `Gave up after ${letter.deliveryCount} attempt(s)${letter.error ? `: ${letter.error}` : ''}.`,
    });
  }
}
