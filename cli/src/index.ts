export { openRuntime, type Runtime } from './runtime.ts';
