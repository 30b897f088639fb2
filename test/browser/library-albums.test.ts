/**
 * The albums, album detail and tracks screens (issue 13, spec doc 2 §2 Albums list / Album detail / Tracks
 * library, §8 messages) in chromium against a real server over the generated small library plus 40 one-song
 * albums (so the list needs a second batch): each of the six album sorts lists what /rest getAlbumList2 answers
 * for its type, in that order; the grid/list choice is kept after a reload; the next 50 load at the bottom and
 * nothing more is asked after the short page; back-to-top shows past 700 px; the header's search term narrows
 * the albums (getAlbumList2 type=search) and the tracks (getSongList search); the album page shows getAlbum's fields and plays the album; an edit written
 * into the files (write_metadata) is seen by ffprobe and undone by undo_task; a delete moves the files to the
 * trash and undo brings them back; the tracks tabs agree with /rest getSongList; without a Subsonic password
 * the album list says so (查询失败！ + the admin link) and goes to /login. Screenshots in
 * test/browser/screenshots/albums-* (light, dark, phone 390×844).
 */
import { execFile } from 'node:child_process';
import { access, mkdir, readdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ffprobe, makePicture, newContext, SCREENSHOTS } from './harness.ts';
import { startLibraryBrowser, type LibraryBrowser } from './library-harness.ts';

interface Album {
  id: string;
  name: string;
  artist?: string;
  artistId?: string;
  year?: number;
  songCount: number;
  duration: number;
  genre?: string;
  song?: Song[];
}
interface Song {
  id: string;
  title: string;
  path?: string;
  albumId?: string;
}

let lib: LibraryBrowser;
let page: Page;
const pageErrors: string[] = [];

const SORTS = [
  ['recently-added', 'newest'],
  ['recently-played', 'recent'],
  ['most-played', 'frequent'],
  ['a-z', 'alphabeticalByName'],
  ['artist-sort', 'alphabeticalByArtist'],
  ['less_cover', 'less_cover'],
] as const;

const notice = (title: string) => page.locator(`.bp6-toast [data-notice-title="${title}"]`).last();
const tiles = () => page.locator('[data-testid="album-grid"] .ts-cover-item');
const tileIds = () => tiles().evaluateAll((els) => els.map((e) => e.getAttribute('data-id') ?? ''));
const ROWS = '[data-testid="track-table"] tbody tr[data-id]';
const rowIds = () => page.locator(ROWS).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id') ?? ''));
const albumList = async (params: Record<string, string | number>) => (await lib.rest<{ albumList2: { album?: Album[] } }>('getAlbumList2', params)).albumList2.album ?? [];
const getAlbum = async (id: string) => (await lib.rest<{ album: Album }>('getAlbum', { id })).album;
const fileOf = (s: Song) => (path.isAbsolute(s.path!) ? s.path! : path.join(lib.home.media, s.path!));
const exists = (file: string) => access(file).then(() => true, () => false);
const mmss = (s: number) => `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
const shot = async (name: string) => {
  await page.waitForTimeout(400);
  return lib.shot(`albums-${name}`);
};

/** Scrolls the page's list to its bottom until its last batch came (the sentinel says done). */
async function scrollToEnd(): Promise<void> {
  const end = page.locator('[data-testid="list-end"]');
  await end.waitFor();
  for (let i = 0; i < 40 && (await end.getAttribute('data-done')) !== 'true'; i++) {
    await page.locator('.ts-main').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForTimeout(250);
  }
  await page.locator('[data-testid="list-end"][data-done="true"]').waitFor();
}

/** Waits for the list's last batch (the sentinel says done) and answers the tiles' ids. */
async function settledTiles(): Promise<string[]> {
  await page.locator('[data-testid="list-end"][data-done="true"]').waitFor();
  return tileIds();
}

const run = promisify(execFile);
/** Extra one-song albums, so the album list needs a second batch of 50 (the generated library has 16). */
const EXTRA_ALBUMS = 40;

/** Writes EXTRA_ALBUMS one-second mp3s, each its own album, and rescans. */
async function addAlbums(): Promise<void> {
  for (let i = 1; i <= EXTRA_ALBUMS; i++) {
    const n = String(i).padStart(2, '0');
    const dir = path.join(lib.home.media, 'lib', 'Batch Artist', `Batch ${n}`);
    await mkdir(dir, { recursive: true });
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=${300 + i * 10}:duration=1`, '-c:a', 'libmp3lame', '-b:a', '64k', '-metadata', `title=Batch Song ${n}`, '-metadata', 'artist=Batch Artist', '-metadata', `album=Batch ${n}`, path.join(dir, `01 Batch Song ${n}.mp3`)]);
  }
  const before = (await albumList({ type: 'newest', size: 500 })).length;
  await lib.rest('startScan');
  const deadline = Date.now() + 90_000;
  while ((await albumList({ type: 'newest', size: 500 })).length < before + EXTRA_ALBUMS || (await lib.rest<{ scanStatus: { scanning: boolean } }>('getScanStatus')).scanStatus.scanning) {
    if (Date.now() > deadline) throw new Error('the rescan did not list the extra albums within 90 s');
    await new Promise((r) => setTimeout(r, 300));
  }
}

