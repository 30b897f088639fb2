import { describe, expect, it } from 'vitest';
import {
  addCondition,
  addGroup,
  CONDITION_KEYS,
  conditionsJson,
  formProblem,
  newForm,
  OPERATORS,
  ORDER_OPTIONS,
  removeCondition,
  removeGroup,
  updateCondition,
} from './smart-conditions.ts';

describe('smart-playlist form', () => {
  it('offers exactly the keys, operators and units of §5 and the select standards of §9', () => {
    const byKind = (kind: string) => CONDITION_KEYS.filter((k) => k.kind === kind).map((k) => k.key);
    expect(byKind('bool')).toEqual(['favourite-track', 'favourite-album', 'favourite-artist', 'album-img', 'artist-img']);
    expect(byKind('number')).toEqual(['play-count', 'sample-rate', 'bit-rate', 'size', 'year', 'duration', 'accessed-date', 'created-at']);
    expect(byKind('text')).toEqual(['title', 'album', 'artist', 'genre', 'comment', 'lyrics', 'language', 'file-path']);
    expect(OPERATORS.bool.map((o) => o.op)).toEqual(['is', 'not']);
    expect(OPERATORS.number.map((o) => o.op)).toEqual(['gte', 'lte', 'is', 'not']);
    expect(OPERATORS.text.map((o) => o.op)).toEqual(['contain', 'not_contain', 'is', 'not', 'startwith', 'endwith']);
    expect(new Set(CONDITION_KEYS.flatMap((k) => (k.unit ? [k.unit] : [])))).toEqual(new Set(['kps', 'MB', 'times', 'year', 'seconds', 'days']));
    expect(ORDER_OPTIONS.map((o) => o.value)).toEqual(['?', '-accessed_date', 'accessed_date', '-plays_count', 'plays_count', '-created_at', 'created_at']);
    const form = newForm();
    expect([form.limit, form.orderBy, form.isDynamic, form.groups.length]).toEqual(['25', '?', false, 1]);
  });

  it('removes a group only while more than one remains, and keeps one sub-condition per group', () => {
    let groups = newForm().groups;
    expect(removeGroup(groups, 0)).toBe(groups);
    groups = addGroup(groups);
    expect(groups).toHaveLength(2);
    groups = addCondition(groups, 1);
    expect(groups[1]).toHaveLength(2);
    expect(removeGroup(groups, 0)).toHaveLength(1);
    expect(removeCondition(groups, 0, 0)[0]).toHaveLength(1);
    expect(removeCondition(groups, 1, 0)[1]).toHaveLength(1);
  });

  it('resets operator and value when the key changes kind, keeps them within a kind', () => {
    let groups = newForm().groups;
    groups = updateCondition(groups, 0, 0, { operate: 'lte', value: '1999' });
    expect(updateCondition(groups, 0, 0, { key: 'duration' })[0]![0]).toEqual({ key: 'duration', operate: 'lte', value: '1999' });
    expect(updateCondition(groups, 0, 0, { key: 'genre' })[0]![0]).toEqual({ key: 'genre', operate: 'contain', value: '' });
    expect(updateCondition(groups, 0, 0, { key: 'favourite-track' })[0]![0]).toEqual({ key: 'favourite-track', operate: 'is', value: '' });
  });

  it('requires a name (warning! 播放列表名称不能为空！) and a value for number and text keys', () => {
    const form = newForm();
    expect(formProblem({ ...form, name: '  ' })).toEqual({ title: 'warning!', message: '播放列表名称不能为空！' });
    expect(formProblem({ ...form, name: 'x' })?.message).toBe('条件的值必须是数字！');
    expect(formProblem({ ...form, name: 'x', groups: [[{ key: 'year', operate: 'gte', value: 'abc' }]] })?.message).toBe('条件的值必须是数字！');
    expect(formProblem({ ...form, name: 'x', groups: [[{ key: 'genre', operate: 'contain', value: '' }]] })?.message).toBe('条件的值不能为空！');
    expect(formProblem({ ...form, name: 'x', groups: [[{ key: 'favourite-track', operate: 'is', value: '' }]] })).toBeNull();
  });

  it('writes the OR-of-AND JSON the server parses: numbers as numbers, bool keys without a value', () => {
    const groups = [
      [
        { key: 'year', operate: 'gte', value: '2000' },
        { key: 'genre', operate: 'contain', value: 'Pop' },
      ],
      [{ key: 'favourite-track', operate: 'is', value: '' }],
    ];
    expect(JSON.parse(conditionsJson(groups))).toEqual([
      [
        { key: 'year', operate: 'gte', value: 2000 },
        { key: 'genre', operate: 'contain', value: 'Pop' },
      ],
      [{ key: 'favourite-track', operate: 'is' }],
    ]);
  });
});
