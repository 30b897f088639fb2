/** The operation log's fixed lists and texts (spec doc 2 §2 "Log page", §9 page sizes). */

/** getAuditLog's page size; a next page exists while the count is beyond the pages seen. */
export const AUDIT_PAGE_SIZE = 50;

/** The filter tabs: `action` is what getAuditLog filters on (absent: all). */
export const ACTION_FILTERS: { key: string; label: string; action?: string }[] = [
  { key: 'all', label: '全部' },
  { key: 'manual', label: '手动修改', action: '手动修改' },
  { key: 'auto', label: '自动刮削', action: '自动刮削' },
  { key: 'background', label: '后台刮削', action: '后台刮削' },
  { key: 'import', label: '导入收藏', action: '导入收藏' },
  { key: 'duplicate', label: '重复检查', action: '重复检查' },
  { key: 'null-folder', label: '删除空文件夹', action: '删除空文件夹' },
];

/**
 * Actions whose entries link to a task report (/log_detail/{id}/): the spec's list, plus this engine's
 * sim/trad conversion and the deletes made from a report (their report is where they are undone).
 */
export const ACTIONS_WITH_REPORT = new Set([
  '导入收藏', '自动刮削', '后台刮削', '重复检查', '手动修改', '整理文件夹', '刮削艺术家', '删除空文件夹',
  '拆分文本', '替换文本', '格式转换', '切割音轨', '乱码修复', '回放增益', '生成strm文件', '删除收藏',
  '简繁转换', '删除文件', '流派规则',
]);

/**
 * A status as the log shows it: the spec's three texts, plus the other task outcomes (fail, miss) that
 * this engine reports; anything else as the server wrote it.
 */
const STATUS_TEXT: Record<string, string> = { running: '进行中', success: '成功', stop: '停止', fail: '失败', miss: '未匹配' };
export const statusText = (status: string): string => STATUS_TEXT[status] ?? status;

export type BadgeIntent = 'primary' | 'success' | 'warning' | 'danger' | 'none';

export const STATUS_INTENT: Record<string, BadgeIntent> = { running: 'primary', success: 'success', stop: 'none', fail: 'danger', miss: 'warning' };
export const LEVEL_INTENT: Record<string, BadgeIntent> = { info: 'primary', warning: 'warning', error: 'danger' };

/** Whether a page after `page` exists (spec §9: count > 50 × current page). */
export const hasNextPage = (count: number, page: number, size = AUDIT_PAGE_SIZE): boolean => count > size * page;

/** The last page of `count` entries (at least 1, so an empty log still has a page 1). */
export const pageCount = (count: number, size = AUDIT_PAGE_SIZE): number => Math.max(1, Math.ceil(count / size));

/**
 * The page a typed jump goes to: a whole number, at least 1, at most the last page; null for text that
 * is not a page number (the input then keeps the current page).
 */
export function jumpTarget(typed: string, count: number, size = AUDIT_PAGE_SIZE): number | null {
  const n = Number(typed.trim());
  if (!typed.trim() || !Number.isFinite(n)) return null;
  return Math.min(pageCount(count, size), Math.max(1, Math.floor(n)));
}
