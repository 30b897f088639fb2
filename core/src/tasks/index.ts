export * from './subjects.ts';
export * from './tasks.ts';
export * from './leases.ts';
export * from './settle.ts';
export * from './expand.ts';
export * from './trash.ts';
