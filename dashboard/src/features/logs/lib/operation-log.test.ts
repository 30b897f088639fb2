import { describe, expect, it } from 'vitest';
import { ACTION_FILTERS, ACTIONS_WITH_REPORT, hasNextPage, jumpTarget, pageCount, statusText } from './operation-log.ts';

describe('operation log', () => {
  it('has the spec filter tabs, all first', () => {
    expect(ACTION_FILTERS.map((f) => f.label)).toEqual(['全部', '手动修改', '自动刮削', '后台刮削', '导入收藏', '重复检查', '删除空文件夹']);
    expect(ACTION_FILTERS[0].action).toBeUndefined();
  });

  it('links the spec actions to a report', () => {
    expect(ACTIONS_WITH_REPORT.has('替换文本')).toBe(true);
    expect(ACTIONS_WITH_REPORT.has('生成strm文件')).toBe(true);
    expect(ACTIONS_WITH_REPORT.has('流派规则')).toBe(true);
    expect(ACTIONS_WITH_REPORT.has('登录')).toBe(false);
  });

  it('says the statuses and keeps unknown ones raw', () => {
    expect(['running', 'success', 'stop', 'fail', 'weird'].map(statusText)).toEqual(['进行中', '成功', '停止', '失败', 'weird']);
  });

  it('has a next page while count > 50 × page', () => {
    expect(hasNextPage(50, 1)).toBe(false);
    expect(hasNextPage(51, 1)).toBe(true);
    expect(hasNextPage(101, 2)).toBe(true);
    expect(pageCount(0)).toBe(1);
    expect(pageCount(101)).toBe(3);
  });

  it('jumps to a page within 1 and the last page', () => {
    expect(jumpTarget('2', 120)).toBe(2);
    expect(jumpTarget('0', 120)).toBe(1);
    expect(jumpTarget('-4', 120)).toBe(1);
    expect(jumpTarget('99', 120)).toBe(3);
    expect(jumpTarget('2.7', 120)).toBe(2);
    expect(jumpTarget('', 120)).toBeNull();
    expect(jumpTarget('abc', 120)).toBeNull();
  });
});
