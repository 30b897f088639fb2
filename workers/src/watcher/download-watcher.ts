/**
 * The download-folder watcher (issue 12 "Background watcher"; spec doc 2 §9: every 3 minutes). Each round looks at
 * the audio files under the download root and hands the new ones, once they have stopped changing, to two tasks:
 * - 后台刮削: the built-in auto-scrape batch action with the background-scraping settings (silent_select_mode,
 *   silence_source_list, silence_modify_list, silence_is_skip_tag, silence_is_folder_album, silence_music_info's
 *   scrape_rate), planned by the plugin like the 自动刮削 route;
 * - then, once that task has ended, 整理文件夹 per tidy_music: `tidy` runs the tidy-folder action with the tidy
 *   settings (root_path, default the media folder; dir_list, default artist/album; is_clean_music and the clean_*
 *   rules as its rule_form), `move` moves the
 *   files into root_path as they are (no levels); anything else leaves them in the download folder.
 * A file counts as finished only when a later round sees it with the same size and modification time, so a file
 * still being downloaded or copied is left for the next round. What each file went through is kept in the store
 * (`download_watch`, one document per path), so a restart neither loses nor repeats work; one round runs at a
 * time across processes (a lease on the state document), and every round stamps `lastRunAt` (celeryTaskLastTime).
 * The settings are read each round with core/settings' readSettings (defaults filled in there), so a change made with
 * update_sys applies from the next round on, in every process; `is_watch_file` off stops the watcher.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { newId } from '@tagsonic/core';
import type { Bus } from '@tagsonic/core/bus';
import { RPC_SUBJECTS } from '@tagsonic/core/bus';
import type { MediaRoots } from '@tagsonic/core/media';
import type { Collection, Store } from '@tagsonic/core/store';
import { readSettings, type SystemSettings } from '@tagsonic/core/settings';
import { expandSelection, SUBJECTS, type Tasks } from '@tagsonic/core/tasks';
import type { JsonValue } from '@tagsonic/sdk';

/** Every 3 minutes (spec doc 2 §9). */
export const DOWNLOAD_WATCH_SCHEDULE = '*/3 * * * *';
export const DOWNLOAD_WATCH_COLLECTION = 'download_watch';
export const WATCHER_STATE_COLLECTION = 'watcher_state';
export const WATCHER_STATE_ID = 'download-watcher';
export const WATCHER_ACTOR = 'watcher';
/** A round that died keeps the lease this long; the next one after it runs. */
const LEASE_MS = 10 * 60_000;
const PLAN_TIMEOUT_MS = 120_000;

/** One audio file of the download folder as the watcher last saw it. `_id` = its full path. */
export interface WatchedFileDoc {
  _id: string;
  size: number;
  mtimeMs: number;
  firstSeenAt: Date;
  /** The 后台刮削 task it went into (null: not yet, still changing or just seen). */
  scrapeTaskId: string | null;
  /** The 整理文件夹 task after it, or 'none' when tidy_music asks for nothing. */
  tidyTaskId: string | null;
  [key: string]: unknown;
}

export interface WatcherStateDoc {
  _id: string;
  lastRunAt: Date | null;
  leaseUntil: Date | null;
  lastRound?: WatchRound | null;
  [key: string]: unknown;
}

export interface WatchRound {
  /** Why nothing was looked at: `off` (is_watch_file false), `busy` (another round runs), `no-folder`. */
  skipped?: 'off' | 'busy' | 'no-folder';
  /** Audio files in the download folder. */
  files: number;
  /** Files seen changing (or for the first time), left for the next round. */
  waiting: number;
  scrapeTaskId?: string;
  tidyTaskId?: string;
  /** Why the files whose scrape ended could not be tidied (they stay in the download folder, left alone). */
  tidyError?: string;
}

export interface DownloadWatcherDeps {
  roots: MediaRoots;
  store: Store;
  tasks: Tasks;
  /** Plans through the workers' plugin pool, as the gateway's action routes do. */
  bus: Bus;
  now?: () => Date;
}

export class DownloadWatcher {
  private readonly files: Collection<WatchedFileDoc>;
  private readonly state: Collection<WatcherStateDoc>;
  private readonly now: () => Date;
  private readonly deps: DownloadWatcherDeps;

