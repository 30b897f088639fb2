/**
 * The task report's file actions (spec doc 2 §7 "Logs": deleteFiles, finishFiles; "Duplicate-delete rules").
 * `delete_files` deletes files the report lists — one row (`single`), the failed items (`fail`), or a duplicate
 * section (`hash`, `name`, `acoustid`: the listed paths, or by the rules: one copy of each group is kept) — as a
 * `files.delete` task: workers move each file into its root's trash (or the rules' target folder) through the
 * journal, so the delete task can be undone. Only files the report names can be deleted this way.
 * `finish_files` marks a missed or failed row as done by hand.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { newId } from '@tagsonic/core';
import { TagsonicError, invalid } from '@tagsonic/core/errors';
import { extensionOf } from '@tagsonic/core/files';
import { SUBJECTS, inTrash, type TaskItemDoc } from '@tagsonic/core/tasks';
import { stat } from 'node:fs/promises';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { DeleteFilesRequest, DeleteFilesResponse, FinishFilesRequest, ItemStatusResponse } from '../schemas/tasks.ts';
import { TASK_CREATED } from './tasks.ts';
import type { Ctx } from '../deps.ts';

export const DELETE_TASK_KIND = 'files.delete';
export const NOT_IN_REPORT = 'TAGSONIC_ERR_TASK_NOT_IN_REPORT';
export const NOTHING_TO_DELETE = 'TAGSONIC_ERR_TASK_NOTHING_TO_DELETE';

/** The spec's defaults: size smaller, format priority flac then mp3, name larger, bitrate and sample none. */
export interface DeleteRules {
  sizeRule?: 'larger' | 'smaller' | 'none';
  formatPriority?: string[];
  nameRule?: 'larger' | 'smaller' | 'none';
  bitrateRule?: string;
  sampleRule?: string;
  metadataRule?: string;
  deleteMode?: 'direct' | 'move';
  targetDir?: string | null;
}

