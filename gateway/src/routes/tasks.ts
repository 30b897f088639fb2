/**
 * Batch actions as tasks. `POST /apimt/<route>/` of an action (the spec's payload: `file_full_path`,
 * `select_data` and the action's own fields, optionally `dry_run: true`) turns the selection into items — the
 * plugin's `plan` through a worker, or the default expansion (audio files, folders walked per the depth rule,
 * confined to the media roots) — records a task `action:<pluginId>` with the spec's action name, queues one
 * `tagsonic.cmd.action.item` per item and answers at once. Workers run the items (workers/src/actions).
 *
 * `apply_task` runs a finished dry run for real, on exactly the items that would have changed; `undo_task` undoes
 * every journaled effect of a task, newest first.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { newId } from '@tagsonic/core';
import { RPC_SUBJECTS } from '@tagsonic/core/bus';
import { TagsonicError, conflict, invalid, isTagsonicError, notFound } from '@tagsonic/core/errors';
import { expandSelection, SUBJECTS, type TaskDoc, type TaskItemDoc } from '@tagsonic/core/tasks';
import { undoTask } from '@tagsonic/core/tags';
import type { JsonValue } from '@tagsonic/sdk';
import { ok } from '../envelope.ts';
import { guarded, requireUser, requireV2 } from '../auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { ActionRequest, ApplyTaskRequest, RunActionRequest, TaskCreatedResponse, UndoTaskRequest, UndoTaskResponse } from '../schemas/tasks.ts';
import type { PluginRecord } from '@tagsonic/core/plugins';
import type { Ctx } from '../deps.ts';

/** One batch action route: its plugin, the spec's action name (the operation log's), its pacing option. */
export interface ActionRoute {
  route: string;
  pluginId: string;
  action: string;
  /**
   * Where the payload gives its items-per-second pace (a dotted path: `music_info.scrape_rate`), and the default
   * (the spec's scrape_rate 1/s, import_rate 10/s). Items of the task then start at most that often per worker.
   */
  rate?: { field: string; default: number };
  /** The spec's V2-only actions (import collection, duplicate check, generate strm). */
  v2?: boolean;
  /**
   * Actions sharing a route: this row takes the payloads whose `field` (dotted path) equals `equals`; the first
   * matching row of the route wins, a row without `when` takes the rest (batch_update_id3: is_regainer true is
   * replay gain, anything else the manual edit).
   */
  when?: { field: string; equals: JsonValue };
  /** An option the gateway fills with the server's origin as the client reached it (generate_strm's signed links). */
  origin?: string;
}

/** The batch actions wired to routes (spec doc 1 §7); each is a built-in batch-action plugin. */
export const ACTION_ROUTES: readonly ActionRoute[] = [
  { route: 'replace_text', pluginId: 'replace-text', action: '替换文本' },
  { route: 'fix_encoding', pluginId: 'fix-encoding', action: '乱码修复' },
  { route: 'simplified_fields', pluginId: 'simplified-fields', action: '简繁转换' },
  { route: 'split_filename', pluginId: 'split-filename', action: '拆分文本' },
  { route: 'tidy_folder', pluginId: 'tidy-folder', action: '整理文件夹' },
  { route: 'remove_null_folder', pluginId: 'remove-null-folder', action: '删除空文件夹' },
  { route: 'check_file_duplicates', pluginId: 'check-duplicate', action: '重复检查', v2: true },
  { route: 'format_music_type', pluginId: 'format-music', action: '格式转换' },
  { route: 'split_cue', pluginId: 'split-cue', action: '切割音轨' },
  { route: 'batch_update_id3', pluginId: 'replay-gain', action: '回放增益', when: { field: 'is_regainer', equals: true } },
  { route: 'batch_update_id3', pluginId: 'batch-update-id3', action: '手动修改' },
  { route: 'batch_auto_update_id3', pluginId: 'auto-scrape', action: '自动刮削', rate: { field: 'music_info.scrape_rate', default: 1 } },
  { route: 'generate_strm', pluginId: 'generate-strm', action: '生成strm文件', v2: true, origin: 'origin' },
  { route: 'import_music', pluginId: 'import-music', action: '导入收藏', v2: true, rate: { field: 'import_rate', default: 10 } },
];

