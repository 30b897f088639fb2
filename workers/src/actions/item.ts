/**
 * `tagsonic.cmd.action.item`: one item of a batch action task, run on this worker through the plugin pool.
 * The plugin's `runItem` gets the item, the dialog's options and the dry-run flag; its capabilities are bound
 * to the task (tag writes and moves journaled under the task id, so undoing the task undoes them). The item
 * is claimed with `startItem` and settled with `finishItem`, both conditional, so a redelivered command does
 * nothing once the item is final; a worker that died in the middle of an item is settled from the journal
 * (`actionSettler`), so an effect already made is never made again.
 */
import type { Bus, Delivery } from '@tagsonic/core/bus';
import { isTagsonicError, TagsonicError } from '@tagsonic/core/errors';
import type { ItemSettler, Settlement, Tasks } from '@tagsonic/core/tasks';
import { NOT_RESUMABLE, SUBJECTS } from '@tagsonic/core/tasks';
import type { JournalEntry, TagJournal } from '@tagsonic/core/tags';
import type { BatchChange, BatchItem, BatchItemResult, JsonValue } from '@tagsonic/sdk';
import { PLUGIN_ERROR_CODES, PluginError } from '../plugin-host/index.ts';
import type { PluginPool } from '../plugin-pool/index.ts';
import { RateGate } from './rate.ts';

/** The task kind of a batch action: `action:<pluginId>`. */
export const ACTION_KIND_PREFIX = 'action:';
export const actionKind = (pluginId: string) => `${ACTION_KIND_PREFIX}${pluginId}`;

/** An item a worker died on this many times is failed instead of run again (a poison item). */
export const MAX_ITEM_ATTEMPTS = 5;
export const ITEM_RESULT_INVALID = 'TAGSONIC_ERR_TASK_ITEM_RESULT_INVALID';
export const ITEM_POISON = 'TAGSONIC_ERR_TASK_ITEM_CRASHED';

/** Payload of `tagsonic.cmd.action.item` (what the task item keeps, plus taskId and itemId). */
export interface ActionItemCommand {
  taskId: string;
  itemId: string;
  pluginId: string;
  item: BatchItem;
  options: Record<string, JsonValue>;
  dryRun: boolean;
  /** The user who started the task. */
  actor: string;
  /** Items per second for this task, across all workers (scrape_rate, import_rate); absent: no pacing. */
  rate?: number;
  /**
   * An applied dry run: the changes the preview showed for this item. The item is first run dry again and
   * applied only when it would make exactly these changes; otherwise it is skipped with what differs.
   */
  expected?: BatchChange[];
}

export interface ActionItemDeps {
  bus: Bus;
  tasks: Tasks;
  pool: PluginPool;
}

const STATUSES: ReadonlySet<string> = new Set(['success', 'skip', 'fail', 'miss']);
const CHANGE_KINDS: ReadonlySet<string> = new Set(['tags', 'move', 'copy', 'delete', 'create', 'convert']);
/** The report keeps this many changes of one item (a folder's tidy may move thousands of files). */
const MAX_CHANGES = 2000;

