/**
 * The operation log and the task report (spec doc 2 §2 "Log page", "Task report", §3 "Audit log item", "Log
 * detail", "Detail row", §7 "Logs"): getAuditLog, getAuditLogDetail, stopAuditLogDetail (stop a task),
 * stopAuditLogDetailRun (stop one queued item), changeStatusAuditLogDetailRun (set a finished item's status).
 * Route names: /work/helpers/i12-routes.md (the spec gives the operations, not their paths).
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { TagsonicError, invalid } from '@tagsonic/core/errors';
import { pace, type TaskDoc, type TaskItemDoc } from '@tagsonic/core/tasks';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { AuditLogDetailQuery, AuditLogDetailResponse, AuditLogQuery, AuditLogResponse, ChangeItemStatusRequest, IdRequest, ItemStatusResponse } from '../schemas/tasks.ts';
import type { Ctx } from '../deps.ts';

export const AUDIT_PAGE_SIZE = 50;
const SECTION_PAGE_SIZE = 10;

/** The report's lists (spec "Log detail"), each an item filter; `stop` is ours (items stopped before running). */
export const SECTIONS: Record<string, Record<string, unknown>> = {
  running: { status: { $in: ['pending', 'running'] } },
  miss_tag: { status: 'miss', 'result.report.miss': { $nin: ['artist', 'album', 'artist_album'] } },
  miss_artist: { status: 'miss', 'result.report.miss': 'artist' },
  miss_album: { status: 'miss', 'result.report.miss': 'album' },
  miss_artist_album: { status: 'miss', 'result.report.miss': 'artist_album' },
  fail: { status: 'fail' },
  mode_success: { status: 'success', 'result.report.mode_name': { $type: 'string' } },
  success: { status: 'success', 'result.report.mode_name': { $not: { $type: 'string' } } },
  skip: { status: 'skip' },
  delete: { 'result.changes.kind': 'delete' },
  stop: { status: 'stop' },
};

/**
 * Lists only one kind of task has, beside the common ones: an import collection's 元数据扫描 (tracks that were listed:
 * re-read, or skipped as already there) and 音乐收藏 (tracks newly added), by the item's `report.section`.
 */
export const KIND_SECTIONS: Record<string, Record<string, Record<string, unknown>>> = {
  'action:import-music': {
    import_scan: { status: { $in: ['success', 'skip'] }, 'result.report.section': 'scan' },
    import_collection: { status: 'success', 'result.report.section': 'collection' },
  },
};

const STATUS_DISPLAY: Record<string, string> = { running: '进行中', success: '成功', fail: '失败', miss: '未匹配', stop: '停止' };

