/**
 * A built-in batch action on real host services, for the action tests: plugins/<id> bundled by the runtime's
 * builtin loader and loaded through loadPlugin (manifest check, sandbox, only the granted capabilities) with a
 * temporary media folder, the real embedded store, tag engine and journal. `runItem` invokes the plugin's
 * export as the task engine does, one item (one file) at a time.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { createTagJournal, type TagJournal } from '@tagsonic/core/tags';
import type { BatchItemResult, JsonValue } from '@tagsonic/sdk';
import { builtinPlugin, loadPlugin, type LoadedPlugin } from '@tagsonic/workers/plugin-runtime';

export interface ActionHost {
  dir: string;
  media: string;
  store: Store;
  journal: TagJournal;
  /** Loads the built-in action `id` (once per host). */
  action(id: string): Promise<{
    runItem(file: string, options: Record<string, JsonValue>, dryRun?: boolean): Promise<BatchItemResult>;
    plugin: LoadedPlugin;
  }>;
  close(): Promise<void>;
}

export async function openActionHost(): Promise<ActionHost> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-action-'));
  const media = path.join(dir, 'media');
  await mkdir(media, { recursive: true });
  const roots = await MediaRoots.open({ media });
  const store = await openEmbeddedStore({ dir: path.join(dir, 'store') });
  const journal = createTagJournal({ store, blobDir: path.join(dir, 'blobs') });
  const loaded = new Map<string, LoadedPlugin>();
  return {
    dir,
    media,
    store,
    journal,
    async action(id) {
      let plugin = loaded.get(id);
      if (!plugin) {
        const { manifest, code } = await builtinPlugin(id);
        plugin = loadPlugin({ manifest, code, env: {}, host: { roots, journal, store }, sandbox: { timeoutMs: 60_000 } });
        loaded.set(id, plugin);
      }
      const p = plugin;
      return {
        plugin: p,
        runItem: (file, options, dryRun = false) =>
          p.invoke('runItem', { item: { key: file, paths: [file] }, options, dryRun, taskId: 'task-test' }) as unknown as Promise<BatchItemResult>,
      };
    },
    async close() {
      for (const plugin of loaded.values()) plugin.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