export function actionItemHandler(deps: ActionItemDeps) {
  const gate = new RateGate();
  return async (delivery: Delivery<ActionItemCommand>): Promise<void> => {
    const cmd = delivery.payload;
    if (typeof cmd.rate === 'number' && cmd.rate > 0) {
      // The task's slot across all workers (its average rate), then this worker's own spacing (no bursts after a stall).
      // The item waits for its turn still queued, not claimed: the report can stop it (and its task's stop ends it)
      // until it really starts.
      const due = await deps.tasks.takeSlot(cmd.taskId, cmd.rate);
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      await gate.wait(cmd.taskId, cmd.rate);
    }
    const item = await deps.tasks.startItem(cmd.itemId);
    if (!item) return;
    let result: BatchItemResult;
    try {
      const run = async (dryRun: boolean) => checkResult((await deps.pool.invokeAction(cmd.pluginId, 'runItem', { item: cmd.item, options: cmd.options, dryRun, taskId: cmd.taskId, ...(Array.isArray(cmd.expected) ? { preview: cmd.expected as unknown as JsonValue } : {}) }, {
        taskId: cmd.taskId,
        actor: cmd.actor,
        itemId: cmd.itemId,
      })) as unknown as JsonValue);
      if (!cmd.dryRun && Array.isArray(cmd.expected)) {
        const drift = difference(cmd.expected, (await run(true)).changes ?? []);
        if (drift) {
          await deps.tasks.finishItem(cmd.itemId, { status: 'skip', result: { reason: `changed since the preview: ${drift}`, changes: [], report: { expected: cmd.expected as unknown as JsonValue } } });
          return;
        }
      }
      result = await run(cmd.dryRun);
    } catch (e) {
      // What the plugin threw (its own code, a timeout, its memory limit) or the pool's refusal (disabled, not
      // installed) fails this item with the reason: running the same item again would fail the same way.
      const itemFailure = isTagsonicError(e) && (e instanceof PluginError ? e.code !== PLUGIN_ERROR_CODES.closed : e.kind !== 'unavailable' && e.kind !== 'internal');
      if (itemFailure) {
        await deps.tasks.finishItem(cmd.itemId, { status: 'fail', error: e.message, errorCode: e.code });
        return;
      }
      throw e; // the worker is closing, or something of ours broke: the bus delivers it again
    }
    await deps.tasks.finishItem(cmd.itemId, {
      status: result.status,
      ...(result.status === 'fail' ? { error: result.reason ?? 'The action reported a failure without a reason.' } : {}),
      result: { reason: result.reason ?? null, changes: result.changes ?? [], ...(result.report !== undefined ? { report: result.report } : {}) },
    });
    if (!cmd.dryRun) await publishFilesChanged(deps.bus, cmd.taskId, cmd.itemId, result.changes ?? []);
  };
}

/**
 * Every file a list of changes names: written, moved or copied from and to, created, converted, deleted (the
 * before/after of a `tags` change are tag values, no paths).
 */
export function changedPaths(changes: readonly BatchChange[]): string[] {
  const paths = new Set<string>();
  for (const c of changes) {
    paths.add(c.path);
    if (c.kind === 'tags') continue;
    for (const p of [c.before, c.after]) if (typeof p === 'string' && p.startsWith('/')) paths.add(p);
  }
  return [...paths];
}

/** `tagsonic.evt.files.changed` for an item that changed files: the library follows them (scanner/follow-edits.ts). */
export async function publishFilesChanged(bus: Bus | undefined, taskId: string, itemId: string, changes: readonly BatchChange[]): Promise<void> {
  const paths = changedPaths(changes);
  if (bus && paths.length) await bus.publish(SUBJECTS.filesChanged, { taskId, itemId, paths }).catch(() => undefined);
}

/** What differs between the preview's changes and the ones the item would make now (null: the same). */
function difference(expected: BatchChange[], now: BatchChange[]): string | null {
  const text = (c: BatchChange) => `${c.kind} ${c.path}${c.field ? ` ${c.field}` : ''}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`;
  const was = expected.map(text);
  const is = now.map(text);
  const gone = was.find((t) => !is.includes(t));
  if (gone) return `the preview had ${gone}`;
  const added = is.find((t) => !was.includes(t));
  return added ? `it would now make ${added}` : null;
}

