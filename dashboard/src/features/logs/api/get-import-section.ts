import { apiCall } from '../../../lib/api-client.ts';
import { SECTION_PAGE_SIZE } from '../lib/report.ts';
import type { DetailRow, LogDetail } from './types.ts';

/** An import collection's own lists (kind `action:import-music`): tracks re-read or already there, tracks newly added. */
export type ImportSectionKey = 'import_scan' | 'import_collection';

/** One page (10 rows) of an import's list: GET /apimt/audit_log_detail/?id=&section=import_scan|import_collection. */
export async function getImportSection(id: string, section: ImportSectionKey, page: number, signal?: AbortSignal): Promise<DetailRow[]> {
  const detail = (
    await apiCall<LogDetail>('/apimt/audit_log_detail/', { query: { id, section, page, page_size: SECTION_PAGE_SIZE }, signal, onError: false })
  ).data;
  return (detail[section] as DetailRow[] | undefined) ?? [];
}
