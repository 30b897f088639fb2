/**
 * How many batch-action items one worker runs at once. An item mostly waits — on the disk (a tag write's fsyncs),
 * on the tag threads, on a source's site — so its lane count is ITEMS_PER_SLOT × the worker's command concurrency
 * (at least MIN_ITEMS), not the concurrency itself: at the shipped 4, a 10k-track batch edit spent a third of its
 * time with the worker's thread idle (bench/README.md "Batch actions through the task engine").
 *
 * Items of a plugin granted `ffmpeg` or `fingerprint` are the exception: the host runs two tool processes at a time
 * and a run waits at most a minute for its turn (capabilities/media-tools.ts), so they keep to the command
 * concurrency, as before; more of them in flight would only queue there until they fail as busy. They wait for a
 * tool lane before the item starts (its time limits not yet running), telling the bus they are alive meanwhile.
 */
import type { Delivery } from '@tagsonic/core/bus';
import type { PluginRegistry } from '@tagsonic/core/plugins';
import { Limiter } from '@tagsonic/core/transcode';

const ITEMS_PER_SLOT = 4;
const MIN_ITEMS = 16;
/** A plugin's grants are looked up once per this long (a new version with other grants is seen after it). */
const GRANTS_TTL_MS = 10_000;
/** How often an item waiting for a tool lane restarts its ack-wait timer. */
const KEEPALIVE_MS = 20_000;
/** Long enough to mean "until a lane frees" (Limiter needs a finite wait; setTimeout caps at 2^31 − 1 ms). */
const WAIT_FOREVER_MS = 2 ** 31 - 1;

export interface ActionLanes {
  /** Items the bus hands this worker at once. */
  readonly inFlight: number;
  /** The item handler, holding the items of tool-running plugins to the command concurrency. */
  wrap<T extends { pluginId: string }>(handler: (delivery: Delivery<T>) => Promise<void>): (delivery: Delivery<T>) => Promise<void>;
}

export function actionLanes(concurrency: number, registry: Pick<PluginRegistry, 'active'>): ActionLanes {
  const toolLanes = Math.max(concurrency, 2);
  const tools = new Limiter(toolLanes);
  const grants = new Map<string, { tools: boolean; until: number }>();

  const runsTools = async (pluginId: string): Promise<boolean> => {
    const known = grants.get(pluginId);
    if (known && known.until > Date.now()) return known.tools;
    // A plugin that is gone or disabled fails in the handler with its reason; no lane is needed for that.
    const permissions = (await registry.active(pluginId).catch(() => null))?.manifest.permissions;
    const uses = Boolean(permissions?.ffmpeg || permissions?.fingerprint);
    grants.set(pluginId, { tools: uses, until: Date.now() + GRANTS_TTL_MS });
    return uses;
  };

  return {
    inFlight: Math.max(concurrency * ITEMS_PER_SLOT, MIN_ITEMS, toolLanes),
    wrap: (handler) => async (delivery) => {
      if (!(await runsTools(delivery.payload.pluginId))) return handler(delivery);
      const keepalive = setInterval(() => void delivery.working().catch(() => undefined), KEEPALIVE_MS);
      let release: () => void;
      try {
        release = await tools.acquire(WAIT_FOREVER_MS);
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