/** The plugin's answer checked as untrusted: a status, an optional reason, well-formed changes. */
function checkResult(raw: JsonValue): BatchItemResult {
  const bad = (why: string) => new TagsonicError('invalid', ITEM_RESULT_INVALID, `The action returned an invalid result: ${why}.`);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw bad('not an object');
  const status = raw.status;
  if (typeof status !== 'string' || !STATUSES.has(status)) throw bad('status must be success, skip, fail or miss');
  if (raw.reason !== undefined && raw.reason !== null && typeof raw.reason !== 'string') throw bad('reason must be text');
  const changes: BatchChange[] = [];
  if (raw.changes !== undefined && raw.changes !== null) {
    if (!Array.isArray(raw.changes)) throw bad('changes must be a list');
    for (const c of raw.changes.slice(0, MAX_CHANGES)) {
      const change = c as Record<string, JsonValue>;
      if (!change || typeof change !== 'object' || typeof change.path !== 'string' || typeof change.kind !== 'string' || !CHANGE_KINDS.has(change.kind)) {
        throw bad('each change needs a path and a kind (tags, move, copy, delete, create, convert)');
      }
      const text = (v: JsonValue | undefined) => (v === undefined || v === null ? null : String(v));
      changes.push({
        path: change.path,
        kind: change.kind as BatchChange['kind'],
        ...(typeof change.field === 'string' ? { field: change.field } : {}),
        before: text(change.before),
        after: text(change.after),
      });
    }
  }
  return {
    status: status as BatchItemResult['status'],
    ...(typeof raw.reason === 'string' ? { reason: raw.reason } : {}),
    changes,
    ...(raw.report !== undefined ? { report: raw.report } : {}),
  };
}

/**
 * Settles an `action:*` task a dead process left unfinished. A dry-run item made no effect: it is resumed.
 * An item with a committed journal entry of this task on one of its files made its effect before the crash:
 * it succeeded, with the changes the journal recorded (running it again would apply a replacement twice).
 * An item a worker died on {@link MAX_ITEM_ATTEMPTS} times fails as a poison item. Others are resumed.
 */
export function actionSettler(deps: { journal: TagJournal }): ItemSettler {
  return async (task) => {
    const byPath = new Map<string, JournalEntry[]>();
    const byItem = new Map<string, JournalEntry[]>();
    for (const entry of await deps.journal.listByTask(task._id)) {
      if (entry.undoOf || !['committed', 'undoing', 'undone'].includes(entry.state)) continue;
      if (entry.itemId) {
        // Entries that name their item settle that item only (a CUE image's tracks share the image's path).
        byItem.set(entry.itemId, [...(byItem.get(entry.itemId) ?? []), entry]);
        continue;
      }
      for (const p of entry.kind === 'move' && entry.from ? [entry.from, entry.path] : [entry.path]) {
        byPath.set(p, [...(byPath.get(p) ?? []), entry]);
      }
    }
    return async (item): Promise<Settlement> => {
      const cmd = item.payload as Partial<ActionItemCommand> | null;
      if (!cmd || typeof cmd.pluginId !== 'string' || !cmd.item || !Array.isArray(cmd.item.paths)) {
        return { status: 'fail', errorCode: NOT_RESUMABLE, error: 'Interrupted by a crash, and its saved command is incomplete, so it cannot be resumed.' };
      }
      if (!cmd.dryRun) {
        const entries = [...new Set([...(byItem.get(item._id) ?? []), ...cmd.item.paths.flatMap((p) => byPath.get(p) ?? [])])];
        if (entries.length) return { status: 'success', result: { reason: null, changes: changesOf(entries), settled: true } };
      }
      if (item.attempts >= MAX_ITEM_ATTEMPTS) {
        return { status: 'fail', errorCode: ITEM_POISON, error: `A worker stopped while running this item ${item.attempts} times; it is not tried again.` };
      }
      return { status: 'resume' };
    };
  };
}

/** The report's changes from journal entries (what was really written). */
export function changesOf(entries: JournalEntry[]): BatchChange[] {
  const changes: BatchChange[] = [];
  for (const e of entries) {
    if (e.kind === 'move') changes.push({ path: e.from ?? e.path, kind: 'move', before: e.from ?? null, after: e.path });
    else if (e.kind === 'create') changes.push({ path: e.path, kind: 'create', before: null, after: e.source ?? e.path });
    else for (const field of e.changed) changes.push({ path: e.path, kind: 'tags', field, before: e.before.fields[field] ?? null, after: e.after.fields[field] ?? null });
  }
  return changes;
}
