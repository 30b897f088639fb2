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

export interface DryRunState {
  /** running until every item has run. */
  status: string;
  done: number;
  total: number;
  /** While it runs: items per second and seconds left. */
  itemsPerSec: number;
  etaSec: number;
  /** Items that would change something, and those that failed (a dry run's failure is the real run's too). */
  changedItems: number;
  failedItems: number;
  /** The changes of the first DRY_RUN_ROWS changing items. */
  changes: BatchChange[];
}

/** Items read per poll: the table shows their changes and counts the rest. */
export const DRY_RUN_ROWS = 500;

interface DetailRow {
  changes?: BatchChange[];
}
interface Detail {
  status: string;
  progress: { done: number; total: number; items_per_sec?: number; eta_sec?: number };
  static: { fail_count: number };
  success: DetailRow[];
  success_count: number;
}

/**
 * GET /apimt/audit_log_detail/ of a dry-run task, its `success` section (the items that would change, each with
 * its list of changes): progress while it runs, then the list to show before anything is touched.
 */
export async function getDryRun(taskId: string | number, signal?: AbortSignal): Promise<DryRunState> {
  const env = await apiCall<Detail>('/apimt/audit_log_detail/', {
    query: { id: String(taskId), section: 'success', page: 1, page_size: DRY_RUN_ROWS },
    signal,
    onError: { title: '预览失败！', timeout: SECONDS.three },
  });
  const d = env.data;
  return {
    status: d.status,
    done: d.progress.done,
    total: d.progress.total,
    itemsPerSec: d.progress.items_per_sec ?? 0,
    etaSec: d.progress.eta_sec ?? 0,
    changedItems: d.success_count,
    failedItems: d.static.fail_count,
    changes: d.success.flatMap((r) => r.changes ?? []),
  };
}
