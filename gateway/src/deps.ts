import type { Bus } from '@tagsonic/core/bus';
import type { Store } from '@tagsonic/core/store';
import type { MediaRoots } from '@tagsonic/core/media';
import type { Tasks } from '@tagsonic/core/tasks';
import type { Users, SubsonicCredentials } from '@tagsonic/core/users';
import type { Config, Secrets } from '@tagsonic/core/config';
import type { TagJournal } from '@tagsonic/core/tags';
import type { LoginThrottle, LoginThrottleOptions } from '@tagsonic/core/auth';
import type { DirectoryLister, FileStates } from '@tagsonic/core/files';
import type { Records } from '@tagsonic/core/records';
import type { Library } from '@tagsonic/core/library';
import type { Playlists } from '@tagsonic/core/playlists';
import type { PluginRegistry } from '@tagsonic/core/plugins';
import type { MediaOptions, MediaServices } from './subsonic/media-services.ts';

/** Everything the gateway needs, built by the composition root (cli) for either mode. */
export interface GatewayDeps {
  config: Config;
  secrets: Secrets;
  store: Store;
  bus: Bus;
  roots: MediaRoots;
  users: Users;
  tasks: Tasks;
  /** Our own build id, shown by /healthz beside the spec's versions. */
  buildId: string;
  /** The library services (Subsonic /rest reads and marks); opened on the store like the runtime's when not given. */
  library?: Library;
  /** Playlists (Subsonic and dashboard); built on the store and library when not given. */
  playlists?: Playlists;
  /** Installed plugins (the /mod screen, the scrape routes); built on the store when not given. */
  plugins?: PluginRegistry;
  /** Transcoding and cover-cache limits (tests lower them). */
  media?: MediaOptions;
  /** The tag journal (undo); built on the data dir like the runtime's when not given. */
  journal?: TagJournal;
  /** Where the built dashboard is (default: dashboard/dist of this checkout). */
  dashboardDir?: string;
  /** Sign-in limits, clock and sleep of both throttles (tests lower the limits and fake the clock). */
  loginLimits?: Omit<LoginThrottleOptions, 'scope'>;
}

/** The deps plus the gateway's own services, handed to every route module. */
export interface Ctx extends GatewayDeps {
  journal: TagJournal;
  library: Library;
  playlists: Playlists;
  plugins: PluginRegistry;
  /** Transcoder, cover cache and transcoding settings of this process. */
  mediaServices: MediaServices;
  subsonic: SubsonicCredentials;
  /** Dashboard sign-ins. */
  throttle: LoginThrottle;
  /** Subsonic credentials (p, t+s, apiKey): counted apart from dashboard passwords. */
  subsonicThrottle: LoginThrottle;
  fileStates: FileStates;
  lister: DirectoryLister;
  records: Records;
  /** data/uploads: covers uploaded for the editor (served back by URL, embedded by update_id3). */
  uploadsDir: string;
  /** data/background: the custom background picture. */
  backgroundDir: string;
  dashboardDir: string;
  /** Real path of the home folder (the spec's /app): listed as the folders inside it that are roots. */
  homeDir: string;
}
