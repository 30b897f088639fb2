/** The task report's pure parts: sections and their pages, stat cards, similarity (spec doc 2 §2 "Task report"). */
import { SECTION_KEYS, type DetailRow, type LogDetail, type SectionKey } from '../api/types.ts';

/** Rows per page in every section (§9). */
export const SECTION_PAGE_SIZE = 10;

/** The detail page polls while the task runs (§4). */
export const DETAIL_POLL_MS = 3000;

/** Statuses after which nothing changes any more: polling stops (§4). */
export const isFinal = (status: string): boolean => status !== 'running';

export const SECTION_TITLES: Record<SectionKey, string> = {
  running: '进行中',
  miss_tag: '未匹配到标签',
  miss_artist: '缺少艺术家',
  miss_album: '缺少专辑',
  miss_artist_album: '缺少艺术家和专辑',
  fail: '失败',
  mode_success: '模式匹配',
  success: '完全匹配',
  skip: '跳过',
  delete: '已删除',
  stop: '已停止',
};

export interface Section {
  key: SectionKey;
  title: string;
  rows: DetailRow[];
  /** The server's `<list>_count`: may exceed the rows sent. */
  count: number;
}

/** Tasks that match files against online tags: their successes are "full matches" (§2). */
const SCRAPING = new Set(['自动刮削', '后台刮削', '导入收藏']);

/**
 * The success list's title: a dry run's successes are the files it would change; a scrape's are full
 * matches; any other action's simply succeeded.
 */
function successTitle(detail: LogDetail): string {
  if (detail.dry_run) return '将要修改';
  return SCRAPING.has(detail.name) ? '完全匹配' : '成功';
}

/** The sections that have something to show, in the page's order; mode_success is titled by mode_name. */
export function sectionsOf(detail: LogDetail): Section[] {
  return SECTION_KEYS.flatMap((key) => {
    const rows = detail[key] ?? [];
    const count = Math.max(Number(detail[`${key}_count`] ?? 0) || 0, rows.length);
    if (count === 0) return [];
    const title =
      key === 'mode_success' && detail.mode_name
        ? detail.mode_name
        : key === 'success'
          ? successTitle(detail)
          : key === 'running' && detail.status === 'stop'
            ? '正在停止'
            : SECTION_TITLES[key];
    return [{ key, title, rows, count }];
  });
}

/** How many pages of 10 a section has (at least 1). */
export const pagesOf = (count: number, size = SECTION_PAGE_SIZE): number => Math.max(1, Math.ceil(count / size));

/** Similarity as the report shows it: the sum over title/artist/album divided by 3, two decimals. */
export function similarity(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(Number(value))) return '-';
  return (Number(value) / 3).toFixed(2);
}

export interface StatCard {
  key: 'complete' | 'total' | 'rate' | 'success' | 'fail' | 'miss';
  label: string;
  value: string;
}

/** Completed counts success, fail and unmatched (§2); the rate is computed here when the server sends none. */
export function statCards(s: LogDetail['static'] | undefined): StatCard[] {
  const success = s?.success_count ?? 0;
  const fail = s?.fail_count ?? 0;
  const miss = s?.miss_count ?? 0;
  const total = s?.total_count ?? 0;
  const complete = s?.complete_count ?? success + fail + miss;
  const rate = s && Number.isFinite(s.complete_rate) ? s.complete_rate : total ? (complete / total) * 100 : 0;
  return [
    { key: 'complete', label: '已完成', value: String(complete) },
    { key: 'total', label: '总数', value: String(total) },
    { key: 'rate', label: '完成率', value: `${Math.round(rate * 10) / 10}%` },
    { key: 'success', label: '成功', value: String(success) },
    { key: 'fail', label: '失败', value: String(fail) },
    { key: 'miss', label: '未匹配', value: String(miss) },
  ];
}

/** Run time as `1:05:03`, `4:07` or `12 s`; the server's own text when it sent one. */
export function formatRunTime(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  const total = Math.max(0, Math.round(n));
  if (total < 60) return `${total} s`;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}
