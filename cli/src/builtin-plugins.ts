/**
 * Records the plugins shipped in `plugins/` in the registry at start-up, so the /mod screen lists them and the
 * workers' pools load them like any upload. Each one is bundled (esbuild, as at first use) and synced on its own:
 * a built-in that does not build or has a broken manifest is reported and skipped, never stopping the server.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from '@tagsonic/sdk';
import type { PluginRegistry } from '@tagsonic/core/plugins';
import { BUILTIN_PLUGINS_DIR, builtinPlugin } from '@tagsonic/workers/plugin-runtime';

/** The ids of the folders of `dir` that hold a manifest.json, in name order. */
async function builtinIds(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const ids: string[] = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const files = await readdir(path.join(dir, entry.name)).catch(() => [] as string[]);
    if (files.includes('manifest.json')) ids.push(entry.name);
  }
  return ids;
}

/** Syncs every built-in plugin of `dir` (default: this checkout's `plugins/`); returns the ids synced. */
export async function syncBuiltinPlugins(registry: PluginRegistry, log: { warn(obj: unknown, msg: string): void }, dir = BUILTIN_PLUGINS_DIR): Promise<string[]> {
  const synced: string[] = [];
  for (const id of await builtinIds(dir)) {
    try {
      const plugin = await builtinPlugin(id, { dir });
      // Parsed, not yet validated: the registry validates it and refuses it with the path of the problem.
      await registry.syncBuiltins([{ manifest: plugin.manifest as Manifest, code: plugin.code }]);
      synced.push(id);
    } catch (error) {
      log.warn({ err: error }, `built-in plugin ${id} skipped: ${(error as Error).message}`);
    }
  }
  return synced;
}
