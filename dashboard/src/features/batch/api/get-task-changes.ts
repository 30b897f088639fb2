import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** What an item changed, or in a dry run would change (the SDK's BatchChange). */
export interface BatchChange {
  path: string;
  kind: 'tags' | 'move' | 'copy' | 'delete' | 'create' | 'convert';
  field?: string;
  before: string | null;
  after: string | null;
}

export interface TaskChanges {
  /** running until every item has run; then success, fail or stop. */
  status: string;
  total: number;
  done: number;
  changes: BatchChange[];
}

/** POST /apimt/task_changes/: a dry-run task's progress and the changes its items would make. */
export async function getTaskChanges(taskId: string | number, signal?: AbortSignal): Promise<TaskChanges> {
  const env = await apiCall<TaskChanges>('/apimt/task_changes/', {
    body: { task_id: taskId },
    signal,
    onError: { title: '预览失败！', timeout: SECONDS.three },
  });
  return env.data;
}
