/**
 * Tasks whose items come from the library instead of a ticked selection (spec doc 2 §2 /progress, §7 Statistics):
 *
 * - `POST /apimt/missing_music_task/ { miss_mode, select_mode, source_list, modify_list, is_skip_tag,
 *   is_folder_album, scrape_rate? }` — the library's tracks missing `miss_mode` (lyrics, cover, album, artist,
 *   year) → an auto scrape of them (plugin auto-scrape, the options batch_auto_update_id3 gives it), paced at
 *   scrape_rate (default 1/s). Its log entry is 自动刮削 like the side bar's: the same action on other files.
 * - `POST /apimt/rule_tag/ { miss_mode: 'genre', rule_form }` — the tracks missing a genre → the genre rules
 *   (plugin rule-tag); each item's `data` carries the track's artists and the genre counts of its album's other
 *   tracks, so the plugin decides the album majority without library access. With `useAI`, the language model of
 *   the system settings must be configured (else TAGSONIC_ERR_LLM_NOT_CONFIGURED before anything is queued).
 *
 * The tasks are ordinary action tasks (tasks.ts createActionTask): dry runs, apply_task, stop and undo_task work
 * as for the batch actions. The library is what the last scan (and the writes since) recorded; a file changed
 * since is read again by the plugin, which skips what is no longer missing.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { invalid, isTagsonicError, TagsonicError } from '@tagsonic/core/errors';
import { RPC_SUBJECTS } from '@tagsonic/core/bus';
import { checkLlmSettings, readLlmSettings } from '@tagsonic/core/llm';
import { fold, type MissingField, type TrackDoc } from '@tagsonic/core/library';
import { MAX_TASK_ITEMS } from '@tagsonic/core/tasks';
import type { JsonValue } from '@tagsonic/sdk';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { TaskCreatedResponse } from '../schemas/tasks.ts';
import { MissingMusicTaskRequest, RuleTagRequest, type MISS_MODES } from '../schemas/library-tasks.ts';
import { createActionTask, positiveNumber, requireAction, TASK_CREATED, type ActionRoute, type BatchItem, PLAN_INVALID } from './tasks.ts';
import type { Ctx } from '../deps.ts';

/** The library-selected tasks, as ACTION_ROUTES rows (apply_task and the log find them by plugin id and action). */
export const LIBRARY_ROUTES = {
  missing: { route: 'missing_music_task', pluginId: 'auto-scrape', action: '自动刮削', rate: { field: 'scrape_rate', default: 1 } },
  ruleTag: { route: 'rule_tag', pluginId: 'rule-tag', action: '流派规则' },
} as const satisfies Record<string, ActionRoute>;

export const NOTHING_MISSING = 'TAGSONIC_ERR_TASK_NOTHING_MISSING';
export const GENRE_NEEDS_RULES = 'TAGSONIC_ERR_TASK_GENRE_NEEDS_RULES';
export const NO_RULES = 'TAGSONIC_ERR_TASK_NO_RULES';

type MissMode = (typeof MISS_MODES)[number];

/** The /progress kind → the library's missing field, and the auto scrape field that fills it. */
const SCRAPE_FIELD: Record<Exclude<MissMode, 'genre'>, { missing: MissingField; field: string }> = {
  lyrics: { missing: 'lyrics', field: 'lyrics' },
  cover: { missing: 'cover', field: 'album_img' },
  album: { missing: 'album', field: 'album' },
  artist: { missing: 'artist', field: 'artist' },
  year: { missing: 'year', field: 'year' },
};

const PLAN_TIMEOUT_MS = 30_000;

