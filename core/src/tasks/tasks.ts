import type { Collection, Store } from '../store/port.ts';
import type { Bus, DeadLetter } from '../bus/port.ts';
import { newId } from '../ids.ts';
import { conflict, notFound } from '../errors/errors.ts';
import { SUBJECTS } from './subjects.ts';

/** Task status from the spec: running, success, fail, miss, stop. */
export type TaskStatus = 'running' | 'success' | 'fail' | 'miss' | 'stop';
/** Item status: waiting in the queue, being worked on, or one of the report outcomes. */
export type ItemStatus = 'pending' | 'running' | 'success' | 'fail' | 'miss' | 'skip' | 'stop';
const FINAL_ITEM: ItemStatus[] = ['success', 'fail', 'miss', 'skip', 'stop'];

export interface TaskDoc {
  _id: string;
  /** Machine kind, e.g. `tags.write`. */
  kind: string;
  /** The action name shown in the operation log, e.g. 手动修改. */
  action: string;
  actor: string;
  status: TaskStatus;
  total: number;
  counts: Record<'success' | 'fail' | 'miss' | 'skip' | 'stop', number>;
  createdAt: Date;
  completedAt: Date | null;
  [key: string]: unknown;
}

export interface TaskItemDoc {
  _id: string;
  taskId: string;
  /** Sequence inside the task, for stable report order. */
  seq: number;
  path: string | null;
  status: ItemStatus;
  payload: Record<string, unknown>;
  error: string | null;
  result: Record<string, unknown> | null;
  attempts: number;
  /** True when the bus gave up delivering it (dead letter). */
  dead: boolean;
  updatedAt: Date;
  [key: string]: unknown;
}

export interface AuditLogDoc {
  _id: string;
  taskId: string | null;
  user: string;
  level: 'info' | 'warning' | 'error';
  action: string;
  extra: string;
  status: TaskStatus | string;
  createdAt: Date;
  [key: string]: unknown;
}

export interface ItemOutcome {
  status: Exclude<ItemStatus, 'pending' | 'running'>;
  error?: string;
  result?: Record<string, unknown>;
  dead?: boolean;
}

export interface TaskProgress {
  taskId: string;
  status: TaskStatus;
  total: number;
  done: number;
  counts: TaskDoc['counts'];
}

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

  constructor(store: Store, bus: Bus) {
    this.tasks = store.collection<TaskDoc>('tasks');
    this.items = store.collection<TaskItemDoc>('task_items');
    this.audit = store.collection<AuditLogDoc>('audit_log');
    this.bus = bus;
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
    };
    const items: TaskItemDoc[] = input.items.map((it, seq) => ({
      _id: newId(),
      taskId: task._id,
      seq,
      path: it.path,
      status: 'pending',
      payload: it.payload,
      error: null,
      result: null,
      attempts: 0,
      dead: false,
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
   * Claims an item for work. Returns null when there is nothing to do: already finished (a
   * redelivery), or its task was stopped (the item is then marked stop).
   */
  async startItem(itemId: string): Promise<TaskItemDoc | null> {
    const item = await this.items.findOneAndUpdate(
      { _id: itemId, status: { $in: ['pending', 'running'] } },
      { $set: { status: 'running', updatedAt: new Date() }, $inc: { attempts: 1 } },
    );
    if (!item) return null;
    const task = await this.tasks.findOne({ _id: item.taskId });
    if (!task || task.status === 'stop') {
      await this.finishItem(itemId, { status: 'stop' });
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
      status = task.counts.fail > 0 && task.counts.success === 0 ? 'fail' : 'success';
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

  /** Bus dead letters end as failed items, visible in the task report. */
  async deadLetter(letter: DeadLetter): Promise<void> {
    const payload = letter.payload as { itemId?: string } | null;
    if (!payload?.itemId) return;
    await this.finishItem(payload.itemId, {
      status: 'fail',
      dead: true,
      error: `Gave up after ${letter.deliveryCount} attempt(s)${letter.error ? `: ${letter.error}` : ''}.`,
    });
  }
}
