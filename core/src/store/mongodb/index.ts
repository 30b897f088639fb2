import type { Store } from '../port.ts';
import type { MongoStoreOptions } from './open-mongo-store.ts';

export type { MongoStoreOptions } from './open-mongo-store.ts';

/**
 * The MongoDB driver is loaded only when a MongoDB store is opened: the embedded default never needs
 * it, and loading it costs a process ~25 MB of memory.
 */
export async function openMongoStore(options: MongoStoreOptions): Promise<Store> {
  const { openMongoStore: open } = await import('./open-mongo-store.ts');
  return open(options);
}
