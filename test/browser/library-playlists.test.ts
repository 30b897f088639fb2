/**
 * The playlists, playlist detail and favourites screens (issue 13, spec doc 2 §2 Playlists / Playlist detail /
 * Favourites, §5 smart-playlist rules, §8 messages) in chromium against a real server over the generated library:
 * the create-smart-playlist dialog refuses an empty name ('warning!' 播放列表名称不能为空！) and creates the issue's
 * rule (year ≥ 2000 AND genre contains 'Pop' OR favourite track is true), whose tracks are checked against the
 * library computed here from /rest getAlbum data; an m3u8 written here (3 library paths) is imported and exported
 * (the export link serves the same 3 paths); a drag reorders the list, saved on drop, kept after a reload and
 * agreed by /rest getPlaylist; the filter-list badge, dedupe, the edit drawer, delete; starred album, artist and
 * track show in the favourites tabs. Screenshots (light/dark, phone 390×844) in test/browser/screenshots/playlists-*.
 */
import { execFileSync } from 'node:child_process';
import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startLibraryBrowser, type LibraryBrowser } from './library-harness.ts';

interface Song {
  id: string;
  title: string;
  path?: string;
  year?: number;
  genre?: string;
  genres?: { name: string }[];
  albumId?: string;
  artistId?: string;
  starred?: string;
}
interface Playlist {
  id: string;
  name: string;
  coverArt?: string;
  comment?: string;
  songCount: number;
  isDynamic?: boolean;
  privacyLevel?: string;
  entry?: Song[];
}

let lib: LibraryBrowser;
let page: Page;
let songs: Song[] = [];
/** Uncaught errors in the page: any of them fails the run. */
const pageErrors: string[] = [];

const notice = (title: string) => page.locator(`.bp6-toast [data-notice-title="${title}"]`).last();
const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

async function allSongs(): Promise<Song[]> {
  const albums = (await lib.rest<{ albumList2: { album?: { id: string }[] } }>('getAlbumList2', { type: 'alphabeticalByName', size: 500 })).albumList2.album ?? [];
  const out: Song[] = [];
  for (const a of albums) out.push(...((await lib.rest<{ album: { song?: Song[] } }>('getAlbum', { id: a.id })).album.song ?? []));
  return out;
}

const playlists = async () => (await lib.rest<{ playlists: { playlist?: Playlist[] } }>('getPlaylists')).playlists.playlist ?? [];
const playlist = async (id: string) => (await lib.rest<{ playlist: Playlist }>('getPlaylist', { id })).playlist;
const entryIds = async (id: string) => ((await playlist(id)).entry ?? []).map((s) => s.id);

/** The track rows of the detail page, in screen order (the shared track table marks each row with its song id). */
const ROWS = '[data-testid="track-table"] tbody tr[data-id]';
const rowIds = () => page.locator(ROWS).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id') ?? ''));

async function shots(name: string, ready: string) {
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme);
    await page.reload();
    await page.locator(ready).first().waitFor();
    await page.waitForTimeout(300);
    await lib.shot(`playlists-${name}-${theme}`);
  }
  await page.evaluate(() => localStorage.setItem('theme', 'light'));
}

beforeAll(async () => {
  lib = await startLibraryBrowser({ bigCount: 0 });
  page = lib.page;
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  songs = await allSongs();
}, 240_000);

afterAll(async () => {
  await lib?.close();
});

