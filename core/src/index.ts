export { newId } from './ids.ts';
