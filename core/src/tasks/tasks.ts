import type { Collection, Store } from '../store/port.ts';
import type { Bus, DeadLetter } from '../bus/port.ts';
import { newId } from '../ids.ts';
import { conflict, notFound } from '../errors/errors.ts';
import { SUBJECTS } from './subjects.ts';
import { TaskLeases } from './leases.ts';
import { auditLevel, finalStatus, settleOrphanedTasks, type SettleOptions, type SettleReport } from './settle.ts';
import type { AuditLogDoc, ItemOutcome, ItemStatus, TaskDoc, TaskItemDoc, TaskProgress } from './model.ts';

export type { AuditLogDoc, ItemOutcome, ItemStatus, TaskDoc, TaskItemDoc, TaskProgress, TaskStatus } from './model.ts';

const FINAL_ITEM: ItemStatus[] = ['success', 'fail', 'miss', 'skip', 'stop'];

/** Items per second since the task started, and the seconds left at that pace (progress events, reports). */
export function pace(task: Pick<TaskDoc, 'createdAt' | 'total'>, done: number, now = Date.now()): { items_per_sec: number; eta_sec: number | null } {
  const seconds = Math.max((now - new Date(task.createdAt).getTime()) / 1000, 0.001);
  const rate = done / seconds;
  return { items_per_sec: Math.round(rate * 100) / 100, eta_sec: done >= task.total ? 0 : rate > 0 ? Math.round((task.total - done) / rate) : null };
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
    /** More fields kept on the task document (a batch action's plugin, options, dry-run flag). */
    fields?: Record<string, unknown>;
  }): Promise<TaskDoc> {
    await this.leases.ensure();
    const now = new Date();
    const task: TaskDoc = {
      ...input.fields,
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
        await this.audit.updateMany({ taskId: task._id }, { $set: { status, level: auditLevel(status, task.counts) } });
      }
    }
    const progress: TaskProgress = { taskId: task._id, status, total: task.total, done, counts: task.counts, ...pace(task, done) };
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
   * Stops one queued item (the report's stop per row): it ends as `stop` and is counted; its command, when a
   * worker reaches it, finds it final and does nothing. A running item is past stopping.
   */
  async stopItem(itemId: string): Promise<TaskProgress | null> {
    const item = await this.items.findOne({ _id: itemId });
    if (!item) throw notFound('TAGSONIC_ERR_TASK_ITEM_NOT_FOUND', `No task item ${itemId}.`);
    if (item.status !== 'pending') {
      throw conflict('TAGSONIC_ERR_TASK_ITEM_NOT_QUEUED', item.status === 'running' ? 'The item is running already; it cannot be stopped now.' : 'The item has finished already.');
    }
    const progress = await this.finishItem(itemId, { status: 'stop' });
    if (!progress) throw conflict('TAGSONIC_ERR_TASK_ITEM_NOT_QUEUED', 'The item started or finished meanwhile.');
    return progress;
  }

  /**
   * Changes a finished item's status by hand (a missed item the user completed in the editor becomes success),
   * moving it between the task's counts; a finished task's final status follows.
   */
  async setItemStatus(itemId: string, status: 'success' | 'skip' | 'fail' | 'miss'): Promise<TaskItemDoc> {
    const item = await this.items.findOne({ _id: itemId });
    if (!item) throw notFound('TAGSONIC_ERR_TASK_ITEM_NOT_FOUND', `No task item ${itemId}.`);
    if (!FINAL_ITEM.includes(item.status) || item.status === 'stop') {
      throw conflict('TAGSONIC_ERR_TASK_ITEM_NOT_FINISHED', 'Only a finished item (success, skip, fail or miss) can change its status.');
    }
    if (item.status === status) return item;
    const changed = await this.items.findOneAndUpdate(
      { _id: itemId, status: item.status },
      { $set: { status, updatedAt: new Date(), ...(status === 'success' ? { error: null, errorCode: null } : {}) } },
      { returnDocument: 'after' },
    );
    if (!changed) throw conflict('TAGSONIC_ERR_TASK_ITEM_NOT_FINISHED', 'The item changed meanwhile; reload the report.');
    const task = await this.tasks.findOneAndUpdate(
      { _id: item.taskId },
      { $inc: { [`counts.${item.status}`]: -1, [`counts.${status}`]: 1 } },
      { returnDocument: 'after' },
    );
    if (task && task.status !== 'running' && task.status !== 'stop') {
      const final = finalStatus(task.counts);
      await this.tasks.updateOne({ _id: task._id }, { $set: { status: final } });
      await this.audit.updateMany({ taskId: task._id }, { $set: { status: final, level: auditLevel(final, task.counts) } });
    }
    return changed;
  }

  /** One page of the operation log, newest first, with the number of entries the filters match. */
  async listAudit(filter: { action?: string; user?: string; level?: string; status?: string }, page: { page: number; pageSize: number }): Promise<{ items: AuditLogDoc[]; count: number }> {
    const query: Record<string, unknown> = {};
    for (const key of ['action', 'user', 'level', 'status'] as const) if (filter[key]) query[key] = filter[key];
    const [items, count] = await Promise.all([
      this.audit.find(query, { sort: { createdAt: -1, _id: -1 }, skip: (page.page - 1) * page.pageSize, limit: page.pageSize }),
      this.audit.countDocuments(query),
    ]);
    return { items, count };
  }

  /** Tasks matching a filter (e.g. the delete tasks made from one report: `{ kind: 'files.delete', sourceTaskId }`), oldest first. */
  async findTasks(filter: Record<string, unknown>): Promise<TaskDoc[]> {
    return this.tasks.find(filter, { sort: { createdAt: 1 } });
  }

  /** Items of any task matching a filter (a report section drawn from several tasks), in task then report order. */
  async findItemsAcross(filter: Record<string, unknown>, page?: { skip: number; limit: number }): Promise<TaskItemDoc[]> {
    return this.items.find(filter, { sort: { updatedAt: 1, seq: 1 }, ...(page ?? {}) });
  }

  async countItemsAcross(filter: Record<string, unknown>): Promise<number> {
    return this.items.countDocuments(filter);
  }

  /** A task's items matching a filter (a report section: `{ status: 'miss', 'result.report.miss': 'artist' }`), in report order. */
  async findItemsWhere(taskId: string, filter: Record<string, unknown>, page?: { skip: number; limit: number }): Promise<TaskItemDoc[]> {
    return this.items.find({ ...filter, taskId }, { sort: { seq: 1 }, ...(page ?? {}) });
  }

  async countItemsWhere(taskId: string, filter: Record<string, unknown>): Promise<number> {
    return this.items.countDocuments({ ...filter, taskId });
  }

  /** A task's items in one status (or several), in report order, one page at a time. */
  async findItems(taskId: string, status: ItemStatus | ItemStatus[], page?: { skip: number; limit: number }): Promise<TaskItemDoc[]> {
    return this.items.find({ taskId, status: Array.isArray(status) ? { $in: status } : status }, { sort: { seq: 1 }, ...(page ?? {}) });
  }

  async findItemsById(ids: string[]): Promise<TaskItemDoc[]> {
    return this.items.find({ _id: { $in: ids } });
  }

  /** How many of a task's items are in each status. */
  async countItems(taskId: string): Promise<Record<ItemStatus, number>> {
    const counts = { pending: 0, running: 0, success: 0, fail: 0, miss: 0, skip: 0, stop: 0 } as Record<ItemStatus, number>;
    await Promise.all((Object.keys(counts) as ItemStatus[]).map(async (status) => { counts[status] = await this.items.countDocuments({ taskId, status }); }));
    return counts;
  }

  /**
   * The next start slot of a paced task, across every process: slot n (from 0) may start no earlier than
   * `createdAt + n / rate`, so however many workers share the task it never runs faster than its rate on average.
   */
  async takeSlot(taskId: string, rate: number): Promise<number> {
    const task = await this.tasks.findOneAndUpdate({ _id: taskId }, { $inc: { rateSlots: 1 } }, { returnDocument: 'after' });
    if (!task) return Date.now();
    const slot = Number(task.rateSlots ?? 1) - 1;
    return new Date(task.createdAt).getTime() + (slot * 1000) / rate;
  }

  /** Sets a field of a task that is still null (or absent), once: false when it was set already. */
  async setOnce(taskId: string, field: string, value: unknown): Promise<boolean> {
    const res = await this.tasks.updateOne({ _id: taskId, [field]: null }, { $set: { [field]: value } });
    return res.matchedCount > 0;
  }

  /** Stores fields on a task document (an apply's link to its dry run, an undo's outcome). */
  async annotate(taskId: string, fields: Record<string, unknown>): Promise<void> {
    await this.tasks.updateOne({ _id: taskId }, { $set: fields });
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
