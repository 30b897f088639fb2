/**
 * The smart-playlist form's model (spec doc 2 §3 "Smart-playlist condition", §5 keys/operators/units, §9
 * limit and select standard): an OR of AND groups of { key, operate, value }, edited by pure functions and
 * sent to /rest createPlaylist as the JSON text core/src/playlists/conditions.ts parses (`[[c, c], [c]]`).
 */

export type KeyKind = 'bool' | 'number' | 'text';

export interface ConditionKey {
  key: string;
  /** Chinese label, translated by the screen. */
  label: string;
  kind: KeyKind;
  /** The spec's unit shown after the value (number keys only). */
  unit?: string;
}

/** §5, in the spec's order: bool, number, text. */
export const CONDITION_KEYS: readonly ConditionKey[] = [
  { key: 'favourite-track', label: '收藏的歌曲', kind: 'bool' },
  { key: 'favourite-album', label: '收藏的专辑', kind: 'bool' },
  { key: 'favourite-artist', label: '收藏的艺术家', kind: 'bool' },
  { key: 'album-img', label: '有专辑封面', kind: 'bool' },
  { key: 'artist-img', label: '有艺术家图片', kind: 'bool' },
  { key: 'play-count', label: '播放次数', kind: 'number', unit: 'times' },
  // Hz, or kHz when below 1000 (core reads 44.1 as 44100); §5 names no unit for it.
  { key: 'sample-rate', label: '采样率', kind: 'number' },
  { key: 'bit-rate', label: '比特率', kind: 'number', unit: 'kps' },
  { key: 'size', label: '文件大小', kind: 'number', unit: 'MB' },
  { key: 'year', label: '年份', kind: 'number', unit: 'year' },
  { key: 'duration', label: '时长', kind: 'number', unit: 'seconds' },
  { key: 'accessed-date', label: '上次播放', kind: 'number', unit: 'days' },
  { key: 'created-at', label: '添加时间', kind: 'number', unit: 'days' },
  { key: 'title', label: '标题', kind: 'text' },
  { key: 'album', label: '专辑', kind: 'text' },
  { key: 'artist', label: '艺术家', kind: 'text' },
  { key: 'genre', label: '流派', kind: 'text' },
  { key: 'comment', label: '备注', kind: 'text' },
  { key: 'lyrics', label: '歌词', kind: 'text' },
  { key: 'language', label: '语言', kind: 'text' },
  { key: 'file-path', label: '文件路径', kind: 'text' },
];

/** Operators per kind (§5), with their Chinese labels. */
export const OPERATORS: Record<KeyKind, readonly { op: string; label: string }[]> = {
  bool: [
    { op: 'is', label: '是' },
    { op: 'not', label: '不是' },
  ],
  number: [
    { op: 'gte', label: '大于等于' },
    { op: 'lte', label: '小于等于' },
    { op: 'is', label: '等于' },
    { op: 'not', label: '不等于' },
  ],
  text: [
    { op: 'contain', label: '包含' },
    { op: 'not_contain', label: '不包含' },
    { op: 'is', label: '是' },
    { op: 'not', label: '不是' },
    { op: 'startwith', label: '开头是' },
    { op: 'endwith', label: '结尾是' },
  ],
};

/** §9: the select standard, random first (the default). */
export const ORDER_OPTIONS: readonly { value: string; label: string }[] = [
  { value: '?', label: '随机' },
  { value: '-accessed_date', label: '最近播放优先' },
  { value: 'accessed_date', label: '最久未播放优先' },
  { value: '-plays_count', label: '播放最多优先' },
  { value: 'plays_count', label: '播放最少优先' },
  { value: '-created_at', label: '最新添加优先' },
  { value: 'created_at', label: '最早添加优先' },
];

export const DEFAULT_LIMIT = '25';
export const LIMIT_UNIT = 'item';

export interface SubCondition {
  key: string;
  operate: string;
  /** As typed; bool keys have none (the operator says it all). */
  value: string;
}

export type ConditionGroups = SubCondition[][];

export interface SmartForm {
  name: string;
  groups: ConditionGroups;
  /** Free text (§5); the server checks it (1–5000). */
  limit: string;
  orderBy: string;
  isDynamic: boolean;
}

export const keyOf = (key: string): ConditionKey => CONDITION_KEYS.find((k) => k.key === key) ?? CONDITION_KEYS[0]!;

export const newCondition = (key = 'year'): SubCondition => ({ key, operate: OPERATORS[keyOf(key).kind][0]!.op, value: '' });

export const newForm = (): SmartForm => ({ name: '', groups: [[newCondition()]], limit: DEFAULT_LIMIT, orderBy: '?', isDynamic: false });

export const addGroup = (groups: ConditionGroups): ConditionGroups => [...groups, [newCondition()]];

/** A group can be removed only while more than one remains (§5). */
export const canRemoveGroup = (groups: ConditionGroups): boolean => groups.length > 1;

export const removeGroup = (groups: ConditionGroups, g: number): ConditionGroups => (canRemoveGroup(groups) ? groups.filter((_, i) => i !== g) : groups);

export const addCondition = (groups: ConditionGroups, g: number): ConditionGroups => groups.map((group, i) => (i === g ? [...group, newCondition()] : group));

/** A group keeps at least one sub-condition: removing the whole group is the group's own button. */
export const canRemoveCondition = (group: SubCondition[]): boolean => group.length > 1;

export const removeCondition = (groups: ConditionGroups, g: number, c: number): ConditionGroups =>
  groups.map((group, i) => (i === g && canRemoveCondition(group) ? group.filter((_, j) => j !== c) : group));

/**
 * Changes one sub-condition. A new key of another kind resets the operator (its list differs) and the value
 * (a year is no title); a key of the same kind keeps both.
 */
export function updateCondition(groups: ConditionGroups, g: number, c: number, patch: Partial<SubCondition>): ConditionGroups {
  return groups.map((group, i) =>
    i !== g
      ? group
      : group.map((cond, j) => {
          if (j !== c) return cond;
          const next = { ...cond, ...patch };
          if (patch.key !== undefined && keyOf(patch.key).kind !== keyOf(cond.key).kind) {
            next.operate = OPERATORS[keyOf(patch.key).kind][0]!.op;
            next.value = '';
          }
          return next;
        }),
  );
}

/** What the form lacks, as a Chinese message (shown as a warning), or null when it can be sent. */
export function formProblem(form: SmartForm): { title: string; message: string } | null {
  if (!form.name.trim()) return { title: 'warning!', message: '播放列表名称不能为空！' };
  for (const group of form.groups) {
    for (const cond of group) {
      const kind = keyOf(cond.key).kind;
      if (kind === 'number' && (cond.value.trim() === '' || !Number.isFinite(Number(cond.value)))) return { title: 'warning!', message: '条件的值必须是数字！' };
      if (kind === 'text' && cond.value.trim() === '') return { title: 'warning!', message: '条件的值不能为空！' };
    }
  }
  return null;
}

/** The `conditions` JSON text: numbers as numbers, text as typed, bool keys without a value (true). */
export function conditionsJson(groups: ConditionGroups): string {
  return JSON.stringify(
    groups.map((group) =>
      group.map((cond) => {
        const kind = keyOf(cond.key).kind;
        if (kind === 'bool') return { key: cond.key, operate: cond.operate };
        return { key: cond.key, operate: cond.operate, value: kind === 'number' ? Number(cond.value) : cond.value };
      }),
    ),
  );
}