beforeAll(async () => {
  lib = await startLibraryBrowser();
  page = lib.page;
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await addAlbums();
  // Plays for the play-based sorts: two albums, one played more (scrobbles are the admin's own, like the page's).
  const albums = await albumList({ type: 'alphabeticalByName', size: 500 });
  const [first, second] = [await getAlbum(albums[0]!.id), await getAlbum(albums[1]!.id)];
  for (const id of [first.song![0]!.id, first.song![0]!.id, second.song![0]!.id]) await lib.rest('scrobble', { id, submission: 'true' });
}, 240_000);

afterAll(async () => {
  await lib?.close();
});

describe('albums list', () => {
  it('each of the six sorts lists getAlbumList2 of its type, in order', async () => {
    for (const [sort, type] of SORTS) {
      await lib.open(`/albums/${sort}/`, 'albums-page');
      const expected = (await albumList({ type, size: 50 })).map((a) => a.id);
      await expect.poll(async () => (await tileIds()).slice(0, 50).join(), { message: sort }).toBe(expected.join());
      const shown = (await tileIds()).slice(0, 50);
      if (sort === 'recently-played' || sort === 'most-played') expect(shown.length, sort).toBe(2);
      else expect(shown.length, sort).toBeGreaterThan(3);
      await expect.poll(() => page.locator(`.ts-sort-tab[data-sort="${sort}"]`).getAttribute('aria-current')).toBe('page');
    }
    await lib.open('/albums/a-z/', 'albums-page');
    await tiles().nth(20).waitFor();
    await shot('list-grid-light');
  });

  it('a tile’s heart stars the album, its hover play button plays it', async () => {
    await lib.open('/albums/a-z/', 'albums-page');
    const album = await pickAlbum();
    const tile = page.locator(`[data-testid="album-grid"] .ts-cover-item[data-id="${album.id}"]`);
    const starredAlbums = async () => ((await lib.rest<{ starred2: { album?: Album[] } }>('getStarred2')).starred2.album ?? []).map((a) => a.id);
    await tile.locator('.ts-cover-heart').click();
    await expect.poll(starredAlbums).toContain(album.id);
    await tile.locator('.ts-cover-heart').click();
    await expect.poll(starredAlbums).not.toContain(album.id);
    await tile.hover();
    await tile.locator('.ts-cover-play').click();
    await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('queue') ?? '[]').map((t: { id: string }) => t.id))).toEqual(album.song!.map((s) => s.id));
    await page.evaluate(() => document.querySelector('audio')?.pause());
  });

  it('an unknown sort goes to recently-added', async () => {
    await lib.open('/albums/loudest/', 'albums-page');
    await page.waitForURL(/\/albums\/recently-added\/$/);
  });

  it('grid ↔ list, and the choice survives a reload', async () => {
    await lib.open('/albums/a-z/', 'albums-page');
    await tiles().first().waitFor();
    await page.getByTestId('view-list').click();
    await expect.poll(() => page.getByTestId('album-grid').getAttribute('data-mode')).toBe('list');
    await shot('list-rows-light');
    await page.reload();
    await page.getByTestId('album-grid').waitFor();
    expect(await page.getByTestId('album-grid').getAttribute('data-mode')).toBe('list');
    await page.getByTestId('view-grid').click();
    await expect.poll(() => page.getByTestId('album-grid').getAttribute('data-mode')).toBe('grid');
  });

  it('loads the next 50 within 50 px of the bottom, stops after the short page; back to top after 700 px', async () => {
    const total = (await albumList({ type: 'newest', size: 500 })).length;
    expect(total).toBeGreaterThan(50);
    const asked: { offset: number; size: number }[] = [];
    const listen = (req: { url(): string }) => {
      const u = new URL(req.url());
      if (u.pathname.startsWith('/rest/getAlbumList2')) asked.push({ offset: Number(u.searchParams.get('offset')), size: Number(u.searchParams.get('size')) });
    };
    page.on('request', listen);
    await lib.open('/albums/recently-added/', 'albums-page');
    await expect.poll(() => tiles().count()).toBe(50);
    const main = page.locator('.ts-main');
    // Short of the bottom nothing more is asked; no back-to-top yet.
    await main.evaluate((el) => el.scrollTo(0, 300));
    await page.waitForTimeout(500);
    expect(asked).toEqual([{ offset: 0, size: 50 }]);
    expect(await page.getByTestId('back-to-top').count()).toBe(0);
    await main.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => tiles().count()).toBe(total);
    const shown = await settledTiles();
    expect(shown).toEqual((await albumList({ type: 'newest', size: 500 })).map((a) => a.id));
    // The bottom again: a finished list stays finished.
    await main.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForTimeout(600);
    page.off('request', listen);
    const batches = Math.floor(total / 50) + 1;
    expect(asked).toEqual(Array.from({ length: batches }, (_, i) => ({ offset: i * 50, size: 50 })));
    await page.getByTestId('back-to-top').waitFor();
    await shot('list-scrolled-light');
    await page.getByTestId('back-to-top').click();
    await expect.poll(() => main.evaluate((el) => el.scrollTop)).toBe(0);
    await expect.poll(() => page.getByTestId('back-to-top').count()).toBe(0);
  });

  it('the header search narrows the list to getAlbumList2 type=search (30 per batch)', async () => {
    const albums = await albumList({ type: 'alphabeticalByName', size: 500 });
    const target = albums.find((a) => /^[\p{L}\p{N} ]{3,}$/u.test(a.name)) ?? albums[0]!;
    const term = target.name.slice(0, Math.min(4, target.name.length)).trim();
    await lib.open('/albums/a-z/', 'albums-page');
    await tiles().first().waitFor();
    await page.getByRole('button', { name: /搜索|Search/ }).first().click();
    await page.locator('.ts-search input').fill(term);
    await expect.poll(() => page.getByTestId('albums-page').getAttribute('data-search')).toBe(term);
    const expected = (await albumList({ type: 'search', search: term, size: 30 })).map((a) => a.id);
    await expect.poll(async () => (await page.locator('[data-testid="list-end"]').getAttribute('data-done')) === 'true' && (await tileIds()).join()).toBe(expected.join());
    expect(expected).toContain(target.id);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('albums-page').getAttribute('data-search')).toBe('');
  });
});

