export * from './types.ts';
export * from './config.ts';
export * from './registry.ts';
export { compareVersions } from './semver.ts';
export * from './package.ts';
export { sourceUrlVariable } from './source-url.ts';
