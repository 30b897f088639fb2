import path from 'node:path';
import { realpath, stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { compareNames, isAudioName } from '@tagsonic/core/files';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { FileId3ListRequest, FileId3ListResponse } from '../schemas/files.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { id3Row, mapLimit } from '../tag-views.ts';
import { resolveChild } from './music-id3.ts';
import type { Ctx } from '../deps.ts';

export const DEFAULT_ID3_LIMIT = 100;
const READ_CONCURRENCY = 8;

/**
 * POST /apimt/file_id3_list/: the tags of the checked files and of the audio files in the checked
 * folders (depth 1: directly inside; -1: all the way down), at most `limit` files, in tree order.
 * Folders under the webdav root are skipped unless `is_webdav` (network mounts are slow).
 */
export async function fileId3ListRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/apimt/file_id3_list/',
    { onRequest: requireUser, schema: { body: FileId3ListRequest, response: { 200: FileId3ListResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const b = request.body;
      const limit = b.limit ?? DEFAULT_ID3_LIMIT;
      const depth = b.depth ?? 1;
      const dir = (await ctx.roots.resolve(b.file_full_path)).path;
      const files: string[] = [];
      const visited = new Set<string>();
      const skipWebdav = (p: string) => !b.is_webdav && ctx.roots.rootOf(p)?.name === 'webdav';

      const walk = async (folder: string): Promise<void> => {
        if (files.length >= limit || skipWebdav(folder)) return;
        const real = await realpath(folder);
        if (visited.has(real)) return;
        visited.add(real);
        const listing = await ctx.lister.list(folder, { refresh: b.refresh });
        const sorted = [...listing.entries].sort((x, y) => compareNames(x.name, y.name));
        for (const e of sorted) {
          if (files.length >= limit) return;
          if (!e.isDir && isAudioName(e.name)) files.push(path.join(folder, e.name));
        }
        if (depth === -1) for (const e of sorted) if (e.isDir) await walk(path.join(folder, e.name));
      };

      for (const item of b.select_data) {
        if (files.length >= limit) break;
        const target = await resolveChild(ctx, dir, item.name);
        if ((await stat(target)).isDirectory()) await walk(target);
        else if (isAudioName(target) && !skipWebdav(target)) files.push(target);
      }

      const unique = [...new Set(files)].slice(0, limit);
      const states = new Map<string, Map<string, 'success' | 'failed'>>();
      const stateOf = async (p: string) => {
        const d = path.dirname(p);
        if (!states.has(d)) states.set(d, await ctx.fileStates.inDir(d));
        return states.get(d)!.get(path.basename(p)) ?? null;
      };
      let rows = await mapLimit(unique, READ_CONCURRENCY, async (p) => id3Row(p, await stateOf(p)));
      rows = filterRows(rows, b.search_word);
      rows = sortRows(rows, b.sorted_fields);
      return ok(rows, `${rows.length} 个文件`);
    },
  );
}

type Row = Awaited<ReturnType<typeof id3Row>>;

function filterRows(rows: Row[], word: string | undefined): Row[] {
  const w = (word ?? '').trim();
  if (!w) return rows;
  const state = /^state:\s*(null|success|failed)$/i.exec(w);
  if (state) return rows.filter((r) => String(r.state) === state[1].toLowerCase());
  const needle = w.normalize('NFKC').toLocaleLowerCase();
  return rows.filter((r) =>
    [r.filename, r.title, r.artist, r.album, r.albumartist].some((v) => v && v.normalize('NFKC').toLocaleLowerCase().includes(needle)),
  );
}

/** `field` or `-field` over any row column; numbers compare as numbers, text as the tree orders names. */
function sortRows(rows: Row[], sorted: string | undefined): Row[] {
  const s = (sorted ?? '').trim();
  if (!s) return rows;
  const desc = s.startsWith('-');
  const field = (desc ? s.slice(1) : s) as keyof Row;
  if (!rows.length || !(field in rows[0])) return rows;
  const numeric = new Set(['tracknumber', 'discnumber', 'totaltracks', 'totaldiscs', 'year']);
  return [...rows].sort((a, b) => {
    const x = a[field];
    const y = b[field];
    if (x === y) return 0;
    if (x === null || x === undefined || x === '') return 1;
    if (y === null || y === undefined || y === '') return -1;
    let c: number;
    if (typeof x === 'number' && typeof y === 'number') c = x - y;
    else if (numeric.has(field as string)) c = Number.parseInt(String(x), 10) - Number.parseInt(String(y), 10);
    else c = compareNames(String(x), String(y));
    return desc ? -c : c;
  });
}
