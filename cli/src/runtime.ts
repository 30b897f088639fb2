import path from 'node:path';
import { loadConfig, ensureHome, ensureSecrets, type Config, type Secrets } from '@tagsonic/core/config';
import { useToolDir } from '@tagsonic/core';
import { openStore, type Store } from '@tagsonic/core/store';
import { openBus, type Bus } from '@tagsonic/core/bus';
import { MediaRoots } from '@tagsonic/core/media';
import { Users } from '@tagsonic/core/users';
import { Tasks } from '@tagsonic/core/tasks';
import { createTagJournal, type TagJournal } from '@tagsonic/core/tags';
import { openLibrary, type Library } from '@tagsonic/core/library';
import { StorePluginRegistry, type PluginRegistry } from '@tagsonic/core/plugins';
import type { GatewayDeps } from '@tagsonic/gateway';
import { buildId } from './build-id.ts';

/** The wired parts of one process, in either mode. */
export interface Runtime {
  config: Config;
  secrets: Secrets;
  secretsCreated: boolean;
  store: Store;
  bus: Bus;
  roots: MediaRoots;
  users: Users;
  tasks: Tasks;
  journal: TagJournal;
  library: Library;
  /** Installed plugins (built-in and uploaded): the gateway manages them, workers' plugin pools load them. */
  plugins: PluginRegistry;
  buildId: string;
  close(): Promise<void>;
}

/**
 * The composition root: picks the drivers (embedded store + in-process bus by default; MongoDB and
 * NATS when their URLs are set) and builds the services gateway and workers are given.
 */
export async function openRuntime(config: Config = loadConfig()): Promise<Runtime> {
  await ensureHome(config);
  // ffmpeg, ffprobe and fpcalc: <data>/bin/ first (an administrator's own build), else PATH.
  useToolDir(path.join(config.dataDir, 'bin'));
  const { secrets, created } = await ensureSecrets(config.dataDir);
  const store = await openStore({ mongodbUrl: config.mongodbUrl, dataDir: config.dataDir });
  const bus = await openBus({ natsUrl: config.natsUrl, name: `tagsonic-${process.pid}` });
  const roots = await MediaRoots.open({ media: config.mediaDir, download: config.downloadDir, webdav: config.webdavDir });
  const users = new Users(store);
  const tasks = new Tasks(store, bus);
  const journal = createTagJournal({ store, blobDir: path.join(config.dataDir, 'journal-blobs'), owner: tasks.leases });
  await users.init();
  await tasks.init();
  const library = await openLibrary({ store, tasks, roots: roots.roots, artistDir: path.join(config.dataDir, 'artists') });
  const plugins = new StorePluginRegistry(store);
  await plugins.init();
  return {
    config,
    secrets,
    secretsCreated: created,
    store,
    bus,
    roots,
    users,
    tasks,
    journal,
    library,
    plugins,
    buildId: buildId(),
    async close() {
      await bus.close();
      await store.close();
    },
  };
}

/** The gateway's dependencies from a runtime (one place maps them); `overrides` adds or replaces options. */
export function gatewayDeps(rt: Runtime, overrides: Partial<GatewayDeps> = {}): GatewayDeps {
  return {
    config: rt.config,
    secrets: rt.secrets,
    store: rt.store,
    bus: rt.bus,
    roots: rt.roots,
    users: rt.users,
    tasks: rt.tasks,
    journal: rt.journal,
    library: rt.library,
    plugins: rt.plugins,
    buildId: rt.buildId,
    ...overrides,
  };
}