export async function deleteFilesRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post('/apimt/delete_files/', { onRequest: requireUser, schema: { body: DeleteFilesRequest, response: { 200: DeleteFilesResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const { log_id, mode, paths, rules } = request.body;
    const task = await ctx.tasks.get(log_id);
    if (!request.user.isAdmin && task.actor !== request.user.username) throw new TagsonicError('forbidden', 'TAGSONIC_ERR_TASK_NOT_YOURS', 'You can only act on your own tasks.');
    const items = await ctx.tasks.listItems(task._id);
    const known = knownPaths(items);
    let chosen: string[];
    if (paths && paths.length) {
      chosen = [];
      for (const p of paths) {
        const real = (await ctx.roots.resolve(p)).path;
        if (!known.has(real)) throw invalid(NOT_IN_REPORT, `${path.basename(real)} is not listed in this task's report.`, { path: p });
        chosen.push(real);
      }
    } else if (mode === 'fail') {
      chosen = items.filter((it) => it.status === 'fail').flatMap(itemPaths);
    } else if (mode === 'hash' || mode === 'name' || mode === 'acoustid') {
      chosen = await byRules(groupsOf(items, mode), { ...DEFAULT_RULES, ...(rules as DeleteRules | undefined) });
    } else {
      throw invalid(NOTHING_TO_DELETE, 'Say which files to delete (paths).');
    }
    chosen = [...new Set(chosen)].filter((p) => !inTrash(p));
    // Files already gone (deleted from this report before, moved since) are not deleted again.
    chosen = (await Promise.all(chosen.map(async (p) => ((await stat(p).catch(() => null))?.isFile() ? p : null)))).filter((p): p is string => p !== null);
    if (chosen.length === 0) throw invalid(NOTHING_TO_DELETE, 'There is nothing to delete.');
    const asked = rules as DeleteRules | undefined;
    const targetDir = asked?.deleteMode === 'move' && asked.targetDir ? (await ctx.roots.resolve(asked.targetDir, { mustExist: false })).path : null;
    // The preview: what this call would delete; posting exactly these paths then deletes exactly them.
    if (request.body.dry_run === true) return ok({ task_id: '', total: chosen.length, dry_run: true, paths: chosen, target_dir: targetDir }, '');
    const created = await ctx.tasks.create({
      id: newId(),
      kind: DELETE_TASK_KIND,
      action: '删除文件',
      actor: request.user.username,
      subject: SUBJECTS.filesDelete,
      fields: { sourceTaskId: task._id, mode, targetDir },
      extra: `${chosen.length} 个文件（${task.action}）`,
      items: chosen.map((p) => ({ path: p, payload: { path: p, actor: request.user.username, targetDir } })),
    });
    return ok({ task_id: created._id, total: created.total, dry_run: false }, TASK_CREATED);
  });

  r.post('/apimt/finish_files/', { onRequest: requireUser, schema: { body: FinishFilesRequest, response: { 200: ItemStatusResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const { log_id, detail_id, paths } = request.body;
    const task = await ctx.tasks.get(log_id);
    if (!request.user.isAdmin && task.actor !== request.user.username) throw new TagsonicError('forbidden', 'TAGSONIC_ERR_TASK_NOT_YOURS', 'You can only act on your own tasks.');
    let item: TaskItemDoc | undefined;
    if (detail_id) item = (await ctx.tasks.findItemsById([detail_id])).find((it) => it.taskId === task._id);
    else if (paths?.length) {
      const real = (await ctx.roots.resolve(paths[0]!, { mustExist: false })).path;
      item = (await ctx.tasks.listItems(task._id)).find((it) => itemPaths(it).includes(real));
    }
    if (!item) throw new TagsonicError('not_found', 'TAGSONIC_ERR_TASK_ITEM_NOT_FOUND', 'No such row in this task\'s report.');
    const changed = await ctx.tasks.setItemStatus(item._id, 'success');
    return ok({ id: changed._id, status: changed.status }, '修改成功！');
  });
}

const DEFAULT_RULES: DeleteRules = { sizeRule: 'smaller', formatPriority: ['flac', 'mp3'], nameRule: 'larger', bitrateRule: 'none', sampleRule: 'none', deleteMode: 'direct' };

function itemPaths(item: TaskItemDoc): string[] {
  const planned = (item.payload as { item?: { paths?: unknown } }).item?.paths;
  const list = Array.isArray(planned) ? planned.filter((p): p is string => typeof p === 'string') : [];
  return item.path && !list.includes(item.path) && path.isAbsolute(item.path) ? [item.path, ...list] : list;
}

/** Every file the report names: the items' files and the files of the groups they reported. */
function knownPaths(items: TaskItemDoc[]): Set<string> {
  const known = new Set<string>();
  for (const item of items) {
    for (const p of itemPaths(item)) known.add(p);
    for (const group of groupsOf([item], null)) for (const f of group) known.add(f);
  }
  return known;
}

/** The duplicate groups (`report.groups[].files`) of the items whose report is of `section` (any when null). */
function groupsOf(items: TaskItemDoc[], section: string | null): string[][] {
  const groups: string[][] = [];
  for (const item of items) {
    const report = (item.result as { report?: { section?: unknown; groups?: unknown } } | null)?.report;
    if (!report || !Array.isArray(report.groups) || (section !== null && report.section !== section)) continue;
    for (const g of report.groups as Array<{ files?: unknown }>) {
      if (Array.isArray(g?.files)) groups.push(g.files.filter((f): f is string => typeof f === 'string'));
    }
  }
  return groups;
}

/**
 * The copies the rules delete: in each group one copy is kept — the format earliest in formatPriority, then by
 * size (sizeRule `smaller`: the smaller copy goes, so the larger is kept; `larger`: the reverse), then by name
 * length (nameRule `larger`: the longer name goes) — and the others go. Bitrate, sample-rate and metadata rules are
 * not applied yet (they need a probe of each copy); a group whose copies are all gone already is left alone.
 */
async function byRules(groups: string[][], rules: DeleteRules): Promise<string[]> {
  const priority = (rules.formatPriority ?? []).map((f) => f.toLowerCase());
  const rank = (f: string) => { const i = priority.indexOf(extensionOf(path.basename(f))); return i < 0 ? priority.length : i; };
  const out: string[] = [];
  for (const group of groups) {
    const present: Array<{ file: string; size: number }> = [];
    for (const file of group) {
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) present.push({ file, size: info.size });
    }
    if (present.length < 2) continue;
    present.sort((a, b) =>
      rank(a.file) - rank(b.file)
      || (rules.sizeRule === 'smaller' ? b.size - a.size : rules.sizeRule === 'larger' ? a.size - b.size : 0)
      || (rules.nameRule === 'larger' ? path.basename(a.file).length - path.basename(b.file).length : rules.nameRule === 'smaller' ? path.basename(b.file).length - path.basename(a.file).length : 0)
      || (a.file < b.file ? -1 : 1));
    out.push(...present.slice(1).map((p) => p.file));
  }
  return out;
}
