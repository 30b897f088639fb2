import { describe, expect, it } from 'vitest';
import { activeTab, sidebarFor, tabsFor } from './nav.ts';

describe('navigation by role (§6)', () => {
  it('V1 sees the console and the operation records only', () => {
    expect(tabsFor('V1').map((t) => t.path)).toEqual(['/', '/log']);
    expect(sidebarFor('V1', 1)).toEqual([]);
  });

  it('V2 sees every tab and the library side bar; xiaoMiQueue only with mi_play_in_pl = 1', () => {
    expect(tabsFor('V2').map((t) => t.key)).toEqual(['index', 'home', 'log', 'mod', 'library', 'system']);
    expect(sidebarFor('V2', 0).map((e) => e.key)).not.toContain('xiaoMiQueue');
    expect(sidebarFor('V2', 1).at(-1)).toMatchObject({ key: 'xiaoMiQueue', path: '/xiaoMiQueue' });
    expect(sidebarFor('V2', 0).map((e) => e.path)).toEqual([
      '/discover', '/playing', '/playlists/recently-added/', '/albums/recently-added/', '/artists/most-albums', '/tracks/recently-added/', '/genres/a-z/', '/favourites/albums/',
    ]);
  });

  it('maps locations to their tab', () => {
    expect(activeTab('/')).toBe('home');
    expect(activeTab('/detail')).toBe('home');
    expect(activeTab('/album/id/7')).toBe('library');
    expect(activeTab('/log')).toBe('log');
    expect(activeTab('/system')).toBe('system');
    expect(activeTab('/mod')).toBe('mod');
    expect(activeTab('/actionMod')).toBe('mod');
    expect(activeTab('/admin/')).toBeUndefined();
  });
});
