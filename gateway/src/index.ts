export { buildApp } from './app.ts';
export type { GatewayDeps } from './deps.ts';
