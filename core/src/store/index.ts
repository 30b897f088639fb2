export * from './port.ts';
export { openStore, type StoreConfig } from './open-store.ts';
export { openEmbeddedStore, type EmbeddedStore, type EmbeddedStoreOptions, type EmbeddedCollection, type ExecStats } from './embedded/index.ts';
export { openMongoStore, type MongoStoreOptions } from './mongodb/index.ts';
export { STORE_ERRORS } from './store-errors.ts';
