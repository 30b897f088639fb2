/**
 * How many batch-action items one worker runs at once. An item of a plugin that only lists, stats, hashes, moves or
 * renames files (granted `files`, and at most `fingerprint`: fpcalc runs of a second or two) mostly waits on the
 * disk and holds little memory, so those run ITEMS_PER_SLOT × the worker's command concurrency at a time (at least
 * MIN_ITEMS): the duplicate check, the file-name and folder actions.
 *
 * A plugin that also reads and writes tags (granted `tags`, and otherwise only those two: replace-text, the genre
 * rules, fix-encoding …) runs up to TAGS_ITEMS items at once in lanes of its own kind: its TagLib work runs on the
 * worker's tag threads, and what its items hand into its one sandbox is bounded there, not here: a large result
 * (a track's cover) waits while the sandbox's invocations already hold a quarter of its memory
 * (plugin-host/crossing-budget.ts), so sixteen items on 4 MB covers no longer abort the process.
 *
 * Every other plugin keeps to the command concurrency, as before, across all of them: its items wait for one of
 * those lanes before they start (their time limits not yet running), telling the bus they are alive meanwhile.
 * - `ffmpeg`: the host runs two tool processes at a time and a run waits at most a minute for its turn
 *   (capabilities/media-tools.ts); more conversions would only queue there until they fail as busy.
 * - `http`, `sources`, `llm`: a site's or a model's pacing would only make more items wait there, time limits
 *   running.
 */
import type { Delivery } from '@tagsonic/core/bus';
import type { PluginRegistry } from '@tagsonic/core/plugins';
import { Limiter } from '@tagsonic/core/transcode';

/** The grants of plugins whose items run in the wide lanes. */
const LIGHT_GRANTS: ReadonlySet<string> = new Set(['files', 'fingerprint']);
/** The grants of plugins whose items run in the tags lanes. */
const TAGS_GRANTS: ReadonlySet<string> = new Set([...LIGHT_GRANTS, 'tags']);
/** Items of tags plugins at once per worker (bench/tasks/edit.ts: 8 / 16 / 32 measured, bench/README.md). */
const TAGS_ITEMS = 16;
const ITEMS_PER_SLOT = 4;
const MIN_ITEMS = 16;
/** A plugin's grants are looked up once per this long (a new version with other grants is seen after it). */
const GRANTS_TTL_MS = 10_000;
/** How often an item waiting for a lane restarts its ack-wait timer. */
const KEEPALIVE_MS = 20_000;
/** Long enough to mean "until a lane frees" (Limiter needs a finite wait; setTimeout caps at 2^31 − 1 ms). */
const WAIT_FOREVER_MS = 2 ** 31 - 1;

type Kind = 'light' | 'tags' | 'narrow';

export interface ActionLanes {
  /** Items the bus hands this worker at once. */
  readonly inFlight: number;
  /** The item handler: files-only plugins' items at once, tags plugins' up to TAGS_ITEMS, the others' at the command concurrency. */
  wrap<T extends { pluginId: string }>(handler: (delivery: Delivery<T>) => Promise<void>): (delivery: Delivery<T>) => Promise<void>;
}

export function actionLanes(concurrency: number, registry: Pick<PluginRegistry, 'active'>): ActionLanes {
  const narrowLanes = Math.max(concurrency, 2);
  const inFlight = Math.max(concurrency * ITEMS_PER_SLOT, MIN_ITEMS, narrowLanes);
  const lanes = { narrow: new Limiter(narrowLanes), tags: new Limiter(Math.min(Math.max(TAGS_ITEMS, narrowLanes), inFlight)) };
  const kinds = new Map<string, { kind: Kind; until: number }>();

  const kindOf = async (pluginId: string): Promise<Kind> => {
    const known = kinds.get(pluginId);
    if (known && known.until > Date.now()) return known.kind;
    // A plugin that is gone or disabled fails in the handler with its reason; it takes a lane like any other.
    const grants = Object.keys((await registry.active(pluginId).catch(() => null))?.manifest.permissions ?? { none: true });
    const kind: Kind = grants.every((grant) => LIGHT_GRANTS.has(grant)) ? 'light' : grants.every((grant) => TAGS_GRANTS.has(grant)) ? 'tags' : 'narrow';
    kinds.set(pluginId, { kind, until: Date.now() + GRANTS_TTL_MS });
    return kind;
  };

  return {
    inFlight,
    wrap: (handler) => async (delivery) => {
      const kind = await kindOf(delivery.payload.pluginId);
      if (kind === 'light') return handler(delivery);
      const lane = lanes[kind];
      const keepalive = setInterval(() => void delivery.working().catch(() => undefined), KEEPALIVE_MS);
      let release: () => void;
      try {
        release = await lane.acquire(WAIT_FOREVER_MS);
      } finally {
        clearInterval(keepalive);
      }
      try {
        return await handler(delivery);
      } finally {
        release();
      }
    },
  };
}