describe('album detail', () => {
  it('shows getAlbum’s fields and its tracks; the sort tabs lead back', async () => {
    const [a] = await albumList({ type: 'alphabeticalByName', size: 1 });
    const album = await getAlbum(a!.id);
    await lib.open(`/album/id/${encodeURIComponent(album.id)}`, 'album-page');
    await expect.poll(() => page.getByTestId('album-name').textContent()).toBe(album.name);
    // The heart stars and unstars the album.
    const starred = async () => ((await lib.rest<{ starred2: { album?: Album[] } }>('getStarred2')).starred2.album ?? []).map((x) => x.id);
    await page.getByTestId('album-favourite').click();
    await expect.poll(starred).toContain(album.id);
    await page.getByTestId('album-favourite').click();
    await expect.poll(starred).not.toContain(album.id);
    expect(await page.getByTestId('album-artist').textContent()).toBe(album.artist);
    expect(await page.getByTestId('album-year').textContent()).toBe(album.year ? String(album.year) : '—');
    expect(await page.getByTestId('album-count').textContent()).toBe(String(album.songCount));
    expect(await page.getByTestId('album-duration').textContent()).toBe(mmss(album.duration));
    if (album.genre) expect(await page.getByTestId('album-genres').textContent()).toContain(album.genre);
    expect(await rowIds()).toEqual(album.song!.map((s) => s.id));
    await shot('detail-light');
  });
});

