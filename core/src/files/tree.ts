import path from 'node:path';
import type { DirEntry, Listing } from './listing.ts';
import { iconFor, type TreeIcon } from './icons.ts';
import type { ScrapeState } from './file-states.ts';
import { indexLetter } from '../templates/letter.ts';
import { toSimplified } from '../library/text.ts';

/** A file tree node as the dashboard reads it (spec: "File tree node"). */
export interface TreeNode {
  /** Unique in the tree: the entry's absolute path. */
  id: string;
  name: string;
  title: string;
  icon: TreeIcon;
  state: ScrapeState;
  /** Always empty: the tree is loaded one level at a time. */
  children: TreeNode[];
  selected: boolean;
  is_dir: boolean;
  full_path: string;
  size: number;
  /** ISO 8601 modification time. */
  update_time: string;
  /** Only on a file the library scan left out (not audio, unreadable): the reason, by error code. */
  scan_problem?: { code: string; message: string };
}

export const SORT_FIELDS = ['name', 'update_time', 'size', 'state', 'folder'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** zh collation orders CJK by pinyin and Latin as usual; numeric makes "2" come before "10". */
const collator = new Intl.Collator('zh', { numeric: true, sensitivity: 'base' });

/**
 * The name's group in the list: digits first, then A–Z where a Chinese name files under its pinyin
 * initial (阿杜, Beyond, 周杰伦 — as music apps list artists), then everything else (kana, hangul,
 * symbols). ICU's zh collation alone would put every hanzi before every Latin letter.
 */
function groupOf(name: string): string {
  const c = name.charCodeAt(0);
  if (c >= 48 && c <= 57) return '0';
  const letter = indexLetter(name);
  return letter === '#' ? '~' : letter;
}

const groups = new Map<string, string>();
function group(name: string): string {
  let g = groups.get(name);
  if (g === undefined) {
    g = groupOf(name);
    if (groups.size > 200_000) groups.clear();
    groups.set(name, g);
  }
  return g;
}

/** Name order: group, then the zh collation inside the group. */
export function compareNames(a: string, b: string): number {
  const ga = group(a);
  const gb = group(b);
  return ga !== gb ? (ga < gb ? -1 : 1) : collator.compare(a, b);
}
/** State order when sorting by state: not scraped first (what still needs work), then failed, then done. */
const STATE_RANK: Record<string, number> = { null: 0, failed: 1, success: 2 };

export function toNodes(dir: string, entries: readonly DirEntry[], states: ReadonlyMap<string, 'success' | 'failed'>): TreeNode[] {
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  return entries.map((e) => {
    const full = prefix + e.name;
    return {
      id: full,
      name: e.name,
      title: e.name,
      icon: iconFor(e.name, e.isDir),
      state: states.get(e.name) ?? null,
      children: [],
      selected: false,
      is_dir: e.isDir,
      full_path: full,
      size: e.size,
      update_time: new Date(e.mtimeMs).toISOString(),
    };
  });
}

/**
 * Filters by the spec's search word: `state:null|success|failed` keeps nodes in that state; any
 * other word keeps nodes whose name contains it, ignoring case and width (ＡＢＣ = abc) and
 * simplified/traditional Chinese (许 = 許), like every library search.
 */
export function filterNodes(nodes: TreeNode[], searchWord: string | undefined | null): TreeNode[] {
  const word = (searchWord ?? '').trim();
  if (word === '') return nodes;
  const state = /^state:\s*(null|success|failed)$/i.exec(word);
  if (state) {
    const wanted = state[1].toLowerCase();
    return nodes.filter((n) => String(n.state) === wanted);
  }
  const needle = toSimplified(fold(word));
  return nodes.filter((n) => toSimplified(fold(n.name)).includes(needle));
}

const fold = (s: string) => s.normalize('NFKC').toLocaleLowerCase();

/**
 * Sorts by the given keys in order; each is a field name, `-field` for descending. `folder` puts
 * folders first. Name always breaks ties. Default: folders first, then by name.
 */
export function sortNodes(nodes: TreeNode[], sortedFields: readonly string[] | string | undefined | null): TreeNode[] {
  const keys = parseSort(sortedFields);
  const cmp = (a: TreeNode, b: TreeNode): number => {
    for (const { field, dir } of keys) {
      let c = 0;
      switch (field) {
        case 'folder':
          c = Number(b.is_dir) - Number(a.is_dir);
          break;
        case 'name':
          c = compareNames(a.name, b.name);
          break;
        case 'update_time':
          c = a.update_time < b.update_time ? -1 : a.update_time > b.update_time ? 1 : 0;
          break;
        case 'size':
          c = a.size - b.size;
          break;
        case 'state':
          c = STATE_RANK[String(a.state)] - STATE_RANK[String(b.state)];
          break;
      }
      if (c !== 0) return field === 'folder' ? c : c * dir;
    }
    return compareNames(a.name, b.name);
  };
  return nodes.sort(cmp);
}

export function parseSort(sortedFields: readonly string[] | string | undefined | null): Array<{ field: SortField; dir: 1 | -1 }> {
  const list = sortedFields === undefined || sortedFields === null || sortedFields === '' ? ['folder', 'name'] : typeof sortedFields === 'string' ? sortedFields.split(',') : sortedFields;
  const out: Array<{ field: SortField; dir: 1 | -1 }> = [];
  for (const raw of list) {
    const s = raw.trim();
    const desc = s.startsWith('-');
    const field = (desc ? s.slice(1) : s) as SortField;
    if ((SORT_FIELDS as readonly string[]).includes(field)) out.push({ field, dir: desc ? -1 : 1 });
  }
  return out.length ? out : [{ field: 'folder', dir: 1 }, { field: 'name', dir: 1 }];
}

interface ListingMemo {
  nodes: TreeNode[];
  sorted: Map<string, TreeNode[]>;
}
/** Nodes and sort orders built once per cached listing (a new listing object means new contents). */
const memos = new WeakMap<Listing, ListingMemo>();

/**
 * The tree view of a listing: nodes with their states, sorted, then filtered. The nodes and each sort
 * order are computed once per listing and shared between requests (never mutate them); only nodes
 * whose state is set are copied. A 10,000-entry folder is answered from the cache in a few ms.
 */
export function treeView(
  listing: Listing,
  states: ReadonlyMap<string, 'success' | 'failed'>,
  options: { sortedFields?: readonly string[] | string | null; searchWord?: string | null },
): TreeNode[] {
  let memo = memos.get(listing);
  if (!memo) {
    memo = { nodes: toNodes(listing.dir, listing.entries, new Map()), sorted: new Map() };
    memos.set(listing, memo);
  }
  const keys = parseSort(options.sortedFields);
  const withState = (nodes: TreeNode[]) =>
    states.size === 0 ? nodes : nodes.map((n) => (states.has(n.name) ? { ...n, state: states.get(n.name)! } : n));
  let nodes: TreeNode[];
  if (keys.some((k) => k.field === 'state') && states.size > 0) {
    nodes = sortNodes(withState(memo.nodes), keys.map((k) => (k.dir === -1 ? `-${k.field}` : k.field)));
  } else {
    const cacheKey = keys.map((k) => (k.dir === -1 ? `-${k.field}` : k.field)).join(',');
    let sorted = memo.sorted.get(cacheKey);
    if (!sorted) {
      sorted = sortNodes([...memo.nodes], cacheKey.split(','));
      memo.sorted.set(cacheKey, sorted);
    }
    nodes = withState(sorted);
  }
  return filterNodes(nodes, options.searchWord);
}
