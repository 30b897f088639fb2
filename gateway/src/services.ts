import path from 'node:path';
import { mkdir, realpath } from 'node:fs/promises';
import { createTagJournal } from '@tagsonic/core/tags';
import { SubsonicCredentials } from '@tagsonic/core/users';
import { LoginThrottle } from '@tagsonic/core/auth';
import { DirectoryLister, FileStates } from '@tagsonic/core/files';
import { Records } from '@tagsonic/core/records';
import { openLibrary } from '@tagsonic/core/library';
import { Playlists } from '@tagsonic/core/playlists';
import { StorePluginRegistry } from '@tagsonic/core/plugins';
import { buildMediaServices } from './subsonic/media-services.ts';
import type { Ctx, GatewayDeps } from './deps.ts';

/** Builds the gateway's services on top of the runtime's deps and prepares their indexes and folders. */
export async function buildContext(deps: GatewayDeps): Promise<Ctx> {
  const subsonic = new SubsonicCredentials(deps.store, deps.users, deps.secrets.subsonicKey);
  const fileStates = new FileStates(deps.store);
  await subsonic.init();
  const throttle = new LoginThrottle(deps.store, { ...deps.loginLimits, scope: 'dashboard' });
  const subsonicThrottle = new LoginThrottle(deps.store, { ...deps.loginLimits, scope: 'subsonic' });
  await throttle.init();
  await subsonicThrottle.init();
  await fileStates.init();
  const uploadsDir = path.join(deps.config.dataDir, 'uploads');
  const backgroundDir = path.join(deps.config.dataDir, 'background');
  await mkdir(uploadsDir, { recursive: true, mode: 0o700 });
  await mkdir(backgroundDir, { recursive: true, mode: 0o700 });
  const library = deps.library ?? (await openLibrary({ store: deps.store, tasks: deps.tasks, roots: deps.roots.roots }));
  const playlists = deps.playlists ?? new Playlists({ store: deps.store, library, roots: deps.roots });
  await playlists.init();
  const plugins = deps.plugins ?? new StorePluginRegistry(deps.store);
  await plugins.init();
  return {
    ...deps,
    library,
    playlists,
    plugins,
    mediaServices: buildMediaServices({ store: deps.store, dataDir: deps.config.dataDir, options: deps.media }),
    journal: deps.journal ?? createTagJournal({ store: deps.store, blobDir: path.join(deps.config.dataDir, 'journal-blobs') }),
    subsonic,
    throttle,
    subsonicThrottle,
    fileStates,
    lister: new DirectoryLister({ allowTarget: (real) => deps.roots.rootOf(real) !== undefined }),
    records: new Records(deps.store),
    uploadsDir,
    backgroundDir,
    homeDir: await realpath(deps.config.home).catch(() => path.resolve(deps.config.home)),
    dashboardDir: deps.dashboardDir ?? path.resolve(import.meta.dirname, '../../dashboard/dist'),
  };
}
