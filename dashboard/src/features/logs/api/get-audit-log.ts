import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import { AUDIT_PAGE_SIZE } from '../lib/operation-log.ts';
import type { AuditLogPage } from './types.ts';

/** getAuditLog (spec doc 2 §7): one page of 50 entries, newest first, optionally one action; reads data{items, count}. */
export async function getAuditLog(query: { page: number; action?: string }, signal?: AbortSignal): Promise<AuditLogPage> {
  const body: Record<string, unknown> = { page: query.page, page_size: AUDIT_PAGE_SIZE };
  if (query.action) body.action = query.action;
  return (await apiCall<AuditLogPage>('/apimt/audit_log/', { body, signal, onError: { title: '查询失败！', timeout: SECONDS.five, silentStatuses: [401] } })).data;
}