describe('tracks', () => {
  it('each tab lists /rest getSongList of its order', async () => {
    for (const sort of ['recently-added', 'recently-played', 'most-played', 'a-z']) {
      await lib.open(`/tracks/${sort}/`, 'tracks-page');
      await scrollToEnd();
      const expected = ((await lib.rest<{ songList: { song?: Song[] } }>('getSongList', { type: sort, size: 500 })).songList.song ?? []).map((s) => s.id);
      expect((await rowIds()).length, sort).toBe(expected.length);
      expect(await rowIds(), sort).toEqual(expected);
    }
    await lib.open('/tracks/a-z/', 'tracks-page');
    await page.locator(ROWS).nth(20).waitFor();
    await shot('tracks-light');
  });
});

/** Files under `dir` (recursively) whose name is one of `names`. */
async function findFiles(dir: string, names: Set<string>): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile() && names.has(e.name)) out.push(path.join(e.parentPath, e.name));
  return out;
}

/** A real album (named, more than one track) other than `except`. */
async function pickAlbum(except: string[] = []): Promise<Album> {
  for (const a of await albumList({ type: 'alphabeticalByName', size: 500 })) {
    if (a.name.startsWith('[') || except.includes(a.id) || a.songCount < 2) continue;
    const album = await getAlbum(a.id);
    if (album.song!.every((s) => s.path && /\.(mp3|flac)$/i.test(s.path))) return album;
  }
  throw new Error('no album to edit');
}

let edited = '';

describe('track table actions', () => {
  it('the star toggles the song’s favourite in /rest; add to playlist; delete (keep the file) takes it out of the library only', async () => {
    await lib.open('/tracks/a-z/', 'tracks-page');
    const row = page.locator(ROWS).filter({ hasText: 'Batch Song 40' });
    const id = (await row.getAttribute('data-id'))!;
    const file = path.join(lib.home.media, 'lib', 'Batch Artist', 'Batch 40', '01 Batch Song 40.mp3');
    const starredIds = async () => ((await lib.rest<{ starred2: { song?: Song[] } }>('getStarred2')).starred2.song ?? []).map((s) => s.id);
    await row.locator('[data-action="star"]').click();
    await expect.poll(starredIds).toContain(id);
    expect(await row.locator('[data-action="star"]').getAttribute('aria-pressed')).toBe('true');
    await row.locator('[data-action="star"]').click();
    await expect.poll(starredIds).not.toContain(id);
    // Add to playlist (the playlists screens' button in the table's actions slot).
    const created = await lib.rest<{ playlist: { id: string } }>('createPlaylist', { name: 'Albums test list' });
    await row.locator('[data-action="add-to-playlist"]').click();
    await page.locator(`[data-testid="add-to-playlist-menu"] [data-playlist="${created.playlist.id}"]`).click();
    await expect.poll(async () => ((await lib.rest<{ playlist: { entry?: Song[] } }>('getPlaylist', { id: created.playlist.id })).playlist.entry ?? []).map((e) => e.id)).toEqual([id]);
    await page.keyboard.press('Escape');
    await row.locator('[data-action="delete"]').click();
    await page.getByRole('dialog').getByText('仅从音乐库移除（保留文件）').click();
    await shot('delete-track-dialog-light');
    await page.getByTestId('confirm-delete-track').click();
    await notice('删除成功！').waitFor();
    await expect.poll(() => page.locator(`${ROWS}[data-id="${id}"]`).count()).toBe(0);
    await expect.poll(async () => ((await lib.rest<{ songList: { song?: Song[] } }>('getSongList', { type: 'a-z', size: 500 })).songList.song ?? []).some((s) => s.id === id), { timeout: 30_000 }).toBe(false);
    expect(await exists(file)).toBe(true);
  });
});

