import type { Collection } from '../store/port.ts';
import type { Bus } from '../bus/port.ts';
import { SUBJECTS } from './subjects.ts';
import type { TaskLeases } from './leases.ts';
import type { AuditLogDoc, ItemStatus, TaskDoc, TaskItemDoc, TaskProgress, TaskStatus } from './model.ts';

/** What becomes of an item a dead process left pending or running. */
export type Settlement =
  | { status: 'success'; result?: Record<string, unknown> }
  | { status: 'fail'; error: string; /** TAGSONIC_ERR_* code of the reason (TaskItemDoc.errorCode). */ errorCode?: string }
  | { status: 'resume' };

/**
 * Per task kind: prepares what it needs for one task (e.g. the task's journal entries) and returns
 * the decision for each unfinished item. Kinds without one are resumed (their commands are
 * idempotent), or failed when no subject is known to queue them on.
 */
export type ItemSettler = (task: TaskDoc) => Promise<(item: TaskItemDoc) => Promise<Settlement>>;

export interface SettleOptions {
  /** By task kind; a key ending in `*` covers the kinds it prefixes (`action:*`: every batch action). */
  settlers?: Record<string, ItemSettler>;
  /** Subjects of kinds whose tasks predate `TaskDoc.subject`. */
  subjects?: Record<string, string>;
  /**
   * How long to wait after claiming a task before reading its items, while another live process
   * could be between the two writes of settling an item (default 2 s; skipped when none is live).
   */
  graceMs?: number;
}

export interface SettleReport {
  taskId: string;
  kind: string;
  status: TaskStatus;
  /** Items settled from what their work left behind (e.g. a committed journal write). */
  succeeded: number;
  /** Items that could not be resumed, with their reason. */
  failed: number;
  /** Items queued again. */
  resumed: number;
  counts: TaskDoc['counts'];
}

export interface SettleDeps {
  tasks: Collection<TaskDoc>;
  items: Collection<TaskItemDoc>;
  audit: Collection<AuditLogDoc>;
  bus: Bus;
  leases: TaskLeases;
}

/** The error code of an item a crash interrupted and nothing can resume (settlers use it too). */
export const NOT_RESUMABLE = 'TAGSONIC_ERR_TASK_NOT_RESUMABLE';

const COUNTED: Array<keyof TaskDoc['counts']> = ['success', 'fail', 'miss', 'skip', 'stop'];

/** The operation log's level of a finished task: error when it failed, warning when some items failed. */
export function auditLevel(status: TaskStatus, counts: TaskDoc['counts']): 'info' | 'warning' | 'error' {
  return status === 'fail' ? 'error' : counts.fail ? 'warning' : 'info';
}

/** The status a task ends with once every item is settled: fail when nothing succeeded and something failed. */
export function finalStatus(counts: TaskDoc['counts']): TaskStatus {
  return counts.fail > 0 && counts.success === 0 ? 'fail' : 'success';
}

/**
 * Settles every `running` task no live process holds (see leases.ts): the task's owner and the
 * owners of its running items all have dead leases. One settler wins each task (a conditional
 * claim) and marks it `settling`; a worker that meets the mark puts its item back to pending, so
 * nothing finishes while the items are recounted. When other processes live, the settler waits a
 * grace period after the claim for a finish already under way, and gives the task back if a live
 * worker had started an item just before it.
 *
 * Each unfinished item gets the decision of its kind's settler (success from committed work,
 * fail with the reason, or resume), the counts are recounted from the items (a crash between an
 * item's write and its task's count leaves them behind), and then the task either ends (its
 * completion event and, when it failed, its notification follow) or its pending items are queued
 * again under this process's lease (a duplicate of a command still queued is harmless).
 */
