/**
 * 刮削艺术家 (spec doc 2 §7 System: batchAutoUpdateArtist scrapes artist covers): `POST /apimt/batch_auto_update_artist/
 * { resource?, is_skip_exist?, scrape_rate?, dry_run? }` → a task of the auto-artist batch action with one item per
 * library artist (`data: { artistId, name }`, no path: the item is the artist, not a file) — those without a picture
 * of their own unless `is_skip_exist: false` — paced at scrape_rate (default 1/s). Various Artists and
 * [Unknown Artist] are no one to look up. Open to V1 and V2 (spec doc 1 §6 names only import, duplicate check and
 * strm as V2's). An ordinary action task otherwise: dry run, apply_task, stop, and undo_task, which puts back the
 * pictures and biographies it replaced (tasks.ts asks library.artists).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { invalid, isTagsonicError } from '@tagsonic/core/errors';
import { RPC_SUBJECTS } from '@tagsonic/core/bus';
import { UNKNOWN_ARTIST, VARIOUS_ARTISTS, type ArtistDoc } from '@tagsonic/core/library';
import { MAX_TASK_ITEMS } from '@tagsonic/core/tasks';
import type { JsonValue } from '@tagsonic/sdk';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { TaskCreatedResponse } from '../schemas/tasks.ts';
import { AutoArtistRequest } from '../schemas/artist-tasks.ts';
import { createActionTask, positiveNumber, requireAction, TASK_CREATED, type ActionRoute, type BatchItem } from './tasks.ts';
import type { Ctx } from '../deps.ts';

/** 刮削艺术家 is the log's name of the action (spec doc 2 §2: the actions whose log entry links to a report). */
export const ARTIST_ROUTE = {
  route: 'batch_auto_update_artist', pluginId: 'auto-artist', action: '刮削艺术家', rate: { field: 'scrape_rate', default: 1 },
} as const satisfies ActionRoute;

export const NO_ARTISTS = 'TAGSONIC_ERR_TASK_NO_ARTISTS';

const PLAN_TIMEOUT_MS = 30_000;

export async function artistTaskRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.post(
    `/apimt/${ARTIST_ROUTE.route}/`,
    { onRequest: requireUser, schema: { body: AutoArtistRequest, response: { 200: TaskCreatedResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const body = request.body;
      const spec = ARTIST_ROUTE;
      await requireAction(ctx, spec.pluginId);
      const skipExisting = body.is_skip_exist !== false;
      const options: Record<string, JsonValue> = { resource: body.resource ?? 'kuwo', is_skip_exist: skipExisting };
      // The plugin's own check of the options (a source without an artist lookup), before anything is queued.
      try {
        await ctx.bus.request(RPC_SUBJECTS.pluginsInvoke, { pluginId: spec.pluginId, export: 'plan', options: { paths: [], options } }, { timeoutMs: PLAN_TIMEOUT_MS });
      } catch (error) {
        if (!(isTagsonicError(error) && error.code === 'TAGSONIC_ERR_PLUGIN_NO_EXPORT')) throw error;
      }
      const artists = await artistsToLookUp(ctx, skipExisting);
      if (!artists.length) {
        throw invalid(NO_ARTISTS, skipExisting ? 'Every artist of the library has a picture already.' : 'The library has no artists yet: scan it first.', { is_skip_exist: skipExisting });
      }
      const items: BatchItem[] = artists.map((a) => ({ key: a.name, paths: [], data: { artistId: a._id, name: a.name } }));
      const dryRun = body.dry_run === true;
      const rate = positiveNumber(body.scrape_rate as JsonValue | undefined) ?? spec.rate.default;
      const task = await createActionTask(ctx, spec, request.user.username, items, { pluginId: spec.pluginId, route: spec.route, options, dryRun, rate });
      return ok({ task_id: task._id, total: task.total, dry_run: dryRun }, TASK_CREATED);
    },
  );
}

/** The library's artists by name, without a picture of their own when `skipExisting`; at most MAX_TASK_ITEMS. */
async function artistsToLookUp(ctx: Ctx, skipExisting: boolean): Promise<ArtistDoc[]> {
  const meta = ctx.library.artists;
  await ctx.library.catalog.sync();
  const saved = await meta.synced();
  const out: ArtistDoc[] = [];
  for (const a of ctx.library.catalog.artists.values()) {
    if (a.name === VARIOUS_ARTISTS || a.name === UNKNOWN_ARTIST) continue;
    if (skipExisting && saved.get(a._id)?.image) continue;
    out.push(a);
  }
  out.sort((a, b) => a.name.localeCompare(b.name));
  return out.slice(0, MAX_TASK_ITEMS);
}
