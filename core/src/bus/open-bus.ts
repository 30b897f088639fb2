/**
 * Picks the bus driver from the configuration: NATS JetStream when a URL is given (distributed mode), else
 * the in-process bus (embedded mode). The counterpart of `openStore()`.
 */
import { createMemoryBus } from './memory.ts';
import type { NatsBusOptions } from './nats.ts';
import type { Bus } from './port.ts';

export interface BusConfig {
  /** `TAGSONIC_NATS_URL`; when set, NATS JetStream is used. */
  natsUrl?: string;
  /** The connection's name in the NATS server's monitoring (e.g. `tagsonic-1234`). */
  name?: string;
}

/**
 * The NATS driver and its client (@nats-io/*, with their crypto dependencies) are imported only when a
 * NATS bus is opened: an embedded server never loads them (a few MB resident, see core/src/memory).
 */
export async function connectNatsBus(options: NatsBusOptions): Promise<Bus> {
  return (await import('./nats.ts')).connectNatsBus(options);
}

export async function openBus(config: BusConfig): Promise<Bus> {
  if (config.natsUrl) return connectNatsBus({ servers: config.natsUrl, name: config.name });
  return createMemoryBus();
}
