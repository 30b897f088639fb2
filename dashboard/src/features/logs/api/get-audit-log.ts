import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import { AUDIT_PAGE_SIZE } from '../lib/operation-log.ts';
import type { AuditLogPage } from './types.ts';

/** getAuditLog (spec doc 2 §7): GET /apimt/audit_log/, 50 entries a page, newest first, optionally one action. */
export async function getAuditLog(query: { page: number; action?: string }, signal?: AbortSignal): Promise<AuditLogPage> {
  const q: Record<string, string | number> = { page: query.page, page_size: AUDIT_PAGE_SIZE };
  if (query.action) q.action = query.action;
  return (await apiCall<AuditLogPage>('/apimt/audit_log/', { query: q, signal, onError: { title: '查询失败！', timeout: SECONDS.five, silentStatuses: [401] } })).data;
}
