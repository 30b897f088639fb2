/**
 * The albums screen's six sorts (spec §2, §9) and the getAlbumList2 type each one asks /rest for.
 * The route carries the sort (/albums/a-z/); an unknown one falls back to the first.
 */
import type { AlbumListType } from '../api/get-album-list.ts';
import type { SortTab } from '../components/sort-tabs.tsx';

export const ALBUM_SORTS = [
  { key: 'recently-added', label: '最近添加', type: 'newest' },
  { key: 'recently-played', label: '最近播放', type: 'recent' },
  { key: 'most-played', label: '最多播放', type: 'frequent' },
  { key: 'a-z', label: 'A-Z排序', type: 'alphabeticalByName' },
  { key: 'artist-sort', label: '歌手排序', type: 'alphabeticalByArtist' },
  { key: 'less_cover', label: '缺失封面', type: 'less_cover' },
] as const satisfies readonly (SortTab & { type: AlbumListType })[];

export type AlbumSortKey = (typeof ALBUM_SORTS)[number]['key'];

export const DEFAULT_ALBUM_SORT: AlbumSortKey = 'recently-added';

/** Albums per batch, and per batch while searching (§9). */
export const ALBUM_PAGE_SIZE = 50;
export const ALBUM_SEARCH_PAGE_SIZE = 30;

export function albumSort(key: string | undefined): (typeof ALBUM_SORTS)[number] | undefined {
  return ALBUM_SORTS.find((s) => s.key === key);
}

/** The getAlbumList2 type and batch size for a sort and the (debounced) global term: a term searches. */
export function albumQuery(key: string | undefined, term: string): { type: AlbumListType; pageSize: number } {
  if (term.trim() !== '') return { type: 'search', pageSize: ALBUM_SEARCH_PAGE_SIZE };
  return { type: (albumSort(key) ?? ALBUM_SORTS[0]).type, pageSize: ALBUM_PAGE_SIZE };
}
