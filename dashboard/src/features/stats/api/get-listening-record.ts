import { apiCall } from '../../../lib/api-client.ts';
import { LISTENING_RECORD_SIZE } from '../lib/constants.ts';
import { QUERY_FAILED } from './query-notice.ts';
import type { ListeningRecord } from './types.ts';

/** getListeningRecord (spec doc 2 §7): GET /apimt/listening_record/?page_size=8, the most played tracks, albums, artists. */
export async function getListeningRecord(signal?: AbortSignal): Promise<ListeningRecord> {
  return (await apiCall<ListeningRecord>('/apimt/listening_record/', { query: { page_size: LISTENING_RECORD_SIZE }, signal, onError: QUERY_FAILED })).data;
}