export async function settleOrphanedTasks(deps: SettleDeps, options: SettleOptions = {}): Promise<SettleReport[]> {
  const { tasks, items, leases } = deps;
  await leases.ensure();
  const me = leases.ownerId;
  const reports: SettleReport[] = [];
  let others: boolean | null = null;
  // Workers of other live processes may be between two writes of an item (see startItem): give them time.
  const grace = async () => {
    others ??= await leases.othersAlive();
    if (others) await new Promise((r) => setTimeout(r, options.graceMs ?? 2000));
  };
  for (const task of await tasks.find({ status: 'running' }, { sort: { createdAt: 1 } })) {
    const running = await items.find({ taskId: task._id, status: 'running' });
    const live = await leases.liveOwners([task.owner, task.settling, ...running.map((i) => i.owner)]);
    if (live.size > 0) {
      if (running.length === 0 && !task.settling) {
        const stalled = await completeStalled(deps, task, options.graceMs ?? 2000);
        if (stalled) reports.push(stalled);
      }
      continue;
    }
    const claimed = await tasks.findOneAndUpdate(
      { _id: task._id, status: 'running', owner: task.owner ?? null, settling: task.settling ?? null },
      { $set: { owner: me, settling: me } },
      { returnDocument: 'after' },
    );
    if (!claimed) continue;
    await grace();
    const stillRunning = await items.find({ taskId: task._id, status: 'running' });
    const liveNow = await leases.liveOwners(stillRunning.map((i) => i.owner).filter((o) => o !== me));
    if (liveNow.size > 0) {
      // A live worker started an item just before the claim: it holds the task, which is not orphaned.
      // Workers that met the mark meanwhile put their items back to pending: queue those again.
      await tasks.updateOne({ _id: task._id, settling: me }, { $set: { settling: null } });
      await grace();
      await requeuePending(deps, claimed, claimed.subject ?? options.subjects?.[claimed.kind]);
      continue;
    }
    const report = await settleOne(deps, claimed, options);
    if (report.status === 'running') {
      await grace();
      report.resumed = await requeuePending(deps, claimed, claimed.subject ?? options.subjects?.[claimed.kind]);
      await deps.bus.publish(SUBJECTS.taskProgressed, {
        taskId: task._id,
        status: 'running',
        total: task.total,
        done: sum(report.counts),
        counts: report.counts,
      } satisfies TaskProgress);
    }
    reports.push(report);
  }
  await leases.forgetExpired();
  return reports;
}

/** Queues the task's pending items again (a second copy of a queued command is harmless); returns how many. */
async function requeuePending(deps: SettleDeps, task: TaskDoc, subject: string | undefined): Promise<number> {
  if (!subject) return 0;
  const pending = await deps.items.find({ taskId: task._id, status: 'pending' }, { sort: { seq: 1 } });
  for (const item of pending) {
    await deps.bus.send(subject, { taskId: task._id, itemId: item._id, ...item.payload }, { msgId: `${item._id}.settled-by.${deps.leases.ownerId}` });
  }
  return pending.length;
}

async function settleOne(deps: SettleDeps, task: TaskDoc, options: SettleOptions): Promise<SettleReport> {
  const { tasks, items, leases } = deps;
  const subject = task.subject ?? options.subjects?.[task.kind];
  const settler = settlerOf(options.settlers, task.kind);
  const decide = settler
    ? await settler(task)
    : async (): Promise<Settlement> =>
        subject ? { status: 'resume' } : { status: 'fail', errorCode: NOT_RESUMABLE, error: `No worker knows how to resume a "${task.kind}" task after a crash.` };
  const report: SettleReport = { taskId: task._id, kind: task.kind, status: 'running', succeeded: 0, failed: 0, resumed: 0, counts: task.counts };
  const unfinished = await items.find({ taskId: task._id, status: { $in: ['pending', 'running'] } }, { sort: { seq: 1 } });
  for (const item of unfinished) {
    let decision = await decide(item);
    if (decision.status === 'resume' && !subject) decision = { status: 'fail', errorCode: NOT_RESUMABLE, error: `The "${task.kind}" task does not say which command resumes it.` };
    const now = new Date();
    if (decision.status === 'resume') {
      if (item.status === 'running') await items.updateOne({ _id: item._id, status: 'running' }, { $set: { status: 'pending', owner: null, updatedAt: now } });
      continue;
    }
    const set: Partial<TaskItemDoc> = { status: decision.status as ItemStatus, owner: null, updatedAt: now, dead: false };
    if (decision.status === 'success') Object.assign(set, { error: null, errorCode: null, result: decision.result ?? null });
    else Object.assign(set, { error: decision.error, errorCode: decision.errorCode ?? null });
    const res = await items.updateOne({ _id: item._id, status: item.status }, { $set: set });
    if (res.matchedCount === 0) continue;
    if (decision.status === 'success') report.succeeded++;
    else report.failed++;
  }

  const counts = await recount(items, task._id);
  report.counts = counts;
  if (sum(counts) >= task.total) {
    report.status = (await complete(deps, task, counts, { settling: leases.ownerId })) ?? 'running';
    return report;
  }
  await tasks.updateOne({ _id: task._id, settling: leases.ownerId }, { $set: { counts, settling: null } });
  return report;
}

