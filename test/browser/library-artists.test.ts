/**
 * The artists, artist detail, artist tracks, genres and genre detail screens (issue 13, spec doc 2 §2 Artists list /
 * Artist detail / Artist tracks / Genres list / Genre detail, §7 calls, §8 messages) in chromium against a real server
 * over the generated library: every artist sort and genre tab shows what /rest getArtists / getGenres answer, in
 * order, with their counts; the artist page agrees with getArtist, getArtistInfo2 and getTopSongs (top 5, latest 12
 * albums by year, similar artists, the description's full-text dialog); a starred artist shows in
 * /favourites/artists (and getStarred2); the edit drawer takes a kuwo suggestion (a local replay) and
 * 'save and update music metadata' renames the artist in the files (ffprobe), undone from the task; genre play
 * fills the player's queue with the genre's tracks; the genre cover drawer takes one of the genre's album covers;
 * deleting a genre takes it out of the files' tags (ffprobe) and undo_task puts it back. Screenshots (light/dark,
 * phone 390×844) in test/browser/screenshots/artists-*.
 */
import { execFile } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ffprobe, makePicture } from './harness.ts';
import { startLibraryBrowser, type LibraryBrowser } from './library-harness.ts';
import { sourceFake, type FakeAnswer } from '../support/source-fake.ts';

const run = promisify(execFile);

interface Artist {
  id: string;
  name: string;
  albumCount?: number;
  coverArt?: string;
  starred?: string;
}
interface Album {
  id: string;
  name: string;
  year?: number;
  songCount?: number;
  genre?: string;
  genres?: { name: string }[];
}
interface Song {
  id: string;
  title: string;
  path?: string;
  artist?: string;
  artistId?: string;
  genre?: string;
  genres?: { name: string }[];
}
interface Genre {
  value: string;
  albumCount: number;
  songCount: number;
  coverArt?: string;
}

let lib: LibraryBrowser;
let page: Page;
/** Uncaught errors in the page: any of them fails the run. */
const pageErrors: string[] = [];
let kuwoPicture: Buffer;

const KUWO_NAME = 'Kuwo Suggested Name';
const KUWO_BIO = '酷我的歌手介绍：出道于 2001 年的独立音乐人。';

/** Kuwo's artist search (ft=artist) and artistinfo, answering every name with one artist, and its picture. */
const kuwo = sourceFake('kuwo', (p, query): FakeAnswer => {
  if (p === '/star/starheads/500/77/known.jpg') return [200, 'image/jpeg', kuwoPicture];
  if (p !== '/r.s') return [404, 'text/html', 'not found'];
  if (query.get('stype') === 'artistinfo') return [200, 'application/json', { id: '77', name: KUWO_NAME, hts_pic: `${kuwo.baseUrl()}/star/starheads/240/77/known.jpg`, info: KUWO_BIO }];
  if (query.get('ft') === 'artist') {
    const abslist = [{ ARTIST: KUWO_NAME, AARTIST: '', ARTISTID: '77' }];
    return [200, 'application/json', { HIT: '1', HITMODE: 'artist', PN: '0', RN: '10', SHOW: '1', TOTAL: '1', abslist }];
  }
  return [404, 'text/html', 'not found'];
});

const notice = (title: string) => page.locator(`.bp6-toast [data-notice-title="${title}"]`).last();
const restArtists = async (type: string, search = '') =>
  ((await lib.rest<{ artists: { index?: { artist?: Artist[] }[] } }>('getArtists', { type, size: 500, offset: 0, ...(search ? { search } : {}) })).artists.index ?? []).flatMap((i) => i.artist ?? []);
const restGenres = async (type: string) => (await lib.rest<{ genres: { genre?: Genre[] } }>('getGenres', { type })).genres.genre ?? [];
const songsOfGenre = async (genre: string) => (await lib.rest<{ songsByGenre: { song?: Song[] } }>('getSongsByGenre', { genre, count: 500 })).songsByGenre.song ?? [];
/** The ids of a cover grid's tiles, in screen order. */
const tileIds = (testId: string) => page.locator(`[data-testid="${testId}"] .ts-cover-item`).evaluateAll((els) => els.map((e) => e.getAttribute('data-id') ?? ''));
const rowIds = (scope = 'body') =>
  page.locator(`${scope} [data-testid="track-table"] tbody tr`).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id') ?? r.getAttribute('data-song-id') ?? ''));