  constructor(deps: DownloadWatcherDeps) {
    this.deps = deps;
    this.files = deps.store.collection<WatchedFileDoc>(DOWNLOAD_WATCH_COLLECTION);
    this.state = deps.store.collection<WatcherStateDoc>(WATCHER_STATE_COLLECTION);
    this.now = deps.now ?? (() => new Date());
  }

  /** When the last round ran (celeryTaskLastTime), or null. */
  async lastRunAt(): Promise<Date | null> {
    return (await this.state.findOne({ _id: WATCHER_STATE_ID }))?.lastRunAt ?? null;
  }

  async tick(): Promise<WatchRound> {
    if (!(await this.claim())) return { skipped: 'busy', files: 0, waiting: 0 };
    let round: WatchRound = { files: 0, waiting: 0 };
    try {
      round = await this.round();
      return round;
    } finally {
      await this.state.updateOne({ _id: WATCHER_STATE_ID }, { $set: { leaseUntil: null, lastRunAt: this.now(), lastRound: round } });
    }
  }

  /** One round at a time across processes: the state document's lease, taken by a conditional update. */
  private async claim(): Promise<boolean> {
    const now = this.now();
    try {
      await this.state.insertOne({ _id: WATCHER_STATE_ID, lastRunAt: null, leaseUntil: null });
    } catch {
      // It exists already.
    }
    const taken = await this.state.updateOne(
      { _id: WATCHER_STATE_ID, $or: [{ leaseUntil: null }, { leaseUntil: { $lt: now } }] },
      { $set: { leaseUntil: new Date(now.getTime() + LEASE_MS) } },
    );
    return taken.modifiedCount === 1;
  }

