/**
 * Picks the bus driver from the configuration: NATS JetStream when a URL is given (distributed mode), else
 * the in-process bus (embedded mode). The counterpart of `openStore()`.
 */
import { createMemoryBus } from './memory.ts';
import { connectNatsBus } from './nats.ts';
import type { Bus } from './port.ts';

export interface BusConfig {
  /** `TAGSONIC_NATS_URL`; when set, NATS JetStream is used. */
  natsUrl?: string;
  /** The connection's name in the NATS server's monitoring (e.g. `tagsonic-1234`). */
  name?: string;
}

export async function openBus(config: BusConfig): Promise<Bus> {
  if (config.natsUrl) return connectNatsBus({ servers: config.natsUrl, name: config.name });
  return createMemoryBus();
}
