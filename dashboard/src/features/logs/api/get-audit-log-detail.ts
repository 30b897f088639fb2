import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { LogDetail } from './types.ts';

/**
 * getAuditLogDetail (spec doc 2 §7): the task report. `quiet` is for the 3 s refreshes while the task runs:
 * a refresh that fails once is not worth a notice every 3 s (the page says so itself).
 */
export async function getAuditLogDetail(id: string, options: { signal?: AbortSignal; quiet?: boolean } = {}): Promise<LogDetail> {
  return (
    await apiCall<LogDetail>('/apimt/audit_log_detail/', {
      body: { id },
      signal: options.signal,
      onError: options.quiet ? false : { title: '查询失败！', timeout: SECONDS.five, silentStatuses: [401] },
    })
  ).data;
}
