export * from './roots.ts';
export * from './sanitize.ts';
