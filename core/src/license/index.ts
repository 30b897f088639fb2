export * from './license.ts';
