export * from './config.ts';
export * from './secrets.ts';
export * from './home.ts';
