import { apiCall } from '../../../lib/api-client.ts';
import { QUERY_FAILED } from './query-notice.ts';
import type { MissingPage, MissKind } from './types.ts';

/** getProgressRate (spec doc 2 §7): GET /apimt/progress_rate/?mode&page&page_size, one page of tracks missing `mode`. */
export async function getProgressRate(query: { mode: MissKind; page: number; pageSize: number }, signal?: AbortSignal): Promise<MissingPage> {
  const q = { mode: query.mode, page: query.page, page_size: query.pageSize };
  return (await apiCall<MissingPage>('/apimt/progress_rate/', { query: q, signal, onError: QUERY_FAILED })).data;
}