describe('tracks search', () => {
  it('the header search term replaces the list with the matching songs', async () => {
    await lib.open('/tracks/recently-added/', 'tracks-page');
    await page.locator(ROWS).first().waitFor();
    await page.getByRole('button', { name: /搜索|Search/ }).first().click();
    await page.locator('.ts-search input').fill('Batch Song 0');
    await expect.poll(() => page.getByTestId('tracks-page').getAttribute('data-search')).toBe('Batch Song 0');
    const expected = ((await lib.rest<{ songList: { song?: Song[] } }>('getSongList', { type: 'recently-added', search: 'Batch Song 0', size: 500 })).songList.song ?? []).map((s) => s.id);
    // Every word must occur: Batch Song 01–09, 10, 20, 30 (40 was taken out of the library above).
    expect(expected).toHaveLength(12);
    await expect.poll(async () => (await rowIds()).join()).toBe(expected.join());
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('tracks-page').getAttribute('data-search')).toBe('');
  });
});

describe('album actions', () => {
  it('PLAY hands the album to the player and the audio runs', async () => {
    const album = await pickAlbum();
    await lib.open(`/album/id/${encodeURIComponent(album.id)}`, 'album-page');
    await page.getByTestId('album-play').click();
    await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('queue') ?? '[]').map((t: { id: string }) => t.id))).toEqual(album.song!.map((s) => s.id));
    await expect.poll(() => page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0), { timeout: 15_000 }).toBeGreaterThan(0.3);
    await page.evaluate(() => document.querySelector('audio')?.pause());
    // The row of the song the player is on is marked (the 5 s songs may have moved on meanwhile).
    const current = () => page.evaluate(() => JSON.parse(localStorage.getItem('queue') ?? '[]')[Number(localStorage.getItem('queueIndex') ?? 0)]?.id as string);
    await expect.poll(async () => (await page.locator(`${ROWS}[aria-current="true"]`).getAttribute('data-id')) === (await current())).toBe(true);
    await shot('detail-playing-light');
  });

  it('EDIT with write to metadata: a task writes the new name into every file; undo_task brings the old one back', async () => {
    const album = await pickAlbum();
    edited = album.id;
    const files = album.song!.map(fileOf);
    const renamed = `${album.name} (Deluxe)`;
    await lib.open(`/album/id/${encodeURIComponent(album.id)}`, 'album-page');
    await page.getByTestId('album-edit').click();
    // The drawer slides in: under load a click landed while its checkbox was still outside the window.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await page.getByTestId('album-edit-name').fill(renamed);
    await page.getByTestId('album-edit-write').check({ force: true });
    await shot('edit-drawer-light');
    const answer = page.waitForResponse((r) => r.url().includes('/apimt/post_album/'));
    await page.getByTestId('album-edit-save').click();
    const posted = (await (await answer).json()) as { result: boolean; data: { id: string; task_id: string | null } };
    expect(posted.result).toBe(true);
    expect(posted.data.task_id).toBeTruthy();
    await notice('修改成功！').waitFor();
    await expect(page.locator('.bp6-toast').getByText('查看任务')).toBeTruthy();
    await expect.poll(() => page.getByTestId('album-edit-drawer').count()).toBe(0);
    // The page follows the library to the album's new id and name.
    await expect.poll(() => page.getByTestId('album-name').textContent(), { timeout: 40_000 }).toBe(renamed);
    expect(page.url()).toContain(`/album/id/${encodeURIComponent(posted.data.id)}`);
    for (const f of files) expect((await ffprobe(f)).tags.album, f).toBe(renamed);
    const undo = await lib.api<{ task_id?: string }>('/apimt/undo_task/', { task_id: posted.data.task_id });
    expect(undo.result, undo.message).toBe(true);
    await expect.poll(async () => (await Promise.all(files.map(async (f) => (await ffprobe(f)).tags.album))).every((a) => a === album.name), { timeout: 40_000 }).toBe(true);
    // The library follows the undo too: the album is back under its old id, the renamed one gone.
    await expect.poll(async () => (await albumList({ type: 'alphabeticalByName', size: 500 })).map((a) => a.id).includes(posted.data.id), { timeout: 30_000 }).toBe(false);
    await expect.poll(async () => (await lib.rest<{ album?: Album }>('getAlbum', { id: album.id })).album?.name, { timeout: 30_000 }).toBe(album.name);
  });

  it('EDIT cover: a file over 5 MB is refused before upload; a picture saved without metadata becomes the album’s cover, files untouched', async () => {
    const album = await pickAlbum([edited]);
    const files = album.song!.map(fileOf);
    const tagsBefore = await Promise.all(files.map(async (f) => (await ffprobe(f)).tags));
    const coverBytes = async () => Buffer.from(await (await page.request.get(await page.getByTestId('album-cover').getAttribute('src').then((src) => `${lib.server.base}${src}`))).body()).toString('base64');
    await lib.open(`/album/id/${encodeURIComponent(album.id)}`, 'album-page');
    const before = await coverBytes();
    const srcBefore = await page.getByTestId('album-cover').getAttribute('src');
    await page.getByTestId('album-edit').click();
    const uploads: string[] = [];
    page.on('request', (r) => r.url().includes('/apimt/upload_image/') && uploads.push(r.url()));
    await page.getByTestId('album-cover-file').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
    await page.locator('.bp6-toast').filter({ hasText: '图片不能超过 5 MB' }).waitFor();
    expect(uploads).toEqual([]);
    const picture = path.join(lib.home.home, 'new-cover.png');
    await makePicture(picture, 320, 320, 'orange');
    await page.getByTestId('album-cover-file').setInputFiles(picture);
    await expect.poll(() => page.getByTestId('album-edit-cover').getAttribute('src')).toContain('/');
    await expect.poll(() => uploads.length).toBe(1);
    await shot('edit-cover-light');
    const answer = page.waitForResponse((r) => r.url().includes('/apimt/post_album/'));
    await page.getByTestId('album-edit-save').click();
    const posted = (await (await answer).json()) as { result: boolean; data: { id: string; task_id: string | null } };
    expect(posted).toMatchObject({ result: true, data: { id: album.id, task_id: null } });
    await notice('修改成功！').waitFor();
    // The page shows the new picture under a new URL (the old one may sit in the browser's cache for a day).
    await expect.poll(() => page.getByTestId('album-cover').getAttribute('src')).not.toBe(srcBefore);
    await expect.poll(coverBytes).not.toBe(before);
    await expect.poll(() => page.getByTestId('album-cover').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    // Without "write to metadata" the files keep their tags.
    expect(await Promise.all(files.map(async (f) => (await ffprobe(f)).tags))).toEqual(tagsBefore);
  });

  it('DELETE counts the files, moves them to the trash and goes to recently-added; undo brings them back', async () => {
    const album = await pickAlbum([edited]);
    const files = album.song!.map(fileOf);
    await lib.open(`/album/id/${encodeURIComponent(album.id)}`, 'album-page');
    await page.getByTestId('album-delete').click();
    await expect.poll(() => page.getByTestId('album-delete-count').textContent()).toContain(String(files.length));
    await shot('delete-dialog-light');
    const answer = page.waitForResponse((r) => r.url().includes('/apimt/delete_album/') && r.request().postDataJSON()?.dry_run !== true);
    await page.getByTestId('confirm-delete-album').click();
    const deleted = (await (await answer).json()) as { result: boolean; data: { task_id: string; total: number } };
    expect(deleted.result).toBe(true);
    expect(deleted.data.total).toBe(files.length);
    await page.waitForURL(/\/albums\/recently-added\/$/);
    await expect.poll(async () => (await Promise.all(files.map(exists))).some(Boolean), { timeout: 30_000 }).toBe(false);
    const trashed = await findFiles(lib.home.media, new Set(files.map((f) => path.basename(f))));
    expect(trashed.filter((f) => f.includes(`${path.sep}.tagsonic-trash${path.sep}`))).toHaveLength(files.length);
    // Undo once the task has finished (it rescans the root after the move).
    await expect.poll(async () => (await lib.api('/apimt/undo_task/', { task_id: deleted.data.task_id })).result, { timeout: 30_000, interval: 500 }).toBe(true);
    await expect.poll(async () => (await Promise.all(files.map(exists))).every(Boolean), { timeout: 30_000 }).toBe(true);
  });
});