  private async round(): Promise<WatchRound> {
    const settings = await readSettings(this.deps.store);
    if (!settings.is_watch_file) return { skipped: 'off', files: 0, waiting: 0 };
    const root = this.deps.roots.roots.find((r) => r.name === 'download');
    if (!root) return { skipped: 'no-folder', files: 0, waiting: 0 };
    const found = (await expandSelection(this.deps.roots, [root.dir]).catch(() => []))
      .map((item) => item.paths[0]!)
      // Hidden entries are not the user's: partial downloads (.name.part), the trash, a NAS's own folders.
      .filter((file) => !path.relative(root.dir, file).split(path.sep).some((segment) => segment.startsWith('.')));
    const round: WatchRound = { files: found.length, waiting: 0 };

    // Tidy what a finished scrape left; before the new scrape, so one round moves on both. A tidy the settings
    // make impossible (a root_path outside the media folders) is reported and never holds up new downloads.
    try {
      const tidied = await this.tidyAfterScrape(settings);
      if (tidied) round.tidyTaskId = tidied;
    } catch (error) {
      round.tidyError = (error as Error).message;
    }

    const ready: string[] = [];
    for (const file of found) {
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) continue;
      const seen = await this.files.findOne({ _id: file });
      if (seen?.scrapeTaskId) continue;
      if (!seen || seen.size !== info.size || seen.mtimeMs !== info.mtimeMs || info.size === 0) {
        // First sight, or still being written: look again next round.
        await this.files.updateOne(
          { _id: file },
          { $set: { size: info.size, mtimeMs: info.mtimeMs, scrapeTaskId: null, tidyTaskId: null }, $setOnInsert: { firstSeenAt: this.now() } },
          { upsert: true },
        );
        round.waiting++;
        continue;
      }
      ready.push(file);
    }
    if (ready.length) {
      const options = scrapeOptions(settings);
      const rate = positive(settings.silence_music_info.scrape_rate) ?? 1;
      const taskId = await this.createActionTask('auto-scrape', '后台刮削', ready, options, rate);
      for (const file of ready) await this.files.updateOne({ _id: file }, { $set: { scrapeTaskId: taskId } });
      round.scrapeTaskId = taskId;
    }
    return round;
  }

  /** Files whose scrape task has ended → one tidy task per tidy_music, or marked as left alone. */
  private async tidyAfterScrape(settings: SystemSettings): Promise<string | null> {
    const pending = await this.files.find({ scrapeTaskId: { $ne: null }, tidyTaskId: null });
    if (!pending.length) return null;
    const ended = new Map<string, boolean>();
    const due: string[] = [];
    for (const doc of pending) {
      const taskId = doc.scrapeTaskId!;
      if (!ended.has(taskId)) ended.set(taskId, (await this.deps.tasks.get(taskId).catch(() => null))?.status !== 'running');
      if (ended.get(taskId)) due.push(doc._id);
    }
    if (!due.length) return null;
    const mode = settings.tidy_music;
    const present: string[] = [];
    for (const file of due) if (await stat(file).then((s) => s.isFile(), () => false)) present.push(file);
    let taskId = 'none';
    if ((mode === 'tidy' || mode === 'move') && present.length) {
      const media = this.deps.roots.roots.find((r) => r.name === 'media');
      const rootPath = settings.root_path.trim() || media?.dir;
      if (rootPath) {
        const options: Record<string, JsonValue> = {
          root_path: rootPath,
          dir_list: mode === 'move' ? [] : settings.dir_list,
          rule_form: mode === 'tidy' ? ruleForm(settings) : { is_clean_music: false },
        };
        try {
          taskId = await this.createActionTask('tidy-folder', '整理文件夹', present, options, null);
        } catch (error) {
          for (const file of due) await this.files.updateOne({ _id: file }, { $set: { tidyTaskId: 'none' } });
          throw error;
        }
      }
    }
    for (const file of due) await this.files.updateOne({ _id: file }, { $set: { tidyTaskId: taskId } });
    return taskId === 'none' ? null : taskId;
  }

  /** A batch-action task as the gateway's routes make it: the plugin's plan (or one item per file), then queued. */
  private async createActionTask(pluginId: string, action: string, paths: string[], options: Record<string, JsonValue>, rate: number | null): Promise<string> {
    let items: Array<{ key: string; paths: string[]; data?: JsonValue }>;
    try {
      const planned = (await this.deps.bus.request(RPC_SUBJECTS.pluginsInvoke, { pluginId, export: 'plan', options: { paths, options } }, { timeoutMs: PLAN_TIMEOUT_MS })) as { items?: unknown };
      if (!Array.isArray(planned?.items)) throw new Error(`${pluginId} planned no item list`);
      items = planned.items as typeof items;
    } catch (error) {
      if ((error as { code?: string }).code !== 'TAGSONIC_ERR_PLUGIN_NO_EXPORT') throw error;
      items = paths.map((p) => ({ key: p, paths: [p] }));
    }
    const task = await this.deps.tasks.create({
      id: newId(),
      kind: `action:${pluginId}`,
      action,
      actor: WATCHER_ACTOR,
      subject: SUBJECTS.actionItem,
      fields: { pluginId, route: 'watcher', options, dryRun: false, rate, sourceTaskId: null, appliedTaskId: null },
      extra: `${items.length} 个项目（下载文件夹）`,
      items: items.map((item) => ({
        path: item.paths.length === 1 ? item.paths[0]! : item.key,
        payload: { pluginId, item, options, dryRun: false, actor: WATCHER_ACTOR, ...(rate ? { rate } : {}) },
      })),
    });
    return task._id;
  }
}

/** The background-scraping settings as batchAutoUpdateId3's payload; an empty modify list leaves auto-scrape's own. */
export function scrapeOptions(settings: SystemSettings): Record<string, JsonValue> {
  const info: Record<string, JsonValue> = {
    select_mode: settings.silent_select_mode,
    source_list: settings.silence_source_list,
    is_skip_tag: settings.silence_is_skip_tag,
    is_folder_album: settings.silence_is_folder_album,
  };
  const rate = positive(settings.silence_music_info.scrape_rate);
  if (rate) info.scrape_rate = rate;
  const options: Record<string, JsonValue> = { music_info: info };
  if (settings.silence_modify_list.length) options.modify_list = settings.silence_modify_list;
  return options;
}

/** The tidy drawer's clean-up keys as the tidy action's rule_form (doc 1 §3 "Tidy form"). */
function ruleForm(settings: SystemSettings): Record<string, JsonValue> {
  return {
    is_clean_music: settings.is_clean_music,
    clean_format_priority: settings.clean_format_priority,
    clean_size_rule: settings.clean_size_rule,
    clean_bitrate_rule: settings.clean_bitrate_rule,
    clean_sample_rule: settings.clean_sample_rule,
    clean_name_rule: settings.clean_name_rule,
    clean_delete_rule: settings.clean_delete_rule,
  };
}

function positive(value: JsonValue | undefined): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : null;
}
