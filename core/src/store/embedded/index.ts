export { openEmbeddedStore, type EmbeddedStore, type EmbeddedStoreOptions } from './open-embedded-store.ts';
export type { EmbeddedCollection } from './embedded-collection.ts';
export type { ExecStats } from './query-exec.ts';
