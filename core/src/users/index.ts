export * from './password.ts';
export * from './users.ts';
