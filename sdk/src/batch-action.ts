/**
 * What a batch action plugin exports: one `run` over the files the user selected, with the options the
 * user chose in the action's dialog, returning a summary the host stores as the task's report.
 */
import type { Capabilities, CapabilitiesFor, JsonValue } from './capabilities.ts';
import type { Manifest } from './manifest.ts';

/**
 * The input of a run: the selected media-root paths (files, or folders the action walks itself) and the
 * options from the action's dialog.
 *
 * @example
 * const options: BatchActionOptions = { paths: ['Incoming/Album'], options: { dry_run: true } };
 */
export interface BatchActionOptions {
  paths: string[];
  options: Record<string, JsonValue>;
}

/**
 * One file's outcome in {@link BatchActionResult}.
 *
 * @example
 * const item: BatchActionItem = { path: 'Incoming/Album/01.flac', status: 'fail', reason: 'no title tag' };
 */
export interface BatchActionItem {
  path: string;
  status: 'success' | 'skip' | 'fail';
  /** Why it was skipped or failed; shown in the task report. */
  reason?: string;
}

/**
 * A run's summary. The counts are derived by the host from `items`.
 *
 * @example
 * const result: BatchActionResult = { items: [{ path: 'a.flac', status: 'success' }], message: '1 file renamed' };
 */
export interface BatchActionResult {
  items: BatchActionItem[];
  /** One line for the task list. */
  message?: string;
}

/**
 * A batch action's exports. Report progress as you go; a thrown {@link PluginError} fails the whole run,
 * so record per-file failures in `items` instead and keep going.
 *
 * @example
 * module.exports = defineBatchAction<typeof manifest>({
 *   async run({ paths }, caps) {
 *     const items: BatchActionItem[] = [];
 *     for (const [i, path] of paths.entries()) {
 *       const track = await caps.tags.read({ path });
 *       const title = await caps.text.convert({ text: track.title ?? '', direction: 't2s' });
 *       await caps.tags.write({ path, tags: { title } });
 *       items.push({ path, status: 'success' });
 *       caps.progress({ done: i + 1, total: paths.length });
 *     }
 *     return { items };
 *   },
 * });
 */
export interface BatchAction<Caps = Capabilities> {
  run(options: BatchActionOptions, caps: Caps): Promise<BatchActionResult>;
}

/**
 * Types a batch action's exports. Pass the manifest's type to have `caps` typed by its grants.
 *
 * @example
 * module.exports = defineBatchAction<typeof manifest>({ async run({ paths }, caps) { ... } });
 */
export const defineBatchAction = <M extends Manifest = Manifest>(
  action: BatchAction<Manifest extends M ? Capabilities : CapabilitiesFor<M>>,
): BatchAction<Manifest extends M ? Capabilities : CapabilitiesFor<M>> => action;