export const TASK_CREATED = '创建成功！ 任务在后台努力运行中';
export const NOTHING_SELECTED = 'TAGSONIC_ERR_TASK_NOTHING_SELECTED';
export const NOT_A_DRY_RUN = 'TAGSONIC_ERR_TASK_NOT_A_DRY_RUN';
export const DRY_RUN_UNFINISHED = 'TAGSONIC_ERR_TASK_DRY_RUN_UNFINISHED';
export const ALREADY_APPLIED = 'TAGSONIC_ERR_TASK_ALREADY_APPLIED';
export const NOT_YOURS = 'TAGSONIC_ERR_TASK_NOT_YOURS';
export const PLAN_INVALID = 'TAGSONIC_ERR_TASK_PLAN_INVALID';

/** Payload fields that name the selection, not the action's options. */
const SELECTION_FIELDS = new Set(['file_full_path', 'select_data', 'dry_run', 'depth']);
const PLAN_TIMEOUT_MS = 120_000;

/** What an action task keeps on its document (TaskDoc fields). */
export interface ActionTaskFields {
  pluginId: string;
  route: string;
  options: Record<string, JsonValue>;
  dryRun: boolean;
  rate: number | null;
  /** An apply: the dry run it applies. A dry run: the task that applied it. */
  sourceTaskId?: string | null;
  appliedTaskId?: string | null;
}

export interface BatchItem {
  key: string;
  paths: string[];
  data?: JsonValue;
}

