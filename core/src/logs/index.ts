export { PROCESS_KINDS, ProcessLogs, isProcessKind, processLogs, type ProcessKind, type ProcessLogsOptions } from './process-logs.ts';