/** An absolute path of a song's file (/rest may give it relative to the media root). */
const fileOf = (s: Song) => (path.isAbsolute(s.path!) ? s.path! : path.join(lib.home.media, s.path!));
const genresIn = (tags: Record<string, string>) => (tags.genre ?? '').split(/\s*[;/]\s*/).filter(Boolean);

/** undo_task once the task has ended (its last items may still be running when the first file shows the edit). */
async function undo(taskId: string) {
  let answer = await lib.api('/apimt/undo_task/', { task_id: taskId });
  for (const deadline = Date.now() + 60_000; !answer.result && Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 500));
    answer = await lib.api('/apimt/undo_task/', { task_id: taskId });
  }
  expect(answer.result, answer.message).toBe(true);
}

/** The colours at 3 points of a cover of the library (getCoverArt, signed with the page's cookies), as [r, g, b]. */
const coverPixels = (id: string) =>
  page.evaluate(async (cover) => {
    const cookie = (name: string) => document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]*)`))?.[1] ?? '';
    const img = new Image();
    img.src = `/rest/getCoverArt.view?${new URLSearchParams({ id: cover, size: '64', u: decodeURIComponent(cookie('username')), t: cookie('hash'), s: cookie('salt'), v: '1.16.1', c: 'test', f: 'json' })}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = c.height = 16;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0, 16, 16);
    return [
      [4, 4],
      [8, 8],
      [12, 12],
    ].map(([x, y]) => Array.from(g.getImageData(x!, y!, 1, 1).data.slice(0, 3)));
  }, id);
const near = (a: number[][], b: number[][]) => a.every((p, i) => p.every((v, j) => Math.abs(v - b[i]![j]!) <= 24));

async function shots(name: string, ready: string) {
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme);
    await page.reload();
    await page.locator(ready).first().waitFor();
    await page.waitForTimeout(400);
    await lib.shot(`artists-${name}-${theme}`);
  }
  await page.evaluate(() => localStorage.setItem('theme', 'light'));
}

beforeAll(async () => {
  const file = path.join(process.env.TMPDIR ?? '/tmp', `kuwo-artist-${process.pid}.jpg`);
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=red:s=64x64', '-frames:v', '1', file]);
  kuwoPicture = await readFile(file);
  // The server (and the workers it starts) read the source's base URL from the environment.
  process.env.TAGSONIC_SOURCE_URL_KUWO = kuwo.baseUrl();
  lib = await startLibraryBrowser({ bigCount: 0 });
  page = lib.page;
  page.on('pageerror', (e) => pageErrors.push(String(e)));
}, 240_000);

afterAll(async () => {
  delete process.env.TAGSONIC_SOURCE_URL_KUWO;
  await lib?.close();
});