describe('playlists screens', () => {
  it('the smart-playlist dialog refuses an empty name, then creates the issue’s rule; its tracks are the library’s', async () => {
    expect(songs.length).toBeGreaterThan(20);
    // One favourite that only the OR branch brings in: a track outside (year ≥ 2000 AND genre ∋ pop).
    const genresOf = (s: Song) => (s.genres?.length ? s.genres.map((g) => g.name) : (s.genre ?? '').split(/[;,/]/)).map((g) => fold(g.trim()));
    const popNew = (s: Song) => (s.year ?? 0) >= 2000 && genresOf(s).some((g) => g.includes('pop'));
    const favourite = songs.find((s) => !popNew(s) && genresOf(s).some((g) => g.includes('pop'))) ?? songs.find((s) => !popNew(s))!;
    expect((await lib.rest('star', { id: favourite.id })).status).toBe('ok');
    const expected = songs.filter((s) => popNew(s) || s.id === favourite.id).map((s) => s.id);
    expect(expected.length).toBeGreaterThan(3);

    await lib.open('/playlists/recently-added/', 'playlists-page');
    await page.getByTestId('create-smart').click();
    const dialog = page.getByTestId('smart-playlist-dialog');
    await dialog.waitFor();
    await page.getByTestId('smart-create').click();
    await notice('warning!').waitFor();
    expect(await notice('warning!').textContent()).toContain('播放列表名称不能为空！');
    await expect(dialog.isVisible()).resolves.toBe(true);
    // One group can not be removed.
    await expect(page.getByTestId('smart-remove-group').first().isDisabled()).resolves.toBe(true);

    await page.fill('#ts-smart-name', 'Pop since 2000 or loved');
    const row = (g: number, c: number) => dialog.getByTestId('smart-group').nth(g).getByTestId('smart-condition').nth(c);
    await row(0, 0).locator('[data-field=key]').selectOption('year');
    await row(0, 0).locator('[data-field=operate]').selectOption('gte');
    await row(0, 0).locator('[data-field=value] input, input[data-field=value]').first().fill('2000');
    await dialog.getByTestId('smart-add-condition').first().click();
    await row(0, 1).locator('[data-field=key]').selectOption('genre');
    await row(0, 1).locator('[data-field=operate]').selectOption('contain');
    await row(0, 1).locator('[data-field=value] input, input[data-field=value]').first().fill('Pop');
    await dialog.getByTestId('smart-add-group').click();
    await row(1, 0).locator('[data-field=key]').selectOption('favourite-track');
    await row(1, 0).locator('[data-field=operate]').selectOption('is');
    expect(await row(1, 0).locator('[data-field=value]').count()).toBe(0);
    // Two groups now: either may go.
    await expect(page.getByTestId('smart-remove-group').first().isDisabled()).resolves.toBe(false);
    await page.fill('#ts-smart-limit', '500');
    await page.getByTestId('smart-dynamic').check({ force: true });
    await lib.shot('playlists-smart-dialog');
    await page.getByTestId('smart-create').click();
    await notice('创建成功！').waitFor();

    await page.getByTestId('playlist-page').waitFor();
    const id = (await page.getByTestId('playlist-page').getAttribute('data-id'))!;
    await page.getByTestId('badge-dynamic').waitFor();
    expect(new Set(await entryIds(id))).toEqual(new Set(expected));
    expect((await entryIds(id)).length).toBe(expected.length);
    expect(await page.getByTestId('playlist-count').textContent()).toContain(String(expected.length));
    expect(new Set(await rowIds())).toEqual(new Set(expected));
    // Dynamic: unstarring shows at once.
    await lib.rest('unstar', { id: favourite.id });
    await page.reload();
    await page.getByTestId('playlist-page').waitFor();
    await expect.poll(async () => (await rowIds()).length).toBe(expected.length - 1);
    await lib.rest('star', { id: favourite.id });
    await shots('smart-detail', '[data-testid=playlist-page]');
  });

  let imported = '';
  let paths: string[] = [];

  it('imports an m3u8 of 3 library files and exports the same 3 paths', async () => {
    const picked = songs.filter((s) => s.path).slice(0, 3);
    expect(picked).toHaveLength(3);
    // /rest may give the path relative to its media root (the home's media folder): the m3u holds absolute ones.
    paths = picked.map((s) => (path.isAbsolute(s.path!) ? s.path! : path.join(lib.home.media, s.path!)));
    for (const p of paths) await access(p);
    const file = path.join(lib.home.home, 'road trip.m3u8');
    await writeFile(file, ['#EXTM3U', ...paths.flatMap((p) => ['#EXTINF:5,x', p]), '/nowhere/missing.mp3', ''].join('\n'));

    await lib.open('/playlists/a-z/', 'playlists-page');
    await page.getByTestId('import-playlist-file').setInputFiles(file);
    await notice('导入成功！').waitFor();
    expect(await notice('导入成功！').textContent()).toMatch(/3/);
    // The unmatched line is listed with its line number.
    await page.getByTestId('import-unmatched').waitFor();
    expect(await page.getByTestId('import-unmatched').textContent()).toContain('/nowhere/missing.mp3');
    await page.keyboard.press('Escape');
    // Nothing matched: 导入失败！ with the server's message, and no playlist.
    const bad = path.join(lib.home.home, 'nothing.m3u8');
    await writeFile(bad, '#EXTM3U\n/nowhere/a.mp3\n/nowhere/b.mp3\n');
    await page.getByTestId('import-playlist-file').setInputFiles(bad);
    await notice('导入失败！').waitFor();
    expect((await notice('导入失败！').textContent())!.length).toBeGreaterThan('导入失败！'.length);
    expect((await playlists()).some((p) => p.name === 'nothing')).toBe(false);

    const made = (await playlists()).find((p) => p.name === 'road trip')!;
    expect(made).toBeTruthy();
    imported = made.id;
    expect(await entryIds(imported)).toEqual(picked.map((s) => s.id));
    await page.locator(`[data-testid=cover-grid] [data-id="${imported}"]`).waitFor();

    await lib.open(`/playlist/${imported}`, 'playlist-page');
    await page.getByTestId('playlist-menu').click();
    // The link is an attachment: the new tab downloads it rather than showing it, so watch the tab's request.
    const [request] = await Promise.all([lib.context.waitForEvent('request', (r) => r.url().includes('/rest/downloadPlaylist')), page.getByTestId('playlist-export').click()]);
    const url = request.url();
    for (const p of lib.context.pages()) if (p !== page) await p.close();
    expect(url).toContain('/rest/downloadPlaylist?');
    const text = await (await fetch(url)).text();
    expect(text.split('\n').filter((l) => l && !l.startsWith('#'))).toEqual(paths);
  });

  it('a drag reorders the list, saved on drop, kept after a reload and agreed by /rest', async () => {
    const before = await entryIds(imported);
    await lib.open(`/playlist/${imported}`, 'playlist-page');
    expect(await rowIds()).toEqual(before);
    const rows = page.locator(ROWS);
    const from = (await rows.nth(0).boundingBox())!;
    const to = (await rows.nth(2).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 8, { steps: 4 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height * 0.75, { steps: 12 });
    await page.mouse.up();
    await notice('更新成功！').waitFor();
    const after = [before[1], before[2], before[0]];
    expect(await rowIds()).toEqual(after);
    await expect.poll(() => entryIds(imported)).toEqual(after);
    await page.reload();
    await page.getByTestId('playlist-page').waitFor();
    await expect.poll(rowIds).toEqual(after);
    // The last opened playlist is kept in local storage and offered on the playlists page.
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('playlist'))) ?? 'null')).toMatchObject({ id: imported });
    await lib.open('/playlists/recently-added/', 'playlists-page');
    await page.getByTestId('last-playlist').waitFor();
    await shots('list', '[data-testid=cover-grid]');
  });

  it('on a touch screen a finger drags a row by its handle; the arrow keys move the focused handle\'s row', async () => {
    const before = await entryIds(imported);
    await lib.open(`/playlist/${imported}`, 'playlist-page');
    await expect.poll(rowIds).toEqual(before);
    // A finger: real touch events through the DevTools protocol (chromium turns them into touch pointer events).
    const cdp = await page.context().newCDPSession(page);
    const handle = (await page.locator(`${ROWS} .ts-drag-handle`).nth(2).boundingBox())!;
    const target = (await page.locator(ROWS).nth(0).boundingBox())!;
    const x = handle.x + handle.width / 2;
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', y: number) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    await touch('touchStart', handle.y + handle.height / 2);
    for (let i = 1; i <= 8; i++) await touch('touchMove', handle.y + handle.height / 2 + ((target.y + target.height * 0.3 - handle.y - handle.height / 2) * i) / 8);
    await touch('touchEnd', 0);
    await cdp.detach();
    await notice('更新成功！').waitFor();
    const dragged = [before[2], before[0], before[1]];
    expect(await rowIds()).toEqual(dragged);
    await expect.poll(() => entryIds(imported)).toEqual(dragged);

    // The keyboard: the first row's handle, ArrowDown twice — the row goes to the end and its handle keeps the focus.
    await page.locator(`${ROWS} .ts-drag-handle`).first().focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(rowIds).toEqual([before[0], before[2], before[1]]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-drag-handle'))).toBe('1');
    await page.keyboard.press('ArrowDown');
    const keyed = [before[0], before[1], before[2]];
    await expect.poll(rowIds).toEqual(keyed);
    await expect.poll(() => entryIds(imported)).toEqual(keyed);
  });

  it('marks and unmarks a filter list (badge), dedupes, edits and deletes', async () => {
    await lib.open(`/playlist/${imported}`, 'playlist-page');
    await page.getByTestId('playlist-menu').click();
    await page.getByTestId('playlist-filter').click();
    await page.getByTestId('badge-filter').waitFor();
    expect((await playlist(imported)).privacyLevel).toBe('exclude');

    // A repeated entry, then 去重.
    const ids = await entryIds(imported);
    expect((await lib.rest('updatePlaylist', { playlistId: imported, songIdToAdd: ids[0]! })).status).toBe('ok');
    await page.reload();
    await page.getByTestId('playlist-page').waitFor();
    await expect.poll(async () => (await rowIds()).length).toBe(4);
    await page.getByTestId('playlist-menu').click();
    await page.getByTestId('playlist-dedupe').click();
    await notice('去重成功！').waitFor();
    await expect.poll(async () => (await rowIds()).length).toBe(3);
    expect(await entryIds(imported)).toEqual(ids);

    await page.getByTestId('playlist-menu').click();
    await page.getByTestId('playlist-filter').click();
    await page.getByTestId('badge-filter').waitFor({ state: 'detached' });
    expect((await playlist(imported)).privacyLevel).not.toBe('exclude');

    await page.getByTestId('playlist-edit-open').click();
    await page.getByTestId('playlist-edit').waitFor();
    await page.fill('#ts-playlist-name', 'Road trip 2');
    await page.fill('#ts-playlist-comment', 'Windows down');
    // A cover uploaded in the drawer (upload_image) is saved as playlist_img: /rest serves it for the playlist.
    const png = path.join(lib.home.home, 'cover.png');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=red:s=64x64', '-frames:v', '1', png]);
    const coverBefore = (await playlist(imported)).coverArt;
    await page.getByTestId('playlist-cover-file').setInputFiles(png);
    await expect.poll(() => page.locator('.ts-playlist-cover-preview').getAttribute('src')).not.toMatch(/getCoverArt|^data:/);
    await lib.shot('playlists-edit-drawer');
    await page.getByTestId('playlist-save').click();
    await notice('修改成功！').waitFor();
    await expect.poll(async () => (await playlist(imported)).coverArt).not.toBe(coverBefore);
    const art = await page.request.get(`${lib.server.base}${await page.locator('.ts-playlist-cover').getAttribute('src')}`);
    expect(art.ok()).toBe(true);
    expect(art.headers()['content-type']).toMatch(/^image\//);
    await expect.poll(async () => page.getByTestId('playlist-name').textContent()).toBe('Road trip 2');
    expect(await page.getByTestId('playlist-comment').textContent()).toBe('Windows down');
    expect(await playlist(imported)).toMatchObject({ name: 'Road trip 2', comment: 'Windows down' });

    await page.getByTestId('playlist-delete').click();
    await page.locator('.bp6-alert-footer .bp6-button.bp6-intent-danger').click();
    await page.waitForURL(/\/playlists\/recently-added\/?$/);
    expect((await playlists()).some((p) => p.id === imported)).toBe(false);
  });

  it('starred album, artist and track show in the favourites tabs', async () => {
    const song = songs.find((s) => s.albumId && s.artistId)!;
    const album = (await lib.rest<{ album: { id: string; name: string } }>('getAlbum', { id: song.albumId! })).album;
    const artist = (await lib.rest<{ artist: { id: string; name: string } }>('getArtist', { id: song.artistId! })).artist;
    await lib.rest('star', { albumId: album.id });
    await lib.rest('star', { artistId: artist.id });
    await lib.rest('star', { id: song.id });

    const sizes: string[] = [];
    const watch = (r: { url: () => string }) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/rest/getStarred2')) sizes.push(`${u.searchParams.get('type')}:${u.searchParams.get('size')}:${u.searchParams.get('offset')}`);
    };
    page.on('request', watch);
    await lib.open('/favourites/albums/', 'favourites-page');
    await page.locator(`[data-testid=cover-grid] [data-id="${album.id}"]`).waitFor();
    page.off('request', watch);
    // §9: 30 per batch; one short batch ends the list.
    expect(sizes).toEqual(['album:30:0']);
    await page.locator('.ts-sort-tab[data-sort=artists]').click();
    await page.locator(`[data-testid=favourites-page][data-tab=artists] [data-testid=cover-grid] [data-id="${artist.id}"]`).waitFor();
    await page.locator('.ts-sort-tab[data-sort=tracks]').click();
    const row = page.locator(`[data-testid=favourites-page][data-tab=tracks] [data-testid=track-table] tr[data-id="${song.id}"]`);
    await row.waitFor();
    await shots('favourites', '[data-testid=track-table]');

    // Add to playlist from a row: a new playlist with this song, then the same song into it again from the menu.
    await row.locator('[data-action=add-to-playlist]').click();
    await page.getByTestId('add-to-new-playlist').click();
    await page.getByTestId('new-playlist-name').fill('From favourites');
    await page.getByTestId('new-playlist-create').click();
    await notice('添加成功！').waitFor();
    const made = (await playlists()).find((p) => p.name === 'From favourites')!;
    expect(await entryIds(made.id)).toEqual([song.id]);
    await page.keyboard.press('Escape');
    await row.locator('[data-action=add-to-playlist]').click();
    await page.locator(`[data-testid=add-to-playlist-menu] [data-playlist="${made.id}"]`).click();
    await expect.poll(() => entryIds(made.id)).toEqual([song.id, song.id]);
    // Dynamic playlists take no hand edits: the smart one is not offered.
    await row.locator('[data-action=add-to-playlist]').click();
    await page.locator(`[data-testid=add-to-playlist-menu] [data-playlist="${made.id}"]`).waitFor();
    const offered = await page.locator('[data-testid=add-to-playlist-menu] [data-playlist]').evaluateAll((els) => els.map((e) => e.getAttribute('data-playlist')));
    const dynamic = (await playlists()).filter((p) => p.isDynamic).map((p) => p.id);
    expect(dynamic.length).toBeGreaterThan(0);
    expect(offered.filter((id) => dynamic.includes(id!))).toEqual([]);
    await page.keyboard.press('Escape');

    // Remove from playlist: the second entry goes, the first stays.
    await lib.open(`/playlist/${made.id}`, 'playlist-page');
    await page.locator(ROWS).nth(1).locator('[data-action=remove-from-playlist]').click();
    await notice('删除成功！').waitFor();
    await expect.poll(() => entryIds(made.id)).toEqual([song.id]);
    expect(await rowIds()).toEqual([song.id]);

    // Unstarring from the favourites grid: the heart empties, /rest agrees, the tile stays until a reload.
    await lib.open('/favourites/albums/', 'favourites-page');
    const heart = page.locator(`[data-testid=cover-grid] [data-id="${album.id}"] .ts-cover-heart`);
    await heart.click();
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(async () => ((await lib.rest<{ starred2: { album?: { id: string }[] } }>('getStarred2')).starred2.album ?? []).some((a) => a.id === album.id)).toBe(false);
    await page.reload();
    await page.getByTestId('favourites-page').waitFor();
    await page.waitForTimeout(500);
    expect(await page.locator(`[data-testid=cover-grid] [data-id="${album.id}"]`).count()).toBe(0);
  });

  it('phone layout 390×844: list, detail and favourites', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const first = (await playlists())[0]!;
    await lib.open('/playlists/recently-added/', 'playlists-page');
    await page.locator('[data-testid=cover-grid]').waitFor();
    await lib.shot('playlists-phone-list');
    await page.getByTestId('create-smart').click();
    await page.getByTestId('smart-playlist-dialog').waitFor();
    await page.waitForTimeout(300);
    await lib.shot('playlists-phone-smart-dialog');
    await page.keyboard.press('Escape');
    await lib.open(`/playlist/${first.id}`, 'playlist-page');
    await page.waitForTimeout(300);
    await lib.shot('playlists-phone-detail');
    await lib.open('/favourites/tracks/', 'favourites-page');
    await page.locator('[data-testid=track-table]').waitFor();
    await lib.shot('playlists-phone-favourites');
    expect(pageErrors).toEqual([]);
  });
});