export async function libraryTaskRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.post(
    `/apimt/${LIBRARY_ROUTES.missing.route}/`,
    { onRequest: requireUser, schema: { body: MissingMusicTaskRequest, response: { 200: TaskCreatedResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const body = request.body;
      const mode = body.miss_mode as MissMode;
      if (mode === 'genre') {
        throw invalid(GENRE_NEEDS_RULES, 'Tag sources give no genres: fill missing genres with the genre rules (POST /apimt/rule_tag/).');
      }
      const spec = LIBRARY_ROUTES.missing;
      await requireAction(ctx, spec.pluginId);
      const kind = SCRAPE_FIELD[mode];
      const options: Record<string, JsonValue> = {
        music_info: {
          select_mode: body.select_mode ?? 'simple',
          source_list: body.source_list ?? ['qmusic', 'netease'],
          is_skip_tag: body.is_skip_tag === true,
          is_folder_album: body.is_folder_album === true,
          scrape_rate: positiveNumber(body.scrape_rate) ?? spec.rate.default,
        },
        // The dialog sends its modify list; without one, the task fills what is missing and nothing else.
        modify_list: body.modify_list ?? [kind.field],
      };
      // The plugin's own option check (a bad mode or source), before anything is queued.
      await checkOptions(ctx, spec.pluginId, options);
      const tracks = await missingTracks(ctx, kind.missing);
      if (!tracks.length) throw invalid(NOTHING_MISSING, `No track of the library lacks its ${mode}.`, { miss_mode: mode });
      const items: BatchItem[] = tracks.map((t) => ({ key: t.path, paths: [t.path] }));
      const dryRun = body.dry_run === true;
      const rate = positiveNumber(body.scrape_rate) ?? spec.rate.default;
      const task = await createActionTask(ctx, spec, request.user.username, items, { pluginId: spec.pluginId, route: spec.route, options, dryRun, rate });
      return ok({ task_id: task._id, total: task.total, dry_run: dryRun }, TASK_CREATED);
    },
  );

  typed.post(
    `/apimt/${LIBRARY_ROUTES.ruleTag.route}/`,
    { onRequest: requireUser, schema: { body: RuleTagRequest, response: { 200: TaskCreatedResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const body = request.body;
      const spec = LIBRARY_ROUTES.ruleTag;
      const form = body.rule_form;
      if (!form.artistRules?.length && form.useAlbumMajorityGenre !== true && form.useAI !== true) {
        throw invalid(NO_RULES, 'The genre rules hold no rule: add an artist rule, or use the album majority or AI.');
      }
      await requireAction(ctx, spec.pluginId);
      // The AI rule needs the language model of the system settings: refused now rather than failing every item.
      if (form.useAI === true) checkLlmSettings(await readLlmSettings(ctx.store));
      const options: Record<string, JsonValue> = { rule_form: form as unknown as JsonValue };
      const tracks = await missingTracks(ctx, 'genre');
      if (!tracks.length) throw invalid(NOTHING_MISSING, 'No track of the library lacks its genre.', { miss_mode: 'genre' });
      const albums = form.useAlbumMajorityGenre === true ? albumGenres(ctx) : null;
      const items: BatchItem[] = tracks.map((t) => ({
        key: t.path,
        paths: [t.path],
        data: { artists: t.missing.includes('artist') ? [] : [...t.artists], albumGenres: albums ? othersGenres(albums, t) : null },
      }));
      const dryRun = body.dry_run === true;
      const task = await createActionTask(ctx, spec, request.user.username, items, { pluginId: spec.pluginId, route: spec.route, options, dryRun, rate: null });
      return ok({ task_id: task._id, total: task.total, dry_run: dryRun }, TASK_CREATED);
    },
  );
}

/**
 * The library's tracks missing `field`, in path order, confined to the media roots as they are now (a root removed
 * since the scan is left out). At most MAX_TASK_ITEMS: a larger library's rest is taken by the next run.
 */
async function missingTracks(ctx: Ctx, field: MissingField): Promise<TrackDoc[]> {
  await ctx.library.catalog.sync();
  // The scan stored real paths under the roots' real dirs: a prefix test, not a realpath per track (workers
  // resolve each item's path again before touching it).
  const dirs = new Map(ctx.roots.roots.map((r) => [r.name, r.dir.endsWith(path.sep) ? r.dir : r.dir + path.sep]));
  const out: TrackDoc[] = [];
  for (const t of ctx.library.catalog.tracks.values()) {
    if (!t.missing.includes(field)) continue;
    const dir = dirs.get(t.root);
    if (dir && t.path.startsWith(dir)) out.push(t);
  }
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out.slice(0, MAX_TASK_ITEMS);
}

/** Per album: each genre (folded) with its display name and the ids of the tracks carrying it. */
type AlbumGenres = Map<string, Map<string, { name: string; tracks: Set<string> }>>;

function albumGenres(ctx: Ctx): AlbumGenres {
  const albums: AlbumGenres = new Map();
  for (const t of ctx.library.catalog.tracks.values()) {
    if (!t.genres.length || t.missing.includes('album')) continue;
    let genres = albums.get(t.albumId);
    if (!genres) albums.set(t.albumId, (genres = new Map()));
    for (const name of t.genres) {
      const key = fold(name);
      const entry = genres.get(key);
      if (entry) entry.tracks.add(t._id);
      else genres.set(key, { name, tracks: new Set([t._id]) });
    }
  }
  return albums;
}

/** The genres of the album's other tracks with their counts, most first; null for a track without an album. */
function othersGenres(albums: AlbumGenres, track: TrackDoc): Array<[string, number]> | null {
  if (track.missing.includes('album')) return null;
  const out: Array<[string, number]> = [];
  for (const { name, tracks } of albums.get(track.albumId)?.values() ?? []) {
    const n = tracks.size - (tracks.has(track._id) ? 1 : 0);
    if (n > 0) out.push([name, n]);
  }
  return out.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** The plugin's `plan` over no paths: it checks the options and plans nothing. A plugin without plan checks per item. */
async function checkOptions(ctx: Ctx, pluginId: string, options: Record<string, JsonValue>): Promise<void> {
  let planned: unknown;
  try {
    planned = await ctx.bus.request(RPC_SUBJECTS.pluginsInvoke, { pluginId, export: 'plan', options: { paths: [], options } }, { timeoutMs: PLAN_TIMEOUT_MS });
  } catch (error) {
    if (isTagsonicError(error) && error.code === 'TAGSONIC_ERR_PLUGIN_NO_EXPORT') return;
    throw error;
  }
  if (!Array.isArray((planned as { items?: unknown } | null)?.items)) {
    throw new TagsonicError('internal', PLAN_INVALID, `The batch action ${pluginId} planned no item list.`);
  }
}
