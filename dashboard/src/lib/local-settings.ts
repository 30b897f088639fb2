/**
 * The browser-saved settings of the spec (§3), one typed key each. Values are JSON; a value that fails
 * to parse (an older build, a hand edit) falls back to the default instead of breaking the page.
 */

export interface LocalSettings {
  resource: string;
  showFields: string[];
  showFieldsID3: string[];
  detail: boolean;
  isOpenDetail: boolean;
  isDepth: boolean;
  isOpenWebdav: boolean;
  isDepthWebdav: boolean;
  limit: number;
  /** The tidy drawer's root path, remembered after a tidy task was created (§4). */
  tidy_root_path: string;
  tableSize: 'xs' | 'sm' | 'md';
  isHiddenBGP: boolean;
  isOpenBar: boolean;
  theme: string;
  mi_play_in_pl: number;
  sortedField: string;
  searchWord: string;
  lang: 'zh-CN' | 'en';
  treeWidth: number;
  /** The albums list's grid or list look (ui-albums). */
  albumView: 'grid' | 'list';
  /** The artists list's grid or list look. */
  artistView: 'grid' | 'list';
  /** The player's queue (§9 "Player storage keys"): PlayerTrack objects, checked one by one when read back. */
  queue: unknown[];
  queueIndex: number;
  'player.repeat': boolean;
  'player.shuffle': boolean;
  'player.volume': number;
}

type Key = keyof LocalSettings;

const storage = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

export function loadSetting<K extends Key>(key: K, fallback: LocalSettings[K]): LocalSettings[K] {
  const raw = storage()?.getItem(key);
  if (raw === null || raw === undefined) return fallback;
  // Strings are stored bare (the spec's `theme` = `dark`), everything else as JSON.
  if (typeof fallback === 'string') return raw as LocalSettings[K];
  try {
    const value = JSON.parse(raw) as unknown;
    return typeof value === typeof fallback && (Array.isArray(fallback) === Array.isArray(value)) ? (value as LocalSettings[K]) : fallback;
  } catch {
    return fallback;
  }
}

export function saveSetting<K extends Key>(key: K, value: LocalSettings[K]): void {
  storage()?.setItem(key, typeof value === 'string' ? value : JSON.stringify(value));
}
