/**
 * Pure grouping of the duplicate check: which files could be byte-identical (same size), which share a song name,
 * and how a group becomes the report's rows (name, file 1, file 2 — doc 2 "duplicate-check detail").
 */

export const baseOf = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
export const stemOf = (p: string): string => {
  const base = baseOf(p);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
};

/** Copy markers file managers and downloaders add: "x (1)", "x（2）", "x - 副本", "x - Copy", "x copy 2". */
const COPY_MARKER = /(?:\s*[(（[]\d{1,3}[)）\]]|\s*-\s*(?:副本|复制|copy)(?:\s*[(（]?\d{1,3}[)）]?)?|\s+copy(?:\s+\d{1,3})?)$/iu;

/**
 * The song name a file's name stands for: without copy markers, a leading track number or an "Artist - "
 * prefix (as core's file_song_name), case and width folded, spaces collapsed — so "03. 周杰伦 - 晴天.flac" and
 * "晴天 (1).mp3" are one name. Empty when nothing is left.
 */
export function songKey(path: string): string {
  let stem = stemOf(path).normalize('NFKC');
  for (let i = 0; i < 3 && COPY_MARKER.test(stem); i++) stem = stem.replace(COPY_MARKER, '');
  const withoutNumber = stem.replace(/^\s*\d{1,3}\s*(?:[.\-_、]\s*|\s+)/u, '');
  const dash = withoutNumber.lastIndexOf(' - ');
  const song = (dash >= 0 ? withoutNumber.slice(dash + 3) : withoutNumber).trim() || stem;
  return song.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Values of `key` shared by two files or more, each with its files (sorted), groups in key order. */
export function groupBy<T>(values: T[], key: (value: T) => string | null): Array<{ key: string; members: T[] }> {
  const map = new Map<string, T[]>();
  for (const value of values) {
    const k = key(value);
    if (k === null || k === '') continue;
    const list = map.get(k) ?? [];
    list.push(value);
    map.set(k, list);
  }
  return [...map.entries()].filter(([, members]) => members.length > 1).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, members]) => ({ key: k, members }));
}

export type Section = 'hash' | 'name' | 'acoustid';
export interface Row { name: string; file_1: string; file_2: string }

/** A group of n files as n−1 rows: the first file (in path order) beside each of the others. */
export function rowsOf(files: string[], name: string): Row[] {
  const sorted = [...files].sort();
  return sorted.slice(1).map((other) => ({ name, file_1: sorted[0]!, file_2: other }));
}

/** Union-find over indices: the groups of files linked by pairwise matches. */
export function linkedGroups(n: number, pairs: Array<[number, number]>): number[][] {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (const [a, b] of pairs) parent[find(a)] = find(b);
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), i]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}
