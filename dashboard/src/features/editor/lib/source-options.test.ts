import { describe, expect, it } from 'vitest';
import { sourceOptions } from './source-options.ts';

describe('刮削配置 source options', () => {
  it('lists the server sources in its order, by name and id, enabled ones only', () => {
    const list = [
      { id: 'netease', name: '网易云音乐', enabled: true },
      { id: 'itunes', name: 'itunes', enabled: true },
      { id: 'kugou', name: '酷狗', enabled: false },
      { id: 'my_source', name: 'My source', enabled: true },
    ];
    expect(sourceOptions(list, 'itunes', 'off')).toEqual([
      { value: 'netease', label: '网易云音乐 (netease)' },
      { value: 'itunes', label: 'itunes' },
      { value: 'my_source', label: 'My source (my_source)' },
    ]);
  });

  it('uses the built-in list only while the answer is pending, and keeps a saved source that is gone', () => {
    expect(sourceOptions(null, 'netease', 'off').map((o) => o.value)).toContain('smart_tag');
    expect(sourceOptions([], 'kugou', 'off')).toEqual([{ value: 'kugou', label: 'kugou (off)' }]);
  });
});
