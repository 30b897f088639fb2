export { actionItemHandler, actionSettler, actionKind, changesOf, ACTION_KIND_PREFIX, ITEM_POISON, ITEM_RESULT_INVALID, MAX_ITEM_ATTEMPTS, type ActionItemCommand } from './item.ts';
export { RateGate } from './rate.ts';
export { filesDeleteHandler, deleteSettler, DELETE_TASK_KIND, type FilesDeleteCommand } from './delete.ts';
