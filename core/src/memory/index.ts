export { idleCollections, noteActivity, QUIET_MS } from './idle-gc.ts';