describe('artists screens', { timeout: 120_000 }, () => {
  it('each sort lists what getArtists answers, in order, with album counts; list mode; the search narrows the list', async () => {
    for (const sort of ['most-albums', 'a-z', 'less_cover']) {
      const expected = (await restArtists(sort)).slice(0, 50);
      await lib.open(`/artists/${sort}`, 'artists-page');
      if (expected.length === 0) {
        await page.locator('[data-testid=list-end][data-done=true]').waitFor();
        continue;
      }
      await expect.poll(() => tileIds('artists-grid')).toEqual(expected.map((a) => a.id));
      const first = page.locator(`[data-testid=artists-grid] .ts-cover-item[data-id="${expected[0]!.id}"]`);
      expect(await first.locator('.ts-cover-subtitle').textContent()).toContain(String(expected[0]!.albumCount ?? 0));
      expect(await page.locator('.ts-sort-tab.ts-active').getAttribute('data-sort')).toBe(sort);
    }
    await lib.open('/artists/most-albums', 'artists-page');
    await page.locator('[data-testid=artists-grid]').waitFor();
    await lib.shot('artists-list-grid');
    await page.getByTestId('view-list').click();
    expect(await page.getByTestId('artists-grid').getAttribute('data-mode')).toBe('list');
    // The choice is remembered (artistView), like the albums list's.
    await page.reload();
    await page.getByTestId('artists-grid').waitFor();
    expect(await page.getByTestId('artists-grid').getAttribute('data-mode')).toBe('list');
    await page.getByTestId('view-grid').click();
    expect(await page.getByTestId('artists-grid').getAttribute('data-mode')).toBe('grid');

    // A search term: the list becomes getArtists' answer for it once typing has paused (500 ms).
    const all = await restArtists('most-albums');
    const term = all.find((a) => /[a-z]{3}/i.test(a.name))!.name.match(/[a-z]{3}/i)![0];
    const found = await restArtists('most-albums', term);
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThan(all.length);
    // Typed a key every 100 ms: one getArtists search, for the whole term, 500 ms after the last key (§9).
    const searches: string[] = [];
    const seen = (r: { url: () => string }) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/rest/getArtists') && u.searchParams.has('search')) searches.push(u.searchParams.get('search')!);
    };
    page.on('request', seen);
    await page.getByRole('button', { name: /搜索|Search/ }).first().click();
    await page.locator('.ts-search input').pressSequentially(term, { delay: 100 });
    const typed = Date.now();
    await expect.poll(() => page.getByTestId('artists-page').getAttribute('data-search')).toBe(term);
    expect(Date.now() - typed).toBeGreaterThanOrEqual(400);
    await expect.poll(() => tileIds('artists-grid')).toEqual(found.slice(0, 50).map((a) => a.id));
    page.off('request', seen);
    expect(searches).toEqual([term]);
    await page.getByRole('button', { name: /搜索|Search/ }).first().click();
    await expect.poll(() => page.getByTestId('artists-page').getAttribute('data-search')).toBe('');
  });

  it('an artist tile’s play queues all of the artist’s tracks (getSongsByGenre artist_id)', async () => {
    const artist = (await restArtists('most-albums')).find((a) => a.name !== 'Various Artists')!;
    const songs = (await lib.rest<{ songsByGenre: { song?: Song[] } }>('getSongsByGenre', { artist_id: artist.id, count: 500, offset: 0 })).songsByGenre.song ?? [];
    expect(songs.length).toBeGreaterThan(0);
    await lib.open('/artists/most-albums', 'artists-page');
    const tile = page.locator(`[data-testid=artists-grid] .ts-cover-item[data-id="${artist.id}"]`);
    await tile.hover();
    await tile.locator('.ts-cover-play').click();
    await expect
      .poll(async () => new Set(((await page.evaluate(() => JSON.parse(localStorage.getItem('queue') ?? '[]'))) as { id: string }[]).map((t) => t.id)))
      .toEqual(new Set(songs.map((s) => s.id)));
  });

  let subject: Artist;

  it('the artist page shows getArtist, getArtistInfo2 and getTopSongs: counts, genres, top 5, latest 12 albums, similar artists', async () => {
    subject = (await restArtists('most-albums')).find((a) => a.name !== 'Various Artists')!;
    const detail = (await lib.rest<{ artist: Artist & { album?: Album[] } }>('getArtist', { id: subject.id })).artist;
    const info = (await lib.rest<{ artistInfo2: { biography?: string; similarArtist?: Artist[] } }>('getArtistInfo2', { id: subject.id })).artistInfo2;
    const top = (await lib.rest<{ topSongs: { song?: Song[] } }>('getTopSongs', { artist: subject.name, count: 50 })).topSongs.song ?? [];
    const albums = detail.album ?? [];

    await lib.open(`/artist/id/${subject.id}`, 'artist-page');
    await page.getByTestId('artist-name').waitFor();
    expect(await page.getByTestId('artist-name').textContent()).toBe(detail.name);
    expect(await page.getByTestId('artist-album-count').textContent()).toContain(String(detail.albumCount ?? albums.length));
    const tracks = albums.reduce((n, a) => n + (a.songCount ?? 0), 0);
    expect(await page.getByTestId('artist-track-count').textContent()).toContain(String(tracks));
    // Genres: every genre of its albums, each a link to the genre's page.
    const genres = new Set(albums.flatMap((a) => (a.genres?.length ? a.genres.map((g) => g.name) : a.genre ? [a.genre] : [])));
    const links = await page.locator('[data-testid=artist-genres] a').evaluateAll((as) => as.map((a) => [a.textContent ?? '', a.getAttribute('href') ?? '']));
    expect(new Set(links.map(([name]) => name))).toEqual(genres);
    for (const [name, href] of links) expect(decodeURIComponent(href!)).toBe(`/genre/id/${name}`);
    // Top tracks: the first 5 of getTopSongs, in order.
    expect(await rowIds('[data-testid=artist-top]')).toEqual(top.slice(0, 5).map((s) => s.id));
    // Latest albums: year descending, at most 12.
    const latest = [...albums].sort((a, b) => (b.year ?? -Infinity) - (a.year ?? -Infinity)).slice(0, 12);
    expect(await tileIds('artist-albums-grid')).toEqual(latest.map((a) => a.id));
    if (info.similarArtist?.length) expect(await tileIds('artist-similar-grid')).toEqual(info.similarArtist.map((a) => a.id));
    else expect(await page.getByTestId('artist-similar').count()).toBe(0);
    // 'view all' → the artist tracks page with the name in the query; its tracks tab is getSongsByGenre artist_id.
    await page.getByTestId('artist-view-all').click();
    await page.getByTestId('artist-tracks-page').waitFor();
    expect(decodeURIComponent(new URL(page.url()).search)).toBe(`?name=${detail.name}`);
    const own = (await lib.rest<{ songsByGenre: { song?: Song[] } }>('getSongsByGenre', { artist_id: subject.id, count: 50, offset: 0 })).songsByGenre.song ?? [];
    await expect.poll(() => rowIds()).toEqual(own.map((s) => s.id));
    await page.getByTestId('tab-albums').click();
    const byArtist = (await lib.rest<{ albumList2: { album?: Album[] } }>('getAlbumList2', { type: 'byArtist', artist_id: subject.id, size: 50, offset: 0 })).albumList2.album ?? [];
    await expect.poll(() => tileIds('entity-albums')).toEqual(byArtist.map((a) => a.id));
  });

  it('an unknown artist id says so on the page', async () => {
    await lib.open('/artist/id/ar-00000000000000000000', 'artist-page');
    await page.locator('[data-testid=artist-page] .bp6-non-ideal-state').getByText('查询失败！').waitFor();
    expect(await page.locator('.bp6-toast [data-notice-title="创建失败！"]').count()).toBe(0);
  });

  it('the description opens in a full-text dialog', async () => {
    const long = `${'这是一段很长的艺术家介绍。'.repeat(30)}\n最后一行。`;
    const saved = await lib.api('/apimt/post_artist/', { id: subject.id, description: long });
    expect(saved.result, saved.message).toBe(true);
    await lib.open(`/artist/id/${subject.id}`, 'artist-page');
    await page.getByTestId('artist-description').click();
    await page.getByTestId('artist-description-full').waitFor();
    expect(await page.getByTestId('artist-description-full').textContent()).toBe(long);
    await page.waitForTimeout(400);
    await lib.shot('artists-description-dialog');
    await page.keyboard.press('Escape');
    await page.getByTestId('artist-description-full').waitFor({ state: 'detached' });
  });

  it('starring the artist shows it in /favourites/artists and getStarred2', async () => {
    await lib.open(`/artist/id/${subject.id}`, 'artist-page');
    await page.getByTestId('artist-star').click();
    await expect.poll(async () => (await lib.rest<{ starred2: { artist?: Artist[] } }>('getStarred2', { type: 'artist', size: 30, offset: 0 })).starred2.artist?.map((a) => a.id) ?? []).toContain(subject.id);
    expect(await page.getByTestId('artist-star').getAttribute('aria-pressed')).toBe('true');
    await lib.open('/favourites/artists', 'favourites-page');
    await page.locator(`.ts-cover-item[data-id="${subject.id}"]`).waitFor();
    // And the list's heart shows it too.
    await lib.open('/artists/a-z', 'artists-page');
    await expect.poll(() => page.locator(`[data-testid=artists-grid] .ts-cover-item[data-id="${subject.id}"] .ts-cover-heart`).getAttribute('aria-pressed')).toBe('true');
  });

  it('edit: a kuwo suggestion fills the form; save and update music metadata renames the artist in the files; undo puts it back', async () => {
    const own = (await lib.rest<{ songsByGenre: { song?: Song[] } }>('getSongsByGenre', { artist_id: subject.id, count: 500, offset: 0 })).songsByGenre.song ?? [];
    const named = own.filter((s) => s.path && s.artist === subject.name);
    expect(named.length).toBeGreaterThan(0);
    for (const s of named) expect((await ffprobe(fileOf(s)).catch(() => ({ tags: { artist: subject.name } }))).tags.artist).toBe(subject.name);
    /** The files whose artist tag says `name` (the generated library has a truncated file a write may fail on). */
    const saying = async (name: string) => {
      const out: string[] = [];
      for (const s of named) if ((await ffprobe(fileOf(s)).catch(() => null))?.tags.artist === name) out.push(s.id);
      return out;
    };

    await lib.open(`/artist/id/${subject.id}`, 'artist-page');
    await page.getByTestId('artist-edit-open').click();
    const drawer = page.getByTestId('artist-edit');
    await drawer.getByTestId('artist-suggestions').waitFor();
    const suggestion = drawer.locator('.ts-entity-suggestion').first();
    await suggestion.locator('[data-part=name]').click();
    expect(await page.inputValue('#ts-artist-name')).toBe(KUWO_NAME);
    await suggestion.locator('[data-part=description]').click();
    expect(await page.inputValue('#ts-artist-description')).toBe(KUWO_BIO);
    await suggestion.locator('[data-part=image]').click();
    expect(await drawer.getByTestId('artist-cover-preview').getAttribute('src')).toContain('/star/starheads/');
    await lib.shot('artists-edit-drawer');

    const answer = page.waitForResponse((r) => r.url().includes('/apimt/post_artist/'));
    await drawer.getByTestId('artist-save-metadata').click();
    const body = (await (await answer).json()) as { result: boolean; message: string; data: { id: string; task_id: string | null } };
    expect(body.result, body.message).toBe(true);
    await notice('修改成功！').waitFor();
    expect(body.data.task_id).toBeTruthy();
    const taskId = body.data.task_id!;
    await expect.poll(async () => (await saying(KUWO_NAME)).length, { timeout: 60_000, interval: 500 }).toBeGreaterThan(0);
    const renamed = await saying(KUWO_NAME);
    // The page follows the artist to the id its new name gives.
    await page.waitForURL(`**/artist/id/${body.data.id}`, { timeout: 40_000 });
    await expect.poll(() => page.getByTestId('artist-name').textContent(), { timeout: 20_000 }).toBe(KUWO_NAME);
    // The biography moves to the new id once the task has ended and the library knows that id (the page may show the
    // new name a moment before).
    const biography = async () => (await lib.rest<{ artistInfo2: { biography?: string } }>('getArtistInfo2', { id: body.data.id })).artistInfo2.biography ?? '';
    await expect.poll(biography, { timeout: 20_000, interval: 300 }).toContain('酷我');

    await undo(taskId);
    await expect.poll(async () => (await saying(subject.name)).filter((id) => renamed.includes(id)), { timeout: 60_000, interval: 500 }).toEqual(renamed);
    await expect.poll(async () => (await lib.rest('getArtist', { id: subject.id })).status, { timeout: 30_000, interval: 500 }).toBe('ok');
  });

  it('edit: an uploaded picture and a new name saved without metadata are the library’s own — the files keep their tags', async () => {
    // The library follows the undone rename of the test before within a few seconds.
    const songsNamed = async () =>
      ((await lib.rest<{ songsByGenre: { song?: Song[] } }>('getSongsByGenre', { artist_id: subject.id, count: 500, offset: 0 })).songsByGenre.song ?? []).filter((s) => s.path && s.artist === subject.name && s.title !== 'Truncated');
    await expect.poll(async () => (await songsNamed()).length, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    const file = (await songsNamed())[0]!;
    const before = (await ffprobe(fileOf(file))).tags.artist;
    const picture = path.join(lib.home.home, 'artist-blue.png');
    await makePicture(picture, 320, 320, 'blue');

    await lib.open(`/artist/id/${subject.id}`, 'artist-page');
    await page.getByTestId('artist-edit-open').click();
    const drawer = page.getByTestId('artist-edit');
    const upload = page.waitForResponse((r) => r.url().includes('/apimt/upload_image/'));
    await drawer.getByTestId('artist-cover-file').setInputFiles(picture);
    expect((await upload).ok()).toBe(true);
    await expect.poll(() => drawer.getByTestId('artist-cover-preview').getAttribute('src')).not.toContain('getCoverArt');
    await page.fill('#ts-artist-name', 'Overlay Name');
    await drawer.getByTestId('artist-save').click();
    await notice('修改成功！').waitFor();
    await expect.poll(() => page.getByTestId('artist-name').textContent()).toBe('Overlay Name');
    expect((await lib.rest<{ artist: Artist }>('getArtist', { id: subject.id })).artist.name).toBe('Overlay Name');
    // The picture the artist's cover id now serves is the upload (blue), not the album cover it had.
    const cover = (await lib.rest<{ artist: Artist }>('getArtist', { id: subject.id })).artist.coverArt!;
    const [png] = await coverPixels(cover);
    expect(png![2]).toBeGreaterThan(180);
    expect(png![0]).toBeLessThan(80);
    // Files untouched.
    expect((await ffprobe(fileOf(file))).tags.artist).toBe(before);
    // Back to the tag's name for the tests after this one.
    expect((await lib.api('/apimt/post_artist/', { id: subject.id, name: subject.name })).result).toBe(true);
  });

  it('screens: artist page light and dark', async () => {
    await lib.open(`/artist/id/${subject.id}`, 'artist-page');
    await shots('detail', '[data-testid=artist-name]');
    await lib.open('/artists/most-albums', 'artists-page');
    await shots('list', '[data-testid=artists-grid]');
  });
});

