export * from './password.ts';
export * from './users.ts';
export * from './subsonic-credentials.ts';
