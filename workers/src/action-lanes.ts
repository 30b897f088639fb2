/**
 * How many batch-action items one worker runs at once. An item of a plugin that only lists, stats, hashes, moves or
 * renames files (granted `files`, and at most `fingerprint`: fpcalc runs of a second or two) mostly waits on the
 * disk and holds little memory, so those run ITEMS_PER_SLOT × the worker's command concurrency at a time (at least
 * MIN_ITEMS): the duplicate check, the file-name and folder actions.
 *
 * Every other plugin keeps to the command concurrency, as before, across all of them: its items wait for one of
 * those lanes before they start (their time limits not yet running), telling the bus they are alive meanwhile.
 * - `ffmpeg`: the host runs two tool processes at a time and a run waits at most a minute for its turn
 *   (capabilities/media-tools.ts); more conversions would only queue there until they fail as busy.
 * - `tags`, `http`, `sources`, `llm`…: an invocation holds what crossed into the sandbox (a track's cover, a
 *   site's answer) until it ends, and all items of a plugin share one sandbox of 64 MB. Sixteen replace-text items
 *   at once on tracks with 4 MB covers made isolated-vm abort the whole process (FatalRuntimeError); eight did not.
 */
import type { Delivery } from '@tagsonic/core/bus';
import type { PluginRegistry } from '@tagsonic/core/plugins';
import { Limiter } from '@tagsonic/core/transcode';

/** The grants of plugins whose items run in the wide lanes. */
const LIGHT_GRANTS: ReadonlySet<string> = new Set(['files', 'fingerprint']);
const ITEMS_PER_SLOT = 4;
const MIN_ITEMS = 16;
/** A plugin's grants are looked up once per this long (a new version with other grants is seen after it). */
const GRANTS_TTL_MS = 10_000;
/** How often an item waiting for a lane restarts its ack-wait timer. */
const KEEPALIVE_MS = 20_000;
/** Long enough to mean "until a lane frees" (Limiter needs a finite wait; setTimeout caps at 2^31 − 1 ms). */
const WAIT_FOREVER_MS = 2 ** 31 - 1;

export interface ActionLanes {
  /** Items the bus hands this worker at once. */
  readonly inFlight: number;
  /** The item handler, holding the items of all but files-only plugins to the command concurrency. */
  wrap<T extends { pluginId: string }>(handler: (delivery: Delivery<T>) => Promise<void>): (delivery: Delivery<T>) => Promise<void>;
}

export function actionLanes(concurrency: number, registry: Pick<PluginRegistry, 'active'>): ActionLanes {
  const narrowLanes = Math.max(concurrency, 2);
  const narrow = new Limiter(narrowLanes);
  const kinds = new Map<string, { light: boolean; until: number }>();

  const isLight = async (pluginId: string): Promise<boolean> => {
    const known = kinds.get(pluginId);
    if (known && known.until > Date.now()) return known.light;
    // A plugin that is gone or disabled fails in the handler with its reason; it takes a lane like any other.
    const permissions = (await registry.active(pluginId).catch(() => null))?.manifest.permissions;
    const light = Boolean(permissions) && Object.keys(permissions!).every((grant) => LIGHT_GRANTS.has(grant));
    kinds.set(pluginId, { light, until: Date.now() + GRANTS_TTL_MS });
    return light;
  };

  return {
    inFlight: Math.max(concurrency * ITEMS_PER_SLOT, MIN_ITEMS, narrowLanes),
    wrap: (handler) => async (delivery) => {
      if (await isLight(delivery.payload.pluginId)) return handler(delivery);
      const keepalive = setInterval(() => void delivery.working().catch(() => undefined), KEEPALIVE_MS);
      let release: () => void;
      try {
        release = await narrow.acquire(WAIT_FOREVER_MS);
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
