import type { Bus } from '@tagsonic/core/bus';
import type { Store } from '@tagsonic/core/store';
import type { MediaRoots } from '@tagsonic/core/media';
import type { Tasks } from '@tagsonic/core/tasks';
import type { Users } from '@tagsonic/core/users';
import type { Config, Secrets } from '@tagsonic/core/config';

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
}