describe('genres screens', { timeout: 120_000 }, () => {
  it('each tab lists what getGenres answers, in order, with album and track counts', async () => {
    for (const sort of ['a-z', 'most-albums', 'most-tracks']) {
      const expected = await restGenres(sort);
      expect(expected.length).toBeGreaterThan(1);
      await lib.open(`/genres/${sort}`, 'genres-page');
      await expect.poll(() => tileIds('genres-grid')).toEqual(expected.map((g) => g.value));
      for (const g of expected.slice(0, 3)) {
        const text = await page.locator(`[data-testid=genres-grid] .ts-cover-item[data-id="${g.value}"] .ts-cover-subtitle`).textContent();
        expect(text).toContain(String(g.albumCount));
        expect(text).toContain(String(g.songCount));
      }
    }
  });

  let genre: Genre;

  it('a genre tile’s play fills the player queue with the genre’s tracks (up to 100)', async () => {
    genre = (await restGenres('most-tracks'))[0]!;
    const songs = (await songsOfGenre(genre.value)).slice(0, 100);
    await lib.open('/genres/most-tracks', 'genres-page');
    const tile = page.locator(`[data-testid=genres-grid] .ts-cover-item[data-id="${genre.value}"]`);
    await tile.hover();
    await tile.locator('.ts-cover-play').click();
    await expect
      .poll(async () => new Set(((await page.evaluate(() => JSON.parse(localStorage.getItem('queue') ?? '[]'))) as { id: string }[]).map((t) => t.id)))
      .toEqual(new Set(songs.map((s) => s.id)));
  });

  it('the genre page: counts, album and track tabs agree with /rest; the cover drawer takes an album cover', async () => {
    await lib.open(`/genre/id/${encodeURIComponent(genre.value)}`, 'genre-page');
    await expect.poll(() => page.getByTestId('genre-track-count').textContent()).toContain(String(genre.songCount));
    expect(await page.getByTestId('genre-album-count').textContent()).toContain(String(genre.albumCount));
    const albums = (await lib.rest<{ albumList2: { album?: Album[] } }>('getAlbumList2', { type: 'byGenre', genre: genre.value, size: 50, offset: 0 })).albumList2.album ?? [];
    await expect.poll(() => tileIds('entity-albums')).toEqual(albums.map((a) => a.id));
    await page.getByTestId('tab-tracks').click();
    const songs = (await songsOfGenre(genre.value)).slice(0, 50);
    await expect.poll(() => rowIds()).toEqual(songs.map((s) => s.id));

    await page.getByTestId('genre-edit-open').click();
    const drawer = page.getByTestId('genre-edit');
    expect(await page.locator('#ts-genre-name').isDisabled()).toBe(true);
    expect(await page.inputValue('#ts-genre-name')).toBe(genre.value);
    const suggested = (await lib.api<{ coverArt: string }[]>(`/apimt/genre_playlist_cover/?id=${encodeURIComponent(genre.value)}`)).data;
    expect(suggested.length).toBeGreaterThan(0);
    await drawer.getByTestId('genre-suggestions').waitFor();
    expect(await drawer.locator('.ts-entity-cover-suggestion').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-cover')))).toEqual(suggested.map((s) => s.coverArt));
    // The last suggestion, so the picture is not simply the genre's first album cover.
    const chosen = suggested[suggested.length - 1]!.coverArt;
    await drawer.locator(`.ts-entity-cover-suggestion[data-cover="${chosen}"]`).click();
    await expect.poll(() => drawer.getByTestId('genre-cover-preview').getAttribute('src')).toContain(`id=${chosen}`);
    await lib.shot('artists-genre-drawer');
    const saved = page.waitForRequest((r) => r.url().includes('/apimt/post_genre/'));
    await drawer.getByTestId('genre-save').click();
    expect((await saved).postDataJSON()).toEqual({ id: genre.value, genre_img: chosen });
    await notice('修改成功！').waitFor();
    await expect.poll(async () => (await restGenres('a-z')).find((g) => g.value === genre.value)?.coverArt).toMatch(/^ge-/);
    const own = (await restGenres('a-z')).find((g) => g.value === genre.value)!.coverArt!;
    await expect.poll(() => page.getByTestId('genre-cover').getAttribute('src')).toContain(`id=${own}`);
    // The genre's picture is that album's cover.
    expect(near(await coverPixels(own), await coverPixels(chosen))).toBe(true);
  });

  it('deleting a genre takes it out of its tracks’ tags and goes to /genres/a-z/; undo_task puts it back', async () => {
    // A genre of few tracks keeps the task short.
    const few = (await restGenres('a-z')).filter((g) => g.songCount > 0).sort((a, b) => a.songCount - b.songCount)[0]!;
    const songs = await songsOfGenre(few.value);
    const sample = songs.find((s) => s.path)!;
    expect(genresIn((await ffprobe(fileOf(sample))).tags)).toContain(few.value);

    await lib.open(`/genre/id/${encodeURIComponent(few.value)}`, 'genre-page');
    await page.getByTestId('genre-delete-open').click();
    await page.getByTestId('entity-delete-body').waitFor();
    expect(await page.getByTestId('entity-delete-body').textContent()).toContain(String(few.songCount));
    await page.waitForTimeout(400);
    await lib.shot('artists-genre-delete');
    const answer = page.waitForResponse((r) => r.url().includes('/apimt/delete_genre/'));
    await page.getByTestId('confirm-entity-delete').click();
    const body = (await (await answer).json()) as { result: boolean; message: string; data: { task_id: string } };
    expect(body.result, body.message).toBe(true);
    await notice('删除成功！').waitFor();
    await page.waitForURL('**/genres/a-z/');
    await expect.poll(async () => genresIn((await ffprobe(fileOf(sample))).tags), { timeout: 60_000, interval: 500 }).not.toContain(few.value);

    await undo(body.data.task_id);
    await expect.poll(async () => genresIn((await ffprobe(fileOf(sample))).tags), { timeout: 60_000, interval: 500 }).toContain(few.value);
  });

  it('phone 390×844: artists, artist, artist tracks, genres, genre', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const artist = (await restArtists('most-albums')).find((a) => a.name !== 'Various Artists')!;
    const genreName = (await restGenres('most-tracks'))[0]!.value;
    const screens: [string, string, string][] = [
      ['phone-artists', '/artists/most-albums', '[data-testid=artists-grid]'],
      ['phone-artist', `/artist/id/${artist.id}`, '[data-testid=artist-name]'],
      ['phone-artist-tracks', `/artist/tracks/${artist.id}?name=${encodeURIComponent(artist.name)}`, '[data-testid=track-table]'],
      ['phone-genres', '/genres/a-z', '[data-testid=genres-grid]'],
      ['phone-genre', `/genre/id/${encodeURIComponent(genreName)}`, '[data-testid=entity-albums]'],
    ];
    for (const [name, url, ready] of screens) {
      await lib.open(url);
      await page.locator(ready).first().waitFor();
      await page.waitForTimeout(400);
      await lib.shot(`artists-${name}`);
      // Nothing wider than the phone: no sideways scrolling of the page itself.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    }
    await page.setViewportSize({ width: 1400, height: 860 });
    expect(pageErrors).toEqual([]);
  });
});

describe('artist delete', { timeout: 120_000 }, () => {
  it('DELETE says how many tracks go to the trash (dry run), moves them there and lands on /artists/most-albums; undo brings them back', async () => {
    // An artist of one album with a few tracks, none shared with another artist's albums.
    const candidates = (await restArtists('a-z')).filter((a) => a.albumCount === 1 && !['Various Artists', '[Unknown Artist]'].includes(a.name));
    let victim: Artist | undefined;
    let files: string[] = [];
    for (const a of candidates) {
      const dry = await lib.api<{ total: number; paths: string[] }>('/apimt/delete_artist/', { id: a.id, dry_run: true });
      if (dry.result && dry.data.total > 0) {
        victim = a;
        files = dry.data.paths;
        break;
      }
    }
    expect(victim).toBeTruthy();
    for (const f of files) await access(f);

    await lib.open(`/artist/id/${victim!.id}`, 'artist-page');
    await page.getByTestId('artist-delete-open').click();
    await expect.poll(() => page.getByTestId('entity-delete-body').textContent()).toContain(String(files.length));
    const answer = page.waitForResponse((r) => r.url().includes('/apimt/delete_artist/') && !(r.request().postData() ?? '').includes('dry_run'));
    await page.getByTestId('confirm-entity-delete').click();
    const body = (await (await answer).json()) as { result: boolean; message: string; data: { task_id: string; total: number } };
    expect(body.result, body.message).toBe(true);
    expect(body.data.total).toBe(files.length);
    await notice('删除成功！').waitFor();
    await page.waitForURL('**/artists/most-albums');
    const present = async () => Promise.all(files.map((f) => access(f).then(() => true, () => false)));
    const gone = async () => (await present()).every((p) => !p);
    await expect.poll(gone, { timeout: 60_000, interval: 500 }).toBe(true);
    await expect.poll(async () => (await restArtists('a-z')).some((a) => a.id === victim!.id), { timeout: 30_000, interval: 500 }).toBe(false);

    await undo(body.data.task_id);
    await expect.poll(async () => (await present()).every(Boolean), { timeout: 60_000, interval: 500 }).toBe(true);
  });
});
