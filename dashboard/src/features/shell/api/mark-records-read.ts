import { apiCall } from '../../../lib/api-client.ts';
import type { FailedRecord } from './get-failed-records.ts';

/** POST /apimt/record/ with the list the bell showed; the server resets the unread count. */
export async function markRecordsRead(list: FailedRecord[]): Promise<number> {
  const env = await apiCall<{ unread_count: number }>('/apimt/record/', { body: { message_list: list.map((r) => r.id) }, onError: false });
  return env.data.unread_count;
}
