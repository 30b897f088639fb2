/**
 * Picks the store driver from the configuration: MongoDB when a URL is given (distributed mode), else
 * the embedded store under `<dataDir>/store`.
 */
import path from 'node:path';
import { openEmbeddedStore } from './embedded/index.ts';
import { openMongoStore } from './mongodb/index.ts';
import type { Store } from './port.ts';

export interface StoreConfig {
  /** `TAGSONIC_MONGODB_URL`; when set, MongoDB is used. */
  mongodbUrl?: string;
  /** The data directory; the embedded store lives in `<dataDir>/store`. */
  dataDir: string;
}

export function openStore(config: StoreConfig): Promise<Store> {
  if (config.mongodbUrl) return openMongoStore({ url: config.mongodbUrl });
  return openEmbeddedStore({ dir: path.join(config.dataDir, 'store') });
}
