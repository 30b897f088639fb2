import path from 'node:path';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { filterNodes, sortNodes, treeView, type TreeNode } from '@tagsonic/core/files';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { FileListRequest, FileListResponse } from '../schemas/files.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import type { Ctx } from '../deps.ts';

/**
 * POST /apimt/file_list/: one level of a folder as tree nodes, with scrape states, sorted and
 * filtered as asked. The home folder itself (the spec's /app) lists only the media folders inside it,
 * so the back arrow can reach it and never go above.
 */
export async function fileListRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/apimt/file_list/',
    { onRequest: requireUser, schema: { body: FileListRequest, response: { 200: FileListResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const b = request.body;
      const input = b.file_path && b.file_path.trim() !== '' ? b.file_path : ctx.roots.root('media').dir;
      if (isHome(ctx, input)) {
        const nodes = await homeNodes(ctx);
        return ok({
          file_list_data: sortNodes(filterNodes(nodes, b.search_word), b.sorted_fields),
          file_name: path.basename(ctx.config.home),
          file_path: ctx.homeDir,
          parent_path: null,
          total: nodes.length,
        });
      }
      const dir = (await ctx.roots.resolve(input)).path;
      const listing = await ctx.lister.list(dir, { refresh: b.refresh });
      const states = await ctx.fileStates.inDir(dir);
      return ok({
        file_list_data: await withScanProblems(ctx, treeView(listing, states, { sortedFields: b.sorted_fields, searchWord: b.search_word })),
        file_name: path.basename(dir),
        file_path: dir,
        parent_path: parentOf(ctx, dir),
        total: listing.entries.length,
      });
    },
  );
}

/**
 * Marks the files the library scan left out (not audio, unreadable) with its reason, so the user
 * can find and fix them: the scan records them by absolute path (`library_failures`).
 */
async function withScanProblems(ctx: Ctx, nodes: TreeNode[]): Promise<TreeNode[]> {
  const files = nodes.filter((n) => !n.is_dir).map((n) => n.full_path);
  if (files.length === 0) return nodes;
  const failures = await ctx.library.store.failures.find({ _id: { $in: files } });
  if (failures.length === 0) return nodes;
  const byPath = new Map(failures.map((f) => [f._id, { code: f.code, message: f.message }]));
  return nodes.map((n) => (byPath.has(n.full_path) ? { ...n, scan_problem: byPath.get(n.full_path)! } : n));
}

export function isHome(ctx: Ctx, input: string): boolean {
  if (!path.isAbsolute(input)) return false;
  const p = path.resolve(input);
  return p === ctx.homeDir || p === path.resolve(ctx.config.home);
}

/** The parent a client may go back to: inside a root, or the home folder holding the roots; else null. */
export function parentOf(ctx: Ctx, dir: string): string | null {
  const parent = path.dirname(dir);
  if (parent === dir) return null;
  if (ctx.roots.rootOf(parent) || parent === ctx.homeDir) return parent;
  return null;
}

async function homeNodes(ctx: Ctx): Promise<TreeNode[]> {
  const home = ctx.homeDir;
  const inside = ctx.roots.roots.filter((r) => path.dirname(r.dir) === home);
  const nodes: TreeNode[] = [];
  for (const r of inside) {
    const s = await stat(r.dir).catch(() => null);
    if (!s) continue;
    nodes.push({
      id: r.dir,
      name: path.basename(r.dir),
      title: path.basename(r.dir),
      icon: 'icon-folder',
      state: null,
      children: [],
      selected: false,
      is_dir: true,
      full_path: r.dir,
      size: 0,
      update_time: s.mtime.toISOString(),
    });
  }
  return nodes;
}
