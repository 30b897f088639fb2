/**
 * /discover in chromium against a real server over the small generated library (startLibraryBrowser): after plays
 * (scrobbles) and a favourite, every section shows what the page's own getDiscover answer says — hot track, hot
 * artists, recommended and new albums, the featured album, 3 similar artists, recent plays — and the random table
 * shows the 8 songs getRandomSongs sent. Play buttons put the right songs in the player's queue (stored in
 * localStorage `queue`), the new-release heart stars and unstars the album in /rest, and a failing getDiscover
 * leaves every section empty with the failure logged (spec §8). Screenshots light, dark and phone (390×844) go to
 * test/browser/screenshots/discover-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { newContext } from './harness.ts';
import { startLibraryBrowser, type LibraryBrowser } from './library-harness.ts';

interface Song {
  id: string;
  title: string;
  artist?: string;
  artistId?: string;
  albumId?: string;
}
interface DiscoverAnswer {
  hot_artists: Array<{ id: string; name: string }>;
  hot_track: { id: string; name: string; play_count: number } | null;
  random_songs: Song[];
  recommend_albums: Array<{ id: string; name: string }>;
  new_albums: Array<{ id: string; name: string; favourite: boolean }>;
  album: { id: string; name: string; artists: Array<{ name: string }> } | null;
  similar_artists: Array<{ id: string; name: string }>;
  recent_plays: Array<Song & { played_at: string }>;
}

let lb: LibraryBrowser;
let page: Page;
/** Uncaught errors in the page fail the test that caused them. */
const pageErrors: string[] = [];
let hot: Song;
let second: Song;
let starredAlbum: string;

const restBody = async <T,>(res: Response): Promise<T> => ((await res.json()) as { 'subsonic-response': T })['subsonic-response'];
const texts = (selector: string) => page.locator(selector).allTextContents();
/** The player's stored queue and the id it is on (player-store persists both on every change). */
const playing = () =>
  page.evaluate(() => {
    const queue = JSON.parse(localStorage.getItem('queue') ?? '[]') as Array<{ id: string }>;
    const index = Number(localStorage.getItem('queueIndex') ?? 0);
    return { ids: queue.map((t) => t.id), current: queue[index]?.id };
  });

/** Waits until every image on screen has loaded (covers load lazily), so a screenshot shows them. */
async function imagesLoaded(p: Page = page): Promise<void> {
  await p.waitForFunction(() =>
    [...document.images].every((img) => {
      const r = img.getBoundingClientRect();
      const onScreen = r.bottom > 0 && r.top < innerHeight && r.width > 0;
      return !onScreen || img.complete;
    }),
  );
  await p.waitForTimeout(300);
}

/** Opens /discover and returns the getDiscover and getRandomSongs answers the page itself received. */
async function openDiscover(p: Page = page): Promise<{ discover: DiscoverAnswer; random: Song[] }> {
  // A first visit loads the whole dashboard: on a loaded 2-core machine that alone can take most of the 20 s default.
  const timeout = 60_000;
  const discover = p.waitForResponse((r) => r.url().includes('/rest/getDiscover'), { timeout });
  const random = p.waitForResponse((r) => r.url().includes('/rest/getRandomSongs'), { timeout });
  await p.goto(`${lb.server.base}/discover`, { timeout });
  const [d, r] = await Promise.all([discover, random]);
  await p.locator('[data-testid="discover-page"]:not([data-loading])').waitFor({ timeout });
  await p.locator('[data-testid="discover-random"] [data-testid="track-table"] tbody tr').first().waitFor({ timeout });
  return {
    discover: (await restBody<{ discover: DiscoverAnswer }>(d)).discover,
    random: (await restBody<{ randomSongs: { song: Song[] } }>(r)).randomSongs.song,
  };
}

