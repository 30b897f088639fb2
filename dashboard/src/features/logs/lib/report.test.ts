import { describe, expect, it } from 'vitest';
import type { LogDetail } from '../api/types.ts';
import { formatRunTime, pagesOf, sectionsOf, similarity, statCards } from './report.ts';

const row = (i: number) => ({ id: String(i), name: `f${i}.mp3`, path: `/m/f${i}.mp3` });
const detail = (extra: Partial<LogDetail>): LogDetail =>
  ({ id: '1', name: '替换文本', created_at: '', status: 'success', status_display: '成功', run_time: 3, complete_at: null, static: { complete_count: 0, total_count: 0, complete_rate: 0, success_count: 0, fail_count: 0, miss_count: 0 }, ...extra }) as LogDetail;

describe('task report', () => {
  it('shows only non-empty sections, in order, mode_success titled by mode_name', () => {
    const d = detail({ success: [row(1)], success_count: 1, fail: [row(2)], fail_count: 1, mode_success: [row(3)], mode_success_count: 1, mode_name: '简单模式', skip: [], skip_count: 0 });
    expect(sectionsOf(d).map((s) => [s.key, s.title, s.count])).toEqual([
      ['fail', '失败', 1],
      ['mode_success', '简单模式', 1],
      ['success', '成功', 1],
    ]);
  });

  it('titles successes by the kind of task', () => {
    const title = (extra: Partial<LogDetail>) => sectionsOf(detail({ success: [row(1)], success_count: 1, ...extra }))[0].title;
    expect(title({ name: '自动刮削' })).toBe('完全匹配');
    expect(title({ name: '替换文本', dry_run: true })).toBe('将要修改');
  });

  it('calls the queued items of a stopped task stopping', () => {
    expect(sectionsOf(detail({ status: 'stop', running: [row(1)], running_count: 1 }))[0].title).toBe('正在停止');
    expect(sectionsOf(detail({ status: 'running', running: [row(1)], running_count: 1 }))[0].title).toBe('进行中');
  });

  it('keeps the server count when it sent fewer rows', () => {
    expect(sectionsOf(detail({ success: [row(1)], success_count: 500 }))[0].count).toBe(500);
  });

  it('has pages of 10 rows', () => {
    expect(pagesOf(23)).toBe(3);
    expect(pagesOf(10)).toBe(1);
    expect(pagesOf(0)).toBe(1);
  });

  it('shows similarity as value / 3 to two decimals', () => {
    expect(similarity(2.5)).toBe('0.83');
    expect(similarity(3)).toBe('1.00');
    expect(similarity(null)).toBe('-');
  });

  it('counts completed as success + fail + unmatched', () => {
    const cards = statCards({ success_count: 5, fail_count: 2, miss_count: 1, total_count: 10, complete_rate: Number.NaN, complete_count: undefined as unknown as number });
    expect(Object.fromEntries(cards.map((c) => [c.key, c.value]))).toEqual({ complete: '8', total: '10', rate: '80%', success: '5', fail: '2', miss: '1' });
  });

  it('formats the run time', () => {
    expect(formatRunTime(12)).toBe('12 s');
    expect(formatRunTime(247)).toBe('4:07');
    expect(formatRunTime(3903)).toBe('1:05:03');
    expect(formatRunTime('0:01:02')).toBe('0:01:02');
    expect(formatRunTime(null)).toBe('-');
  });
});
