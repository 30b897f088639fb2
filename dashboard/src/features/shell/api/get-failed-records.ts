import { apiCall } from '../../../lib/api-client.ts';
import { PROJECT_VERSION, RECORD_PAGE_SIZE } from '../../../lib/constants.ts';

export interface FailedRecord {
  id: string;
  task_id: string;
  title: string;
  content: string;
  /** The record as data (core/src/records), worded in the interface language by lib/record-text.ts. */
  action: string;
  failed_count: number;
  total: number;
  path: string | null;
  error: string | null;
  error_code: string | null;
  update_at: string;
  version: string;
  read: boolean;
}

/** GET /apimt/record/?state=failed&page_size=20; only records of this project version or newer (§5). */
export async function getFailedRecords(): Promise<{ items: FailedRecord[]; unread_count: number }> {
  const env = await apiCall<{ items: FailedRecord[]; unread_count: number }>('/apimt/record/', {
    query: { state: 'failed', page_size: RECORD_PAGE_SIZE },
    onError: false,
  });
  return { items: env.data.items.filter((r) => r.version >= PROJECT_VERSION), unread_count: env.data.unread_count };
}
