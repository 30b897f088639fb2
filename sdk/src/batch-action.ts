/**
 * What a batch action plugin exports. The host turns the user's selection into a task of items (one per audio
 * file by default, or what the action's `plan` returns), queues each item on the bus and runs `runItem` once per
 * item on whichever worker takes it, with the options the user chose in the action's dialog. Items of one task
 * run in parallel on several workers and may be retried after a crash, so `runItem` must depend only on its
 * item and options, never on state kept between calls.
 *
 * Every file effect goes through the host's capabilities (`caps.tags.write`, `caps.files.move` …), which the
 * host binds to the task: they are journaled under the task id, so the task's report can undo them all, and an
 * item whose effect was already made before a crash is not made twice.
 */
import type { Capabilities, CapabilitiesFor, JsonValue } from './capabilities.ts';
import type { Manifest } from './manifest.ts';

/**
 * One unit of work of a task: usually one file; a folder or a group for actions whose unit is larger (a
 * duplicate group, a folder to tidy, a CUE sheet with its audio).
 *
 * @example
 * const file: BatchItem = { key: 'Incoming/Album/01.flac', paths: ['Incoming/Album/01.flac'] };
 * const group: BatchItem = { key: 'hash:9f2c…', paths: ['A/x.flac', 'B/x (1).flac'], data: { keep: 'A/x.flac' } };
 */
export interface BatchItem {
  /** Unique within the task; shown in the report when the item has no single path. */
  key: string;
  /** Full paths inside the media roots (files, or the folder the item is about). */
  paths: string[];
  /** Whatever `plan` wants `runItem` to have (a group's choice, a cue track's times); JSON only. */
  data?: JsonValue;
}

/**
 * What an item changed, or in a dry run what it would change. The report lists these as before → after, and
 * a dry run's list is exactly what its applying task does.
 *
 * @example
 * const retitle: BatchChange = { path: 'A/01.mp3', kind: 'tags', field: 'title', before: 'Intro (HD)', after: 'Intro' };
 * const rename: BatchChange = { path: 'A/01.mp3', kind: 'move', before: 'A/01.mp3', after: 'Artist/Album/01 Intro.mp3' };
 */
export interface BatchChange {
  /** The file, a full path inside the media roots (for `move`: where it was). */
  path: string;
  kind: 'tags' | 'move' | 'copy' | 'delete' | 'create' | 'convert';
  /** Kind `tags`: the tag field (`title`, `artist` …). */
  field?: string;
  before: string | null;
  /** Kind `move`/`copy`/`convert`: the new path; kind `tags`: the new value (null clears it). */
  after: string | null;
}

/**
 * One item's outcome. `success`: done (or, in a dry run, would be done); `skip`: nothing to do, with why;
 * `fail`: it went wrong, with why; `miss`: a lookup found nothing (scraping actions). A thrown error ends the
 * item as `fail` with the error's message, but it also counts against the plugin's health on /mod (failures in
 * a row auto-disable a plugin), so return `fail` for an item's expected failures (an unreadable file).
 *
 * @example
 * const done: BatchItemResult = { status: 'success', changes: [{ path: 'a.mp3', kind: 'tags', field: 'title', before: 'A  b', after: 'A b' }] };
 * const skipped: BatchItemResult = { status: 'skip', reason: 'nothing to replace' };
 */
export interface BatchItemResult {
  status: 'success' | 'skip' | 'fail' | 'miss';
  /** Why it was skipped, failed or missed; shown in the task report. */
  reason?: string;
  changes?: BatchChange[];
  /** Section-specific data for the report (raw vs new values, a duplicate group, candidates); JSON only. */
  report?: JsonValue;
}

/**
 * The input of `plan`: the selected paths (files and folders, full paths inside the media roots) and the
 * dialog's options.
 *
 * @example
 * const input: BatchPlanInput = { paths: ['Incoming/Album'], options: { replace_mode: 'text' } };
 */
export interface BatchPlanInput {
  paths: string[];
  options: Record<string, JsonValue>;
}

/**
 * The input of `runItem`. `dryRun`: touch nothing, return the changes it would make. `taskId` identifies the
 * task (for logs and kv keys); effects are bound to it by the host already.
 *
 * @example
 * const input: BatchRunItemInput = { item: { key: 'a.mp3', paths: ['a.mp3'] }, options: {}, dryRun: true, taskId: 't_01J…' };
 */
export interface BatchRunItemInput {
  item: BatchItem;
  options: Record<string, JsonValue>;
  dryRun: boolean;
  taskId: string;
  /**
   * When a dry run is applied: the changes its preview showed for this item. The host runs the item once more as a
   * dry run and skips it if the changes differ, so an action whose answer is not reproducible (a language model's,
   * an online source's) takes its choice from here rather than asking again — after checking that its
   * preconditions still hold. Absent outside an apply.
   */
  preview?: BatchChange[];
}

/**
 * A batch action's exports.
 * - `plan` (optional) turns the selection into items. Without it the host expands the selection itself: each
 *   selected audio file is an item, and each selected folder contributes the audio files under it (all depths),
 *   sorted by path, confined to the media roots.
 * - `runItem` does one item. Record an item's own failures in its result (or throw); a failing item never stops
 *   the others.
 *
 * @example
 * module.exports = defineBatchAction<typeof manifest>({
 *   async runItem({ item, dryRun }, caps) {
 *     const path = item.paths[0]!;
 *     const { title } = await caps.tags.read({ path });
 *     const cleaned = title?.trim() ?? null;
 *     if (!title || cleaned === title) return { status: 'skip', reason: 'already clean' };
 *     if (!dryRun) await caps.tags.write({ path, tags: { title: cleaned } });
 *     return { status: 'success', changes: [{ path, kind: 'tags', field: 'title', before: title, after: cleaned }] };
 *   },
 * });
 */
export interface BatchAction<Caps = Capabilities> {
  plan?(input: BatchPlanInput, caps: Caps): Promise<{ items: BatchItem[] }>;
  runItem(input: BatchRunItemInput, caps: Caps): Promise<BatchItemResult>;
}

/**
 * Types a batch action's exports. Pass the manifest's type to have `caps` typed by its grants.
 *
 * @example
 * module.exports = defineBatchAction<typeof manifest>({ async runItem({ item }, caps) { ... } });
 */
export const defineBatchAction = <M extends Manifest = Manifest>(
  action: BatchAction<Manifest extends M ? Capabilities : CapabilitiesFor<M>>,
): BatchAction<Manifest extends M ? Capabilities : CapabilitiesFor<M>> => action;
