export * from './csrf.ts';
export * from './login-throttle.ts';
