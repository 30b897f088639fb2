export { newId } from './ids.ts';
export { hiddenSlot, type HiddenSlot } from './hidden-slot.ts';
export { defaultCompileCacheDir, workerEnv } from './compile-cache.ts';
export { toolPath, useToolDir, type ToolName } from './tools.ts';