export async function auditLogRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/apimt/audit_log/', { onRequest: requireUser, schema: { querystring: AuditLogQuery, response: { 200: AuditLogResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const q = request.query;
    const { items, count } = await ctx.tasks.listAudit(
      { action: q.action || undefined, user: q.user || undefined, level: q.level || undefined, status: q.status || undefined },
      { page: q.page ? Number(q.page) : 1, pageSize: Math.min(q.page_size ? Number(q.page_size) : AUDIT_PAGE_SIZE, 200) },
    );
    return ok({
      items: items.map((a) => ({
        // The report link (/log_detail/{id}/) names the task.
        id: a.taskId ?? a._id,
        task_id: a.taskId,
        user: a.user,
        level: a.level,
        action: a.action,
        extra: a.extra,
        status: a.status,
        created_at: new Date(a.createdAt).toISOString(),
      })),
      count,
    });
  });

  r.get('/apimt/audit_log_detail/', { onRequest: requireUser, schema: { querystring: AuditLogDetailQuery, response: { 200: AuditLogDetailResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const q = request.query;
    const task = await ctx.tasks.get(q.id);
    const lists = { ...SECTIONS, ...KIND_SECTIONS[task.kind] };
    if (q.section !== undefined && !Object.hasOwn(lists, q.section)) {
      throw invalid('TAGSONIC_ERR_TASK_BAD_SECTION', `No report section "${q.section}"; one of ${Object.keys(lists).join(', ')}.`);
    }
    const pageSize = Math.min(q.page_size ? Number(q.page_size) : SECTION_PAGE_SIZE, 500);
    const skip = ((q.page ? Number(q.page) : 1) - 1) * pageSize;
    const sections: Record<string, unknown> = {};
    // The files deleted from this report (delete_files) are the items of its delete tasks.
    const deleteTasks = (await ctx.tasks.findTasks({ kind: 'files.delete', sourceTaskId: task._id })).map((t) => t._id);
    for (const [name, filter] of Object.entries(lists)) {
      const paged = q.section === undefined || q.section === name;
      const page = { skip: q.section === name ? skip : 0, limit: pageSize };
      if (name === 'delete' && deleteTasks.length) {
        const across = { $or: [{ ...filter, taskId: task._id }, { taskId: { $in: deleteTasks }, status: 'success' }] };
        sections[`${name}_count`] = await ctx.tasks.countItemsAcross(across);
        sections[name] = paged ? (await ctx.tasks.findItemsAcross(across, page)).map(row) : [];
        continue;
      }
      sections[`${name}_count`] = await ctx.tasks.countItemsWhere(task._id, filter);
      sections[name] = paged ? (await ctx.tasks.findItemsWhere(task._id, filter, page)).map(row) : [];
    }
    const modeRow = (await ctx.tasks.findItemsWhere(task._id, SECTIONS.mode_success!, { skip: 0, limit: 1 }))[0];
    const fields = task as TaskDoc & { dryRun?: boolean; sourceTaskId?: string | null; appliedTaskId?: string | null; undoneAt?: Date | null };
    const c = task.counts;
    const complete = c.success + c.fail + c.miss;
    const done = c.success + c.fail + c.miss + c.skip + c.stop;
    const end = task.completedAt ? new Date(task.completedAt).getTime() : Date.now();
    return ok({
      id: task._id,
      name: task.action,
      kind: task.kind,
      user: task.actor,
      created_at: new Date(task.createdAt).toISOString(),
      status: task.status,
      status_display: STATUS_DISPLAY[task.status] ?? task.status,
      run_time: Math.round((end - new Date(task.createdAt).getTime()) / 1000),
      complete_at: task.completedAt ? new Date(task.completedAt).toISOString() : null,
      dry_run: fields.dryRun === true,
      source_task_id: fields.sourceTaskId ?? null,
      applied_task_id: fields.appliedTaskId ?? null,
      undone: Boolean(fields.undoneAt),
      static: {
        complete_count: complete,
        total_count: task.total,
        complete_rate: task.total ? Math.round((done / task.total) * 10000) / 100 : 100,
        success_count: c.success,
        fail_count: c.fail,
        miss_count: c.miss,
        skip_count: c.skip,
        stop_count: c.stop,
      },
      progress: { done, total: task.total, ...(task.status === 'running' ? pace(task, done) : { items_per_sec: 0, eta_sec: 0 }) },
      mode_name: (modeRow?.result?.report as { mode_name?: string } | undefined)?.mode_name ?? null,
      ...sections,
    });
  });

  r.post('/apimt/stop_audit_log_detail/', { onRequest: requireUser, schema: { body: IdRequest, response: { 200: ItemStatusResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const task = await ctx.tasks.get(request.body.id);
    if (!request.user.isAdmin && task.actor !== request.user.username) throw notYours();
    await ctx.tasks.stop(task._id);
    return ok({ id: task._id, status: 'stop' }, '停止成功！');
  });

  r.post('/apimt/stop_audit_log_detail_run/', { onRequest: requireUser, schema: { body: IdRequest, response: { 200: ItemStatusResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const item = await itemOf(ctx, request.body.id, request.user);
    await ctx.tasks.stopItem(item._id);
    return ok({ id: item._id, status: 'stop' }, '停止成功！');
  });

  r.post('/apimt/change_status_audit_log_detail_run/', { onRequest: requireUser, schema: { body: ChangeItemStatusRequest, response: { 200: ItemStatusResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const item = await itemOf(ctx, request.body.id, request.user);
    const changed = await ctx.tasks.setItemStatus(item._id, request.body.status ?? 'success');
    return ok({ id: changed._id, status: changed.status }, '修改成功！');
  });
}

/** The item, if the user may act on its task (their own, or any for an administrator). */
async function itemOf(ctx: Ctx, itemId: string, user: { username: string; isAdmin: boolean }): Promise<TaskItemDoc> {
  const [item] = await ctx.tasks.findItemsById([itemId]);
  if (!item) throw new TagsonicError('not_found', 'TAGSONIC_ERR_TASK_ITEM_NOT_FOUND', `No task item ${itemId}.`);
  const task = await ctx.tasks.get(item.taskId);
  if (!user.isAdmin && task.actor !== user.username) throw notYours();
  return item;
}

const notYours = () => new TagsonicError('forbidden', 'TAGSONIC_ERR_TASK_NOT_YOURS', 'You can only act on your own tasks.');

/** A report row (spec "Detail row") from an item: its file, reason, changes and the action's own report. */
function row(item: TaskItemDoc) {
  const result = (item.result ?? {}) as { reason?: string | null; changes?: Array<{ field?: string; before: string | null; after: string | null }>; report?: Record<string, unknown> };
  const report = result.report && typeof result.report === 'object' ? result.report : {};
  const tag = (field: string) => result.changes?.find((ch) => ch.field === field);
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    id: item._id,
    name: item.path ? path.basename(item.path) : '',
    path: item.path,
    status: item.status,
    title: str(report.title) ?? tag('title')?.after ?? null,
    artist: str(report.artist) ?? tag('artist')?.after ?? null,
    album: str(report.album) ?? tag('album')?.after ?? null,
    reason: item.error ?? result.reason ?? null,
    error_code: item.errorCode ?? null,
    created_at: new Date(item.updatedAt).toISOString(),
    similar: typeof report.similar === 'number' ? report.similar : null,
    candidate_list: Array.isArray(report.candidate_list) ? report.candidate_list : [],
    extra: {
      raw_title: str(report.raw_title) ?? tag('title')?.before ?? null,
      raw_artist: str(report.raw_artist) ?? tag('artist')?.before ?? null,
      raw_album: str(report.raw_album) ?? tag('album')?.before ?? null,
    },
    changes: result.changes ?? [],
    report: result.report ?? null,
  };
}
