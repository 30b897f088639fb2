export { gatewayDeps, openRuntime, type Runtime } from './runtime.ts';