beforeAll(async () => {
  lb = await startLibraryBrowser();
  page = lb.page;
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const songs = (await lb.rest<{ randomSongs: { song: Song[] } }>('getRandomSongs', { size: 100 })).randomSongs.song;
  // The hot track's artist seeds the similar artists: pick one that has some (shares a genre with others).
  const similarCount = async (artistId: string | undefined) =>
    artistId ? ((await lb.rest<{ artistInfo2?: { similarArtist?: unknown[] } }>('getArtistInfo2', { id: artistId, count: 3 })).artistInfo2?.similarArtist?.length ?? 0) : 0;
  let found: Song | undefined;
  for (const s of songs) if ((await similarCount(s.artistId)) >= 3) {
    found = s;
    break;
  }
  hot = found!;
  second = songs.find((s) => s.artistId !== hot.artistId && s.albumId !== hot.albumId)!;
  const now = Date.now();
  // The hot track: three plays; the other song played last, so it leads the recent plays.
  for (const [i, id] of [hot.id, hot.id, hot.id, second.id].entries()) {
    const r = await lb.rest('scrobble', { id, time: now - (10 - i) * 60_000, submission: 'true' });
    expect(r.status).toBe('ok');
  }
  const newest = (await lb.rest<{ albumList2: { album: Array<{ id: string }> } }>('getAlbumList2', { type: 'newest', size: 1 })).albumList2.album;
  starredAlbum = newest[0]!.id;
  expect((await lb.rest('star', { albumId: starredAlbum })).status).toBe('ok');
}, 240_000);

afterAll(async () => {
  await lb?.close();
});

