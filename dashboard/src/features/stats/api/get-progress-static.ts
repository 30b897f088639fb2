import { apiCall } from '../../../lib/api-client.ts';
import { QUERY_FAILED } from './query-notice.ts';
import type { ProgressStatic } from './types.ts';

/** getProgressStatic (spec doc 2 §7): GET /apimt/progress_static/, the missing counts of /progress. */
export async function getProgressStatic(signal?: AbortSignal): Promise<ProgressStatic> {
  return (await apiCall<ProgressStatic>('/apimt/progress_static/', { signal, onError: QUERY_FAILED })).data;
}