export async function taskRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  for (const route of new Set(ACTION_ROUTES.map((r) => r.route))) {
    const rows = ACTION_ROUTES.filter((r) => r.route === route);
    typed.post(
      `/apimt/${route}/`,
      { onRequest: rows.length === 1 && rows[0]!.v2 ? guarded(requireV2) : requireUser, schema: { body: ActionRequest, response: { 200: TaskCreatedResponse, '4xx': ErrorEnvelope } } },
      async (request) => {
        const body = request.body as Record<string, JsonValue>;
        const spec = rows.find((r) => !r.when || at(body, r.when.field) === r.when.equals);
        if (!spec) throw invalid('TAGSONIC_ERR_TASK_NO_ACTION', `No batch action of /apimt/${route}/ takes this payload.`);
        if (spec.v2 && rows.length > 1) await requireV2(request);
        await requireAction(ctx, spec.pluginId);
        const selected = await selection(ctx, body);
        const options: Record<string, JsonValue> = {};
        for (const [key, value] of Object.entries(body)) if (!SELECTION_FIELDS.has(key)) options[key] = value;
        if (spec.origin) options[spec.origin] = `${request.protocol}://${request.host}`;
        const items = await planItems(ctx, spec.pluginId, selected, options, body.depth === 1 ? 1 : -1);
        const dryRun = body.dry_run === true;
        const rate = spec.rate ? positiveNumber(at(body, spec.rate.field)) ?? spec.rate.default : null;
        const task = await createActionTask(ctx, spec, request.user.username, items, { pluginId: spec.pluginId, route: spec.route, options, dryRun, rate });
        return ok({ task_id: task._id, total: task.total, dry_run: dryRun }, TASK_CREATED);
      },
    );
  }

  // Any enabled batch action by id, an upload from /actionMod included: the log names it by its manifest's name.
  typed.post(
    '/apimt/run_action/',
    { onRequest: requireUser, schema: { body: RunActionRequest, response: { 200: TaskCreatedResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const body = request.body as Record<string, JsonValue>;
      const pluginId = String(body.plugin_id);
      const record = await requireAction(ctx, pluginId);
      const name = record.versions.find((v) => v.version === record.activeVersion)?.manifest.name ?? pluginId;
      const spec = ACTION_ROUTES.find((r) => r.pluginId === pluginId) ?? { route: 'run_action', pluginId, action: name };
      if (spec.v2) await requireV2(request);
      const selected = await selection(ctx, body);
      const options: Record<string, JsonValue> = {};
      for (const [key, value] of Object.entries(body)) if (!SELECTION_FIELDS.has(key) && key !== 'plugin_id') options[key] = value;
      const items = await planItems(ctx, pluginId, selected, options, body.depth === 1 ? 1 : -1);
      const dryRun = body.dry_run === true;
      const rate = spec.rate ? positiveNumber(at(body, spec.rate.field)) ?? spec.rate.default : null;
      const task = await createActionTask(ctx, spec, request.user.username, items, { pluginId, route: spec.route, options, dryRun, rate });
      return ok({ task_id: task._id, total: task.total, dry_run: dryRun }, TASK_CREATED);
    },
  );

  typed.post(
    '/apimt/apply_task/',
    { onRequest: requireUser, schema: { body: ApplyTaskRequest, response: { 200: TaskCreatedResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const dry = await ctx.tasks.get(request.body.task_id);
      const fields = dry as TaskDoc & Partial<ActionTaskFields>;
      if (!dry.kind.startsWith('action:') || fields.dryRun !== true) throw invalid(NOT_A_DRY_RUN, 'Only a dry run can be applied.');
      if (!request.user.isAdmin && dry.actor !== request.user.username) throw new TagsonicError('forbidden', NOT_YOURS, 'You can only apply your own dry runs.');
      if (dry.status === 'running') throw conflict(DRY_RUN_UNFINISHED, 'The dry run is still running; apply it once it has finished.');
      // One apply per dry run: the claim is conditional, so two clicks create one task.
      const spec = ACTION_ROUTES.find((r) => r.pluginId === fields.pluginId) ?? { route: fields.route ?? '', pluginId: fields.pluginId!, action: dry.action };
      await requireAction(ctx, spec.pluginId);
      const would = await ctx.tasks.findItems(dry._id, 'success');
      const items = would.map((it) => ({ ...(it.payload as { item: BatchItem }).item, expected: (it.result as { changes?: unknown } | null)?.changes ?? [] }));
      const task = await createActionTask(ctx, spec, request.user.username, items, {
        pluginId: spec.pluginId, route: spec.route, options: fields.options ?? {}, dryRun: false, rate: fields.rate ?? null, sourceTaskId: dry._id,
      }, async (id) => {
        if (!(await ctx.tasks.setOnce(dry._id, 'appliedTaskId', id))) throw conflict(ALREADY_APPLIED, 'This dry run was applied already.');
      });
      return ok({ task_id: task._id, total: task.total, dry_run: false }, TASK_CREATED);
    },
  );

  typed.post(
    '/apimt/undo_task/',
    { onRequest: requireUser, schema: { body: UndoTaskRequest, response: { 200: UndoTaskResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const task = await ctx.tasks.get(request.body.task_id);
      if (!request.user.isAdmin && task.actor !== request.user.username) throw new TagsonicError('forbidden', NOT_YOURS, 'You can only undo your own tasks.');
      if (task.status === 'running') throw conflict('TAGSONIC_ERR_TASK_RUNNING', 'The task is still running; stop it or wait for it to finish first.');
      const report = await undoTask(task._id, { journal: ctx.journal, actor: request.user.username }, { force: request.body.force });
      for (const item of report.items) {
        if (item.status !== 'undone') continue;
        if (item.result?.movedFrom) await ctx.fileStates.move(item.result.movedFrom, item.result.path);
        await ctx.bus.publish(SUBJECTS.trackUpdated, { path: item.result?.path ?? item.path, writeId: item.result?.writeId ?? null, undoOf: item.writeId });
      }
      // Artist pictures and biographies (刮削艺术家) are no files: the library puts back what the task replaced.
      const artists = await ctx.library.artists.undoTask(task._id);
      await ctx.tasks.annotate(task._id, { undoneAt: new Date(), undoneBy: request.user.username });
      const failed = report.items.filter((it) => it.status === 'failed').map((it) => ({ path: it.path, reason: it.error?.message ?? it.note ?? 'failed' }));
      // Created files changed since (skipped with the reason undoCreate gave): the user may still take them with force.
      const kept = report.items.filter((it) => it.status === 'skipped' && it.note && !it.note.startsWith('the write is ')).map((it) => ({ path: it.path, reason: it.note! }));
      const data = { undone: report.undone + artists.length, skipped: report.skipped, failed, kept };
      if (artists.length === 0 && report.items.length > 0 && report.failed === report.items.length) {
        throw new TagsonicError('conflict', 'TAGSONIC_ERR_UNDO_FAILED', failed[0]?.reason ?? 'Nothing could be undone.', { details: data });
      }
      return ok(data, data.undone > 0 ? '撤销成功！' : '没有可撤销的修改');
    },
  );
}

/** The installed, enabled batch action, or the registry's reason why not (the codes the plugin screens use). */
export async function requireAction(ctx: Ctx, pluginId: string): Promise<PluginRecord> {
  const record = await ctx.plugins.get(pluginId);
  if (!record) throw notFound('TAGSONIC_ERR_PLUGIN_NOT_INSTALLED', `The batch action ${pluginId} is not installed.`, { pluginId });
  if (record.kind !== 'batch-action') throw invalid('TAGSONIC_ERR_PLUGIN_NOT_AN_ACTION', `The plugin ${pluginId} is not a batch action.`, { pluginId });
  if (!record.enabled) throw conflict('TAGSONIC_ERR_PLUGIN_DISABLED', `The batch action ${pluginId} is disabled; an administrator can enable it on /actionMod.`, { pluginId });
  return record;
}

/** `file_full_path` + `select_data` (tree nodes or names) → the selected real paths, confined to the roots. */
async function selection(ctx: Ctx, body: Record<string, JsonValue>): Promise<string[]> {
  const list = body.select_data;
  if (!Array.isArray(list) || list.length === 0) throw invalid(NOTHING_SELECTED, '请先勾选文件或文件夹！');
  const folder = typeof body.file_full_path === 'string' && body.file_full_path !== '' ? (await ctx.roots.resolve(body.file_full_path)).path : null;
  const out: string[] = [];
  for (const entry of list) {
    const name = typeof entry === 'string' ? entry : entry && typeof entry === 'object' && !Array.isArray(entry) && typeof entry.name === 'string' ? entry.name : null;
    if (!name) throw invalid('TAGSONIC_ERR_FILES_BAD_NAME', 'Each ticked entry needs a name.');
    if (folder && (name.includes('/') || name === '.' || name === '..')) {
      throw invalid('TAGSONIC_ERR_FILES_BAD_NAME', `"${name}" is not a name of an entry in the folder.`);
    }
    out.push((await ctx.roots.resolve(name, folder ? { base: folder } : {})).path);
  }
  return [...new Set(out)];
}

/** The plugin's plan through a worker, or the host's expansion when it has none. */
async function planItems(ctx: Ctx, pluginId: string, paths: string[], options: Record<string, JsonValue>, depth: 1 | -1): Promise<BatchItem[]> {
  let planned: unknown;
  try {
    planned = await ctx.bus.request(RPC_SUBJECTS.pluginsInvoke, { pluginId, export: 'plan', options: { paths, options } }, { timeoutMs: PLAN_TIMEOUT_MS });
  } catch (error) {
    if (isTagsonicError(error) && error.code === 'TAGSONIC_ERR_PLUGIN_NO_EXPORT') return expandSelection(ctx.roots, paths, { depth });
    throw error;
  }
  const items = (planned as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) throw new TagsonicError('internal', PLAN_INVALID, `The batch action ${pluginId} planned no item list.`);
  const keys = new Set<string>();
  const checked: BatchItem[] = [];
  for (const raw of items as Array<Partial<BatchItem>>) {
    if (!raw || typeof raw.key !== 'string' || !Array.isArray(raw.paths) || !raw.paths.every((p) => typeof p === 'string') || keys.has(raw.key)) {
      throw new TagsonicError('internal', PLAN_INVALID, `The batch action ${pluginId} planned an item without a unique key and a path list.`);
    }
    keys.add(raw.key);
    // Workers check again; an item outside the roots is refused here, before anything is queued.
    const resolved = [];
    for (const p of raw.paths) resolved.push((await ctx.roots.resolve(p, { mustExist: false })).path);
    checked.push({ key: raw.key, paths: resolved, ...(raw.data !== undefined ? { data: raw.data } : {}) });
  }
  return checked;
}

export async function createActionTask(
  ctx: Ctx,
  spec: Pick<ActionRoute, 'pluginId' | 'action'>,
  actor: string,
  items: Array<BatchItem & { expected?: unknown }>,
  fields: ActionTaskFields,
  beforeCreate?: (taskId: string) => Promise<void>,
): Promise<TaskDoc> {
  const id = newId();
  await beforeCreate?.(id);
  return ctx.tasks.create({
    id,
    kind: `action:${spec.pluginId}`,
    action: spec.action,
    actor,
    subject: SUBJECTS.actionItem,
    fields: { ...fields, sourceTaskId: fields.sourceTaskId ?? null, appliedTaskId: null },
    extra: `${fields.dryRun ? '预览 · ' : ''}${items.length} 个项目`,
    items: items.map(({ expected, ...item }) => ({
      path: item.paths.length === 1 ? item.paths[0]! : item.key,
      payload: { pluginId: spec.pluginId, item, options: fields.options, dryRun: fields.dryRun, actor, ...(fields.rate ? { rate: fields.rate } : {}), ...(expected ? { expected } : {}) },
    })),
  });
}

/** The payload's value at a dotted path, or undefined. */
function at(body: Record<string, JsonValue>, dotted: string): JsonValue | undefined {
  let value: JsonValue | undefined = body;
  for (const key of dotted.split('.')) {
    value = value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  }
  return value;
}

export function positiveNumber(value: JsonValue | undefined): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : null;
}

/** The name a report row shows for an item: its file's name, or its key for a group. */
export function itemName(item: Pick<TaskItemDoc, 'path'>): string {
  return item.path ? path.basename(item.path) : '';
}
