export * from './worker.ts';
export type { TagsWriteCommand } from './commands/tags-write.ts';
