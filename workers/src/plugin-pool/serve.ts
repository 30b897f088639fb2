import { RPC_SUBJECTS, type Bus, type PluginInvokeRequest, type Subscription } from '@tagsonic/core/bus';
import { invalid } from '@tagsonic/core/errors';
import type { PluginPool } from './pool.ts';

/** Export names a caller may ask for: identifiers only (never `__proto__`-like keys or paths). */
const EXPORT_NAME = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/;

/**
 * Answers `tagsonic.rpc.plugins.invoke` from this worker's pool. Workers share one queue group, so each
 * request runs on one of them; a plugin's TagsonicError (its code and message) reaches the caller as is.
 */
export function servePluginInvocations(bus: Bus, pool: PluginPool, concurrency: number): Promise<Subscription> {
  return bus.serve<PluginInvokeRequest>(
    RPC_SUBJECTS.pluginsInvoke,
    async (request) => {
      if (typeof request?.pluginId !== 'string' || typeof request.export !== 'string' || !EXPORT_NAME.test(request.export)) {
        throw invalid('TAGSONIC_ERR_PLUGIN_INVOKE_INVALID', 'A plugin call needs a pluginId and an export name.');
      }
      return pool.invoke(request.pluginId, request.export, request.options);
    },
    { queue: 'plugin-pool', concurrency },
  );
}
