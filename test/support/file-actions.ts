/**
 * The file batch actions (tidy-folder, remove-null-folder, check-duplicate) on real host services, for their
 * tests: plugins/<id> bundled by the runtime's builtin loader and loaded through loadPlugin (manifest check,
 * sandbox, only the granted capabilities) over a temporary media folder, the real embedded store, tag engine and
 * journal. `plan` and `runItem` invoke the plugin's exports as the task engine does; `runAll` plans, then runs
 * every item in order, like a task on one worker.
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { createTagJournal, type TagJournal } from '@tagsonic/core/tags';
import type { BatchItem, BatchItemResult, JsonValue } from '@tagsonic/sdk';
import { builtinPlugin, loadPlugin, type LoadedPlugin } from '@tagsonic/workers/plugin-runtime';

export interface FileAction {
  plugin: LoadedPlugin;
  plan(paths: string[], options: Record<string, JsonValue>): Promise<{ items: BatchItem[] }>;
  runItem(item: BatchItem, options: Record<string, JsonValue>, dryRun?: boolean): Promise<BatchItemResult>;
  runAll(paths: string[], options: Record<string, JsonValue>, dryRun?: boolean): Promise<Array<{ item: BatchItem; result: BatchItemResult }>>;
}

export interface FileActionHost {
  dir: string;
  media: string;
  store: Store;
  journal: TagJournal;
  action(id: string): Promise<FileAction>;
  close(): Promise<void>;
}

export async function openFileActionHost(): Promise<FileActionHost> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-file-action-'));
  const media = path.join(dir, 'media');
  await mkdir(media, { recursive: true });
  const roots = await MediaRoots.open({ media });
  const store = await openEmbeddedStore({ dir: path.join(dir, 'store') });
  const journal = createTagJournal({ store, blobDir: path.join(dir, 'blobs') });
  const loaded: LoadedPlugin[] = [];
  return {
    dir,
    media,
    store,
    journal,
    async action(id) {
      const { manifest, code } = await builtinPlugin(id);
      const plugin = loadPlugin({ manifest, code, env: {}, host: { roots, journal, store }, sandbox: { timeoutMs: 120_000 } });
      loaded.push(plugin);
      const plan = (paths: string[], options: Record<string, JsonValue>) => plugin.invoke('plan', { paths, options }) as unknown as Promise<{ items: BatchItem[] }>;
      const runItem = (item: BatchItem, options: Record<string, JsonValue>, dryRun = false) =>
        plugin.invoke('runItem', { item, options, dryRun, taskId: 'task-test' }) as unknown as Promise<BatchItemResult>;
      return {
        plugin,
        plan,
        runItem,
        async runAll(paths, options, dryRun = false) {
          const { items } = await plan(paths, options);
          const out = [];
          for (const item of items) out.push({ item, result: await runItem(item, options, dryRun) });
          return out;
        },
      };
    },
    async close() {
      for (const plugin of loaded) plugin.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Every file under `root`, relative, sorted: the listing the tests compare. */
export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort();
}

/** Every folder under `root`, relative, sorted. */
export async function listFolders(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isDirectory()).map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort();
}