describe('discover page', () => {
  it('shows in every section what getDiscover answered, and the 8 random songs', async () => {
    const { discover: d, random } = await openDiscover();
    // The server's answer is what the plays made it (the test's own expectations, not only the page's).
    expect(d.hot_track?.id).toBe(hot.id);
    expect(d.hot_track?.play_count).toBe(3);
    expect(d.recent_plays.slice(0, 2).map((s) => s.id)).toEqual([second.id, hot.id]);
    expect(d.new_albums.find((a) => a.id === starredAlbum)?.favourite).toBe(true);

    expect(await page.getByTestId('discover-hot-track-name').textContent()).toBe(d.hot_track!.name);
    expect(await page.getByTestId('discover-hot-track-plays').textContent()).toContain('3');
    expect(d.hot_artists.length).toBeGreaterThan(0);
    expect(await texts('[data-testid="discover-hot-artist-name"]')).toEqual(d.hot_artists.map((a) => a.name));

    expect(random).toHaveLength(8);
    const rows = page.locator('[data-testid="discover-random"] [data-testid="track-table"] tbody tr');
    expect(await rows.count()).toBe(8);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')))).toEqual(random.map((s) => s.id));
    expect(await texts('[data-testid="discover-random"] .ts-track-name')).toEqual(random.map((s) => s.title));

    expect(d.recommend_albums.length).toBeGreaterThan(0);
    expect(await texts('[data-testid="discover-recommend-grid"] .ts-cover-title')).toEqual(d.recommend_albums.map((a) => a.name));

    expect(await texts('[data-testid="discover-new-album-name"]')).toEqual(d.new_albums.map((a) => a.name));
    const heart = page.locator(`[data-testid="discover-new-album"][data-id="${starredAlbum}"] [data-testid="discover-new-album-favourite"]`);
    expect(await heart.getAttribute('aria-pressed')).toBe('true');

    expect(d.album).not.toBeNull();
    expect(await page.getByTestId('discover-featured-name').textContent()).toBe(d.album!.name);
    expect(await page.getByTestId('discover-featured-artists').textContent()).toBe(d.album!.artists.map((a) => a.name).join(' / '));

    expect(d.similar_artists.length).toBeGreaterThan(0);
    expect(await texts('[data-testid="discover-similar-artist-name"]')).toEqual(d.similar_artists.slice(0, 3).map((a) => a.name));

    expect(await texts('[data-testid="discover-recent-song-name"]')).toEqual(d.recent_plays.map((s) => s.title));
    await imagesLoaded();
    await lb.shot('discover-light');
    // The shell scrolls its main area, not the window: scroll whatever holds the page.
    await page.evaluate(() => {
      for (let el = document.querySelector<HTMLElement>('[data-testid="discover-page"]'); el; el = el.parentElement) el.scrollTop = el.scrollHeight;
      window.scrollTo(0, document.body.scrollHeight);
    });
    await imagesLoaded();
    await lb.shot('discover-light-bottom');
    expect(pageErrors).toEqual([]);
  });

  it('starts the player from the hot track, a random song, the featured album and a recent play', async () => {
    const { discover: d, random } = await openDiscover();
    await page.getByTestId('discover-hot-track-play').click();
    await expect.poll(playing).toEqual({ ids: [hot.id], current: hot.id });

    await page.locator(`[data-testid="discover-random"] tbody tr[data-id="${random[3]!.id}"] [data-action="play"]`).click();
    await expect.poll(async () => (await playing()).current).toBe(random[3]!.id);
    expect((await playing()).ids).toEqual(random.map((s) => s.id));
    // The playing row is marked.
    await page.locator(`[data-testid="discover-random"] tbody tr[data-id="${random[3]!.id}"][aria-current="true"]`).waitFor();

    const album = (await lb.rest<{ album: { song: Song[] } }>('getAlbum', { id: d.album!.id })).album.song;
    await page.getByTestId('discover-featured-play').click();
    await expect.poll(async () => (await playing()).ids).toEqual(album.map((s) => s.id));

    await page.locator('[data-testid="discover-recent-song"] button').nth(1).click();
    await expect.poll(playing).toEqual({ ids: d.recent_plays.map((s) => s.id), current: d.recent_plays[1]!.id });
    expect(pageErrors).toEqual([]);
  });

  it('the new-release heart stars and unstars the album in the library', async () => {
    await openDiscover();
    const heart = page.locator(`[data-testid="discover-new-album"][data-id="${starredAlbum}"] [data-testid="discover-new-album-favourite"]`);
    const starred = async () => ((await lb.rest<{ starred2: { album?: Array<{ id: string }> } }>('getStarred2')).starred2.album ?? []).some((a) => a.id === starredAlbum);
    await heart.click();
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('false');
    expect(await starred()).toBe(false);
    await heart.click();
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true');
    expect(await starred()).toBe(true);
  });

  it('a failing getDiscover is logged and leaves every section empty (§8); the random songs still come', async () => {
    const logged: string[] = [];
    const onConsole = (m: { type(): string; text(): string }) => {
      if (m.type() === 'error') logged.push(m.text());
    };
    page.on('console', onConsole);
    await page.route('**/rest/getDiscover**', (route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'boom' }));
    try {
      await page.goto(`${lb.server.base}/discover`);
      await page.locator('[data-testid="discover-page"]:not([data-loading])').waitFor();
      for (const id of ['discover-hot-artists', 'discover-recommend', 'discover-new-albums', 'discover-featured', 'discover-similar', 'discover-recent']) {
        expect(await page.getByTestId(id).getAttribute('data-empty')).toBe('true');
      }
      expect(await page.getByTestId('discover-hot-track-name').count()).toBe(0);
      await page.locator('[data-testid="discover-random"] tbody tr').nth(7).waitFor();
      expect(logged.some((l) => l.includes('getDiscover failed'))).toBe(true);
      expect(await page.locator('.bp6-toast').count()).toBe(0);
      await lb.shot('discover-failed');
    } finally {
      await page.unroute('**/rest/getDiscover**');
      page.off('console', onConsole);
    }
  });

  it('speaks English when the interface is English', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
    try {
      await openDiscover();
      expect(await page.getByTestId('discover-hot-track').textContent()).toContain('Hot track');
      expect(await page.getByTestId('discover-hot-track-plays').textContent()).toMatch(/^\d+ plays$/);
      expect(await page.locator('[data-testid="discover-page"] h3').allTextContents()).toEqual(
        expect.arrayContaining(['Hot artists', 'Random songs', 'Recommended albums', 'New releases', 'Featured album', 'Similar artists', 'Recently played']),
      );
    } finally {
      await page.evaluate(() => localStorage.setItem('lang', 'zh-CN'));
    }
  });

  it('dark theme and a phone: screenshots', async () => {
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await openDiscover();
    await imagesLoaded();
    await lb.shot('discover-dark');
    await page.evaluate(() => localStorage.setItem('theme', 'light'));

    const phone = await newContext(lb.browser, { width: 390, height: 844 });
    await phone.addCookies(await lb.context.cookies());
    const p = await phone.newPage();
    await openDiscover(p);
    await imagesLoaded(p);
    // Nothing wider than the screen: the page must not scroll sideways on a phone.
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await p.screenshot({ path: 'test/browser/screenshots/discover-phone.png' });
    await p.screenshot({ path: 'test/browser/screenshots/discover-phone-full.png', fullPage: true });
    await phone.close();
  });
});
