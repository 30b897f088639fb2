export { idleCollections, noteActivity, QUIET_MS } from './idle-gc.ts';
export { MALLOC_ENV } from './malloc-env.ts';
