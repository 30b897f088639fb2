export * from './template.ts';
export * from './letter.ts';
export * from './safe-regex.ts';
