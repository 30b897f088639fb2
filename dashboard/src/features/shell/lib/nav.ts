/** The header tabs and the library side bar of §2 and §6, and who sees what. */
import type { Role } from '../../../stores/session-store.ts';

export interface NavEntry {
  key: string;
  label: string;
  path: string;
  /** Only V2 sees it (§6). */
  v2?: boolean;
  icon: string;
}

/** V1 sees the operations console and the operation records; V2 sees every tab. */
export const TABS: readonly NavEntry[] = [
  { key: 'index', label: '首页', path: '/index', v2: true, icon: 'home' },
  { key: 'home', label: '操作台', path: '/', icon: 'console' },
  { key: 'log', label: '操作记录', path: '/log', icon: 'history' },
  { key: 'mod', label: '插件管理', path: '/mod', v2: true, icon: 'cube' },
  { key: 'library', label: '音乐库', path: '/albums/recently-added/', v2: true, icon: 'music' },
  { key: 'system', label: '系统设置', path: '/system', v2: true, icon: 'cog' },
];

export const SIDEBAR: readonly NavEntry[] = [
  { key: 'discover', label: '发现', path: '/discover', icon: 'compass' },
  { key: 'playing', label: '正在播放', path: '/playing', icon: 'play' },
  { key: 'playlists', label: '歌单', path: '/playlists/recently-added/', icon: 'properties' },
  { key: 'albums', label: '专辑', path: '/albums/recently-added/', icon: 'record' },
  { key: 'artists', label: '艺术家', path: '/artists/most-albums', icon: 'people' },
  { key: 'tracks', label: '歌曲', path: '/tracks/recently-added/', icon: 'music' },
  { key: 'genres', label: '流派', path: '/genres/a-z/', icon: 'tag' },
  { key: 'favourites', label: '收藏', path: '/favourites/albums/', icon: 'heart' },
  { key: 'xiaoMiQueue', label: '小爱播放队列', path: '/xiaoMiQueue', icon: 'mobile-phone' },
];

export function tabsFor(role: Role | undefined): NavEntry[] {
  return TABS.filter((t) => !t.v2 || role === 'V2');
}

/** The side bar is V2's library; xiaoMiQueue only when the local mi_play_in_pl flag is 1. */
export function sidebarFor(role: Role | undefined, miPlayInPl: number): NavEntry[] {
  if (role !== 'V2') return [];
  return SIDEBAR.filter((e) => e.key !== 'xiaoMiQueue' || miPlayInPl === 1);
}

/** The tab a location belongs to: library pages light up 音乐库, the file screen (/ and /detail) 操作台. */
export function activeTab(location: string): string | undefined {
  if (location === '/' || location === '/detail') return 'home';
  const libraryPrefixes = ['/albums', '/album/', '/artists', '/artist/', '/tracks', '/genres', '/genre/', '/favourites', '/playlists', '/playlist/', '/discover', '/playing', '/xiaoMiQueue', '/library'];
  if (libraryPrefixes.some((p) => location.startsWith(p))) return 'library';
  // The plugin screens' side menu switches between /mod and /actionMod: both are 插件管理.
  if (location.startsWith('/actionMod')) return 'mod';
  return TABS.find((t) => t.path !== '/' && location.startsWith(t.path))?.key;
}
