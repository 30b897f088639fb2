import { apiCall } from '../../../lib/api-client.ts';
import type { RuntimeLog } from './types.ts';

/**
 * getRuntimeLog (spec doc 2 §7): one process's run log and error log. Failures are not announced: the
 * page polls every few seconds and shows the failure once, beside the logs.
 */
export async function getRuntimeLog(type: string, signal?: AbortSignal): Promise<RuntimeLog> {
  return (await apiCall<RuntimeLog>('/apimt/runtime_log/', { body: { type }, signal, onError: false })).data;
}