/** The settler of a kind: its own, else the one of the longest `prefix*` key that covers it. */
function settlerOf(settlers: Record<string, ItemSettler> | undefined, kind: string): ItemSettler | undefined {
  if (!settlers) return undefined;
  if (Object.hasOwn(settlers, kind)) return settlers[kind];
  const family = Object.keys(settlers)
    .filter((key) => key.endsWith('*') && kind.startsWith(key.slice(0, -1)))
    .sort((a, b) => b.length - a.length)[0];
  return family === undefined ? undefined : settlers[family];
}

async function recount(items: Collection<TaskItemDoc>, taskId: string): Promise<TaskDoc['counts']> {
  const counts = { success: 0, fail: 0, miss: 0, skip: 0, stop: 0 };
  for (const status of COUNTED) counts[status] = await items.countDocuments({ taskId, status });
  return counts;
}

const sum = (counts: TaskDoc['counts']) => COUNTED.reduce((n, k) => n + counts[k], 0);

/** Ends a running task with these counts (once: conditional on `filter`), with its audit status and events. */
async function complete(deps: SettleDeps, task: TaskDoc, counts: TaskDoc['counts'], filter: Record<string, unknown>): Promise<TaskStatus | null> {
  const status = finalStatus(counts);
  const res = await deps.tasks.updateOne({ _id: task._id, status: 'running', ...filter }, { $set: { counts, status, completedAt: new Date(), settling: null } });
  if (res.matchedCount === 0) return null;
  await deps.audit.updateMany({ taskId: task._id }, { $set: { status, level: auditLevel(status, counts) } });
  const progress: TaskProgress = { taskId: task._id, status, total: task.total, done: sum(counts), counts };
  await deps.bus.publish(SUBJECTS.taskProgressed, progress);
  await deps.bus.publish(SUBJECTS.taskCompleted, progress);
  return status;
}

/**
 * A task a live process holds whose items are all final, yet still running: a worker died between
 * an item's last write and the task's count (its command is not redelivered: the item is final).
 * Recounts and ends it, after the grace period in which a live worker's own finish would have.
 */
async function completeStalled(deps: SettleDeps, task: TaskDoc, graceMs: number): Promise<SettleReport | null> {
  const unfinished = { taskId: task._id, status: { $in: ['pending', 'running'] } };
  if ((await deps.items.countDocuments(unfinished)) > 0) return null;
  // Even a finish in this very process may be between its two writes.
  await new Promise((r) => setTimeout(r, graceMs));
  if ((await deps.items.countDocuments(unfinished)) > 0) return null;
  const counts = await recount(deps.items, task._id);
  if (sum(counts) < task.total) return null;
  const status = await complete(deps, task, counts, {});
  return status ? { taskId: task._id, kind: task.kind, status, succeeded: 0, failed: 0, resumed: 0, counts } : null;
}
