export * from './subjects.ts';
export * from './tasks.ts';