describe('looks', () => {
  it('dark theme and a 390×844 phone', async () => {
    const album = await pickAlbum();
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await lib.open('/albums/recently-added/', 'albums-page');
    await tiles().nth(20).waitFor();
    await shot('list-grid-dark');
    await lib.open(`/album/id/${encodeURIComponent(album.id)}`, 'album-page');
    await page.locator(ROWS).first().waitFor();
    await shot('detail-dark');
    await page.evaluate(() => localStorage.setItem('theme', 'light'));
    const phone = await newContext(lib.browser, { width: 390, height: 844 });
    await phone.addCookies(await lib.context.cookies());
    const small = await phone.newPage();
    small.on('pageerror', (e) => pageErrors.push(String(e)));
    for (const [name, url, ready] of [
      ['phone-list', '/albums/recently-added/', '[data-testid="album-grid"] .ts-cover-item'],
      ['phone-detail', `/album/id/${encodeURIComponent(album.id)}`, ROWS],
      ['phone-tracks', '/tracks/recently-added/', ROWS],
    ] as const) {
      await small.goto(`${lib.server.base}${url}`);
      await small.locator(ready).first().waitFor();
      await small.waitForTimeout(400);
      await small.screenshot({ path: path.join(SCREENSHOTS, `albums-${name}.png`) });
    }
    await phone.close();
  });
});

describe('no streaming password (§8)', () => {
  it('the album list says 查询失败！ with the admin link, then goes to /login', async () => {
    const csrf = (await lib.context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
    const cleared = await page.request.delete(`${lib.server.base}/apimt/admin/users/admin/subsonic_password/`, { headers: { 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' } });
    expect(cleared.ok()).toBe(true);
    await page.goto(`${lib.server.base}/albums/recently-added/`);
    await notice('查询失败！').waitFor();
    const toast = page.locator('.bp6-toast').filter({ hasText: '请在后台管理创建一个subsonic密码，刷新页面试试吧' });
    await toast.waitFor();
    await page.waitForURL(/\/login$/);
    await page.waitForTimeout(300);
    await lib.shot('albums-no-password');
    await toast.getByText('前往后台管理').click();
    await page.waitForURL(/\/admin/);
  });
});

describe('no page errors', () => {
  it('raised none', () => {
    expect(pageErrors).toEqual([]);
  });
});
