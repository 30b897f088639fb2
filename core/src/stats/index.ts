export * from './periods.ts';
export * from './catalog-stats.ts';
export * from './play-stats.ts';
export * from './play-cache.ts';
