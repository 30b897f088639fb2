import type { Collection, Store } from '../store/port.ts';
import type { TaskDoc, TaskItemDoc } from '../tasks/tasks.ts';
import { VERSION } from '../config/config.ts';

/** One notification of the bell (spec: "Notification/record"). */
export interface RecordItem {
  id: string;
  task_id: string;
  title: string;
  content: string;
  /**
   * What `title` and `content` say (they are the spec's Chinese texts), as data the dashboard words in
   * its interface language: the task's action name (手动修改), its failed and total item counts, and the
   * first failed item with its English error and, when the failure was a TagsonicError, its code.
   */
  action: string;
  failed_count: number;
  total: number;
  path: string | null;
  error: string | null;
  error_code: string | null;
  /** ISO 8601. */
  update_at: string;
  /** The project version that ran the task; the client shows records of the current version and later. */
  version: string;
  read: boolean;
}

interface ReadMarkDoc {
  /** The username. */
  _id: string;
  readUntil: Date;
  [key: string]: unknown;
}

/**
 * Failed-task notifications, derived from the tasks themselves (nothing to keep in sync): a task
 * that finished with at least one failed item is a record. Reading is remembered per user as a
 * time: everything finished before it is read.
 */
export class Records {
  private readonly tasks: Collection<TaskDoc>;
  private readonly items: Collection<TaskItemDoc>;
  private readonly marks: Collection<ReadMarkDoc>;

  constructor(store: Store) {
    this.tasks = store.collection<TaskDoc>('tasks');
    this.items = store.collection<TaskItemDoc>('task_items');
    this.marks = store.collection<ReadMarkDoc>('record_reads');
  }

  /** Failed tasks of `actor` (every user's when null), newest first. */
  async failed(actor: string | null, pageSize: number): Promise<{ items: RecordItem[]; unread_count: number }> {
    const filter: Record<string, unknown> = { completedAt: { $ne: null }, $or: [{ status: 'fail' }, { 'counts.fail': { $gt: 0 } }] };
    if (actor !== null) filter.actor = actor;
    const readUntil = (await this.marks.findOne({ _id: actor ?? '*' }))?.readUntil ?? new Date(0);
    const [tasks, unread] = await Promise.all([
      this.tasks.find(filter, { sort: { completedAt: -1 }, limit: pageSize }),
      this.tasks.countDocuments({ ...filter, completedAt: { $gt: readUntil } }),
    ]);
    const items: RecordItem[] = [];
    for (const task of tasks) {
      const [first] = await this.items.find({ taskId: task._id, status: 'fail' }, { sort: { seq: 1 }, limit: 1 });
      const n = task.counts.fail;
      const detail = first ? `${first.path ? `${first.path}: ` : ''}${first.error ?? ''}` : '';
      const completedAt = new Date(task.completedAt ?? task.createdAt);
      items.push({
        id: task._id,
        task_id: task._id,
        title: `${task.action} 失败`,
        content: `${n} 个文件失败（共 ${task.total} 个）${detail ? `：${detail}` : ''}`,
        action: task.action,
        failed_count: n,
        total: task.total,
        path: first?.path ?? null,
        error: first?.error ?? null,
        error_code: first?.errorCode ?? null,
        update_at: completedAt.toISOString(),
        version: typeof task.version === 'string' ? task.version : VERSION.project,
        read: completedAt <= readUntil,
      });
    }
    return { items, unread_count: unread };
  }

  /** Marks everything finished up to now as read. */
  async markRead(actor: string | null): Promise<void> {
    await this.marks.updateOne({ _id: actor ?? '*' }, { $set: { readUntil: new Date() } }, { upsert: true });
  }
}
