import { describe, expect, it } from 'vitest';
import type { FailedRecord } from '../api/get-failed-records.ts';
import { recordText } from './record-text.ts';

const record = (over: Partial<FailedRecord> = {}): FailedRecord => ({
  id: 't1',
  task_id: 't1',
  title: '手动修改 失败',
  content: '1 个文件失败（共 2 个）：/music/a.mp3: The tag holds a 5.0 MiB TXXX frame…',
  action: '手动修改',
  failed_count: 1,
  total: 2,
  path: '/music/a.mp3',
  error: 'The tag holds a 5.0 MiB TXXX frame…',
  error_code: 'TAGSONIC_ERR_TAGS_TAG_TOO_LARGE',
  update_at: '2026-11-25T10:00:00.000Z',
  version: '1.0.0',
  read: false,
  ...over,
});

describe('bell record text', () => {
  it('words a failed task in Chinese by default and in English when switched, the reason by its code', () => {
    expect(recordText(record(), 'zh-CN')).toEqual({
      title: '手动修改 失败',
      content: '1 个文件失败（共 2 个）：/music/a.mp3: 文件的标签超出大小限制（封面、单个字段、帧数量或标签总大小），文件可能已损坏',
    });
    expect(recordText(record(), 'en')).toEqual({
      title: 'Manual edit failed',
      content: "1 of 2 files failed: /music/a.mp3: The file's tags are beyond the size limits (cover, a single field, frame count or total size); the file may be malformed.",
    });
  });

  it("keeps the server's words for a reason without a known code, and an action without an English name", () => {
    const r = record({ action: '新的操作', error_code: null, error: 'disk on fire', path: null });
    expect(recordText(r, 'en')).toEqual({ title: '新的操作 failed', content: '1 of 2 files failed: disk on fire' });
    expect(recordText(record({ error: null, error_code: null, path: null }), 'en').content).toBe('1 of 2 files failed');
    expect(recordText(record({ error: null, error_code: null, path: null, total: 1 }), 'en').content).toBe('1 of 1 file failed');
    expect(recordText(record({ error: null, error_code: null, path: null, total: 1 }), 'zh-CN').content).toBe('1 个文件失败（共 1 个）');
  });

  it('counts the attempts of an item the workers gave up on', () => {
    const r = record({ error_code: 'TAGSONIC_ERR_TASK_GAVE_UP', error: 'Gave up after 5 attempt(s): boom.' });
    expect(recordText(r, 'zh-CN').content).toBe('1 个文件失败（共 2 个）：/music/a.mp3: 重试 5 次后仍然失败，已放弃');
    expect(recordText(r, 'en').content).toBe('1 of 2 files failed: /music/a.mp3: Still failing after 5 attempts; given up.');
  });
});
