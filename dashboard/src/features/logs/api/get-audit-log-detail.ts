import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import { SECTION_PAGE_SIZE } from '../lib/report.ts';
import type { LogDetail, SectionKey } from './types.ts';

export interface DetailQuery {
  /** One list paged (`page`, 10 rows); without it every list holds its first 10 rows. */
  section?: SectionKey;
  page?: number;
  /** Rows per page of `section` (default 10). */
  pageSize?: number;
  signal?: AbortSignal;
  /**
   * For the 3 s refreshes while the task runs and for section pages: a failure is said once by the page
   * itself, not as a notice every 3 s.
   */
  quiet?: boolean;
}

/** getAuditLogDetail (spec doc 2 §7): GET /apimt/audit_log_detail/?id=<task id>, the task report. */
export async function getAuditLogDetail(id: string, options: DetailQuery = {}): Promise<LogDetail> {
  const query: Record<string, string | number> = { id };
  if (options.section) Object.assign(query, { section: options.section, page: options.page ?? 1, page_size: options.pageSize ?? SECTION_PAGE_SIZE });
  return (
    await apiCall<LogDetail>('/apimt/audit_log_detail/', {
      query,
      signal: options.signal,
      onError: options.quiet ? false : { title: '查询失败！', timeout: SECONDS.five, silentStatuses: [401] },
    })
  ).data;
}
