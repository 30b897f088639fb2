/**
 * The player in chromium against a real server over the small generated library (startLibraryBrowser, 5 s
 * tracks): a queue stored under the spec's keys comes back after a reload in the bar, paused; play really
 * plays (/rest stream, currentTime advances) and scrobbles (getNowPlaying, playCount); next/previous and the
 * 3 s restart; the next track is preloaded and swapped in at a track end (the gap between A's `ended` and
 * B's `playing` is measured and printed); repeat off ends on the first track, paused; repeat on wraps and
 * plays; shuffle + random play keeps the chosen (first) song first; Media Session metadata (512×512 artwork)
 * and the document title follow the track; /playing highlights the synced lyric line of an .lrc track and
 * keeps it in view; /playing/id/:id. Screenshots: test/browser/screenshots/player-*.png (bar expanded and
 * collapsed, /playing light and dark, phone 390×844).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newContext } from './harness.ts';
import { startLibraryBrowser, type LibraryBrowser } from './library-harness.ts';

interface Song {
  id: string;
  title: string;
  artist?: string;
  artistId?: string;
  album?: string;
  albumId?: string;
  coverArt?: string;
  duration?: number;
  suffix?: string;
  playCount?: number;
}

let lb: LibraryBrowser;
let page: Page;
const pageErrors: string[] = [];
/** Songs chromium can decode (no AAC in its open build), at least 4, of more than one album. */
let songs: Song[] = [];
/** A playable song with synced lyrics, and its lines. */
let lyricSong: { song: Song; lines: { start: number; value: string }[] } | undefined;

const asTrack = (s: Song) => ({ id: s.id, title: s.title, artist: s.artist ?? '', artistId: s.artistId, album: s.album ?? '', albumId: s.albumId, coverArt: s.coverArt, duration: s.duration ?? 0 });

/** The audio element that is playing (or, when none plays, the one with the most time): src id, time, paused. */
const audio = () =>
  page.evaluate(() => {
    const els = [...document.querySelectorAll<HTMLAudioElement>('[data-testid=player-audio] audio')];
    const el = els.find((e) => !e.paused) ?? els.sort((a, b) => b.currentTime - a.currentTime)[0];
    if (!el) return null;
    return { id: new URL(el.src, location.href).searchParams.get('id'), time: el.currentTime, paused: el.paused, volume: el.volume, count: els.length };
  });
const stored = () =>
  page.evaluate(() => ({
    ids: (JSON.parse(localStorage.getItem('queue') ?? '[]') as { id: string }[]).map((t) => t.id),
    index: Number(localStorage.getItem('queueIndex') ?? 0),
  }));
const barTitle = () => page.getByTestId('player-title').textContent();
/** Waits until the playing element plays `id` and has passed `after` seconds. */
const playingPast = (id: string, after = 0.3) => expect.poll(async () => {
  const a = await audio();
  return a && a.id === id && !a.paused && a.time > after;
}, { timeout: 20_000 }).toBe(true);
/** Moves the bar's seek slider to a fraction of the track (a real input event on the range). */
const seekTo = (fraction: number) => page.getByTestId('player-seek').fill(String(fraction));

beforeAll(async () => {
  lb = await startLibraryBrowser({ bigCount: 10 });
  page = lb.page;
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const list = await lb.rest<{ albumList2: { album: { id: string }[] } }>('getAlbumList2', { type: 'alphabeticalByName', size: 100 });
  for (const album of list.albumList2.album) {
    const detail = await lb.rest<{ album: { song?: Song[] } }>('getAlbum', { id: album.id });
    for (const song of detail.album.song ?? []) {
      if (!['mp3', 'flac', 'ogg', 'opus'].includes(song.suffix ?? '')) continue;
      if ((song.duration ?? 0) < 3) continue;
      songs.push(song);
      if (!lyricSong) {
        const lyr = await lb.rest<{ lyricsList: { structuredLyrics: { synced: boolean; line: { start: number; value: string }[] }[] } }>('getLyricsBySongId', { id: song.id });
        const synced = lyr.lyricsList.structuredLyrics.find((l) => l.synced && l.line.length >= 3);
        if (synced) lyricSong = { song, lines: synced.line };
      }
    }
  }
  songs = songs.slice(0, 6);
}, 240_000);

afterAll(async () => {
  await lb?.close();
});

describe('player', () => {
  it('a stored queue comes back in the bar, paused; play really plays and scrobbles', async () => {
    expect(songs.length).toBeGreaterThanOrEqual(4);
    // Nothing queued: no bar, and /playing says so with a way to the albums.
    await lb.open('/playing', 'playing-page');
    const empty = page.getByTestId('playing-page');
    expect(await empty.getByText('暂无播放', { exact: true }).count()).toBe(1);
    expect(await empty.locator('a[href="/albums/recently-added/"]').count()).toBe(1);
    expect(await page.getByTestId('player-bar').count()).toBe(0);
    const queue = songs.slice(0, 4).map(asTrack);
    await page.evaluate((q) => {
      localStorage.setItem('queue', JSON.stringify(q));
      localStorage.setItem('queueIndex', '0');
      localStorage.removeItem('player.repeat');
      localStorage.removeItem('player.shuffle');
      localStorage.removeItem('isOpenBar');
    }, queue);
    await lb.open('/', 'player-bar');
    expect(await barTitle()).toBe(songs[0].title);
    expect((await audio())?.paused).toBe(true);
    expect(await page.getByTestId('player-repeat').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('player-shuffle').getAttribute('aria-pressed')).toBe('false');
    const before = (await lb.rest<{ song: Song }>('getSong', { id: songs[0].id })).song.playCount ?? 0;

    await page.getByTestId('player-toggle').click();
    await playingPast(songs[0].id, 0.5);
    // Scrobbled on start: the play count rose and getNowPlaying names the song.
    await expect.poll(async () => (await lb.rest<{ song: Song }>('getSong', { id: songs[0].id })).song.playCount ?? 0).toBe(before + 1);
    const now = await lb.rest<{ nowPlaying: { entry?: { id: string }[] } }>('getNowPlaying');
    expect(now.nowPlaying.entry?.map((e) => e.id)).toContain(songs[0].id);
    // The bar's clock moves (mm:ss) and the duration is the track's.
    await expect.poll(() => page.getByTestId('player-duration').textContent()).toMatch(/^00:0[3-9]$/);

    // Media Session and the tab title follow the track.
    const session = await page.evaluate(() => {
      const m = navigator.mediaSession.metadata;
      return m && { title: m.title, artist: m.artist, album: m.album, sizes: m.artwork[0]?.sizes, src: m.artwork[0]?.src };
    });
    expect(session).toMatchObject({ title: songs[0].title, artist: songs[0].artist, album: songs[0].album, sizes: '512x512' });
    expect(session?.src).toContain('size=512');
    expect(await page.title()).toBe(`${songs[0].title} - ${songs[0].artist}`);
    await lb.shot('player-bar-expanded');
  });

  it('pause and resume fade over 200 ms in 10 ms steps, a seek over half; volume and favourite', async () => {
    await seekTo(0);
    await playingPast(songs[0].id, 0.1);
    /** Samples the playing element's volume every 2 ms while `act` runs, for `ms`. */
    const sample = async (act: () => Promise<unknown>, ms: number) => {
      await page.evaluate(() => {
        const w = window as unknown as { samples: { at: number; volume: number; paused: boolean }[]; sampler: number };
        const els = [...document.querySelectorAll<HTMLAudioElement>('[data-testid=player-audio] audio')];
        const el = els.find((e) => !e.paused) ?? els[0];
        const start = performance.now();
        w.samples = [];
        w.sampler = window.setInterval(() => w.samples.push({ at: performance.now() - start, volume: el.volume, paused: el.paused }), 2);
      });
      await act();
      await page.waitForTimeout(ms);
      return page.evaluate(() => {
        const w = window as unknown as { samples: { at: number; volume: number; paused: boolean }[]; sampler: number };
        clearInterval(w.sampler);
        return w.samples;
      });
    };
    const between = (xs: { volume: number }[]) => new Set(xs.map((x) => x.volume).filter((v) => v > 0.02 && v < 0.98)).size;

    const pausing = await sample(() => page.getByTestId('player-toggle').click(), 500);
    const pausedAt = pausing.find((x) => x.paused)?.at ?? Infinity;
    expect(pausedAt).toBeLessThan(500);
    // Several volume steps on the way down, and the pause only after ~200 ms of them.
    expect(between(pausing.filter((x) => !x.paused))).toBeGreaterThanOrEqual(5);
    const firstLow = pausing.find((x) => x.volume < 0.98)?.at ?? 0;
    expect(pausedAt - firstLow).toBeGreaterThanOrEqual(150);

    const resuming = await sample(() => page.getByTestId('player-toggle').click(), 500);
    expect(between(resuming)).toBeGreaterThanOrEqual(5);
    const up = resuming.filter((x) => !x.paused);
    expect(up.at(-1)?.volume).toBe(1);
    const rise = (up.find((x) => x.volume === 1)?.at ?? 0) - (up.find((x) => x.volume < 0.98)?.at ?? 0);
    expect(rise).toBeGreaterThanOrEqual(150);

    // A seek dips the volume for half as long each way (100 ms down, 100 ms up).
    const seeking = await sample(() => seekTo(0.1), 400);
    // The bottom is left at once (the fade back starts in the same tick), so look for the lowest sample.
    const lowest = Math.min(...seeking.map((x) => x.volume));
    expect(lowest).toBeLessThan(0.15);
    const low = seeking.findIndex((x) => x.volume === lowest);
    const dip = seeking[low].at - (seeking.find((x) => x.volume < 0.98)?.at ?? 0);
    expect(dip).toBeGreaterThanOrEqual(60);
    expect(dip).toBeLessThan(190);
    expect(seeking.at(-1)?.volume).toBe(1);

    // Volume 0-100 on the slider is 0..1 on the element, stored as player.volume.
    await page.getByTestId('player-volume').fill('40');
    await expect.poll(async () => (await audio())?.volume).toBeCloseTo(0.4);
    expect(await page.evaluate(() => localStorage.getItem('player.volume'))).toBe('0.4');
    await page.getByTestId('player-volume').fill('100');
    await page.getByTestId('player-toggle').click();
    await expect.poll(async () => (await audio())?.paused).toBe(true);

    // The star marks the playing song as a favourite in /rest and takes the mark away again.
    const starredIds = async () => ((await lb.rest<{ starred2: { song?: { id: string }[] } }>('getStarred2')).starred2.song ?? []).map((x) => x.id);
    const star = page.getByTestId('player-favourite');
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    await star.click();
    await expect.poll(starredIds).toContain(songs[0].id);
    expect(await star.getAttribute('aria-pressed')).toBe('true');
    await star.click();
    await expect.poll(starredIds).not.toContain(songs[0].id);
  });

  it('next and previous; previous after 3 s restarts the track', async () => {
    await page.getByTestId('player-next').click();
    await playingPast(songs[1].id);
    expect(await barTitle()).toBe(songs[1].title);
    expect(await page.title()).toBe(`${songs[1].title} - ${songs[1].artist}`);
    await page.getByTestId('player-previous').click();
    await playingPast(songs[0].id);
    // Past 3 s, previous restarts the same track.
    await seekTo(3.4 / (songs[0].duration ?? 5));
    await expect.poll(async () => (await audio())?.time ?? 0).toBeGreaterThan(3);
    await page.getByTestId('player-previous').click();
    await expect.poll(async () => {
      const a = await audio();
      return a && a.id === songs[0].id && a.time < 2 && !a.paused;
    }).toBe(true);
    expect((await stored()).index).toBe(0);
  });

  it('preloads the next track and starts it at the end without a gap', async () => {
    // The other element holds the next track, loaded ahead.
    await expect.poll(() =>
      page.evaluate(() => {
        const spare = [...document.querySelectorAll<HTMLAudioElement>('[data-testid=player-audio] audio')].find((e) => e.paused);
        return spare && { id: new URL(spare.src, location.href).searchParams.get('id'), ready: spare.readyState };
      }),
    ).toMatchObject({ id: songs[1].id, ready: 4 });
    await page.evaluate(() => {
      const w = window as unknown as { gapLog: { type: string; id: string | null; at: number }[] };
      w.gapLog = [];
      for (const type of ['ended', 'playing']) {
        document.addEventListener(type, (e) => w.gapLog.push({ type, id: new URL((e.target as HTMLAudioElement).src).searchParams.get('id'), at: performance.now() }), true);
      }
    });
    await seekTo(0.8);
    await playingPast(songs[1].id, 0.2);
    const log = await page.evaluate(() => (window as unknown as { gapLog: { type: string; id: string | null; at: number }[] }).gapLog);
    const ended = log.find((e) => e.type === 'ended' && e.id === songs[0].id);
    const started = log.find((e) => e.type === 'playing' && e.id === songs[1].id);
    expect(ended && started).toBeTruthy();
    const gap = started!.at - ended!.at;
    console.log(`[player] gapless swap: ${gap.toFixed(1)} ms between ended of A and playing of B`);
    expect(gap).toBeLessThan(150);
    expect(await barTitle()).toBe(songs[1].title);
  });

  it('track end: repeat off ends on the first track, paused; repeat on wraps and plays', async () => {
    await page.getByTestId('player-repeat').click();
    expect(await page.evaluate(() => localStorage.getItem('player.repeat'))).toBe('false');
    await lb.open('/playing', 'queue');
    await page.getByTestId('queue-row').nth(3).locator('button').click();
    await playingPast(songs[3].id);
    await seekTo(0.85);
    await expect.poll(async () => {
      const a = await audio();
      return a && a.paused && (await stored()).index === 0 && (await barTitle()) === songs[0].title;
    }).toBe(true);
    expect(await page.getByTestId('player-toggle').getAttribute('aria-label')).toBe('播放');
    expect(await page.locator('[data-testid=queue-row][data-current=true]').textContent()).toContain(songs[0].title);

    await page.getByTestId('player-repeat').click();
    await page.getByTestId('queue-row').nth(3).locator('button').click();
    await playingPast(songs[3].id);
    await seekTo(0.85);
    await playingPast(songs[0].id, 0.2);
    expect((await stored()).index).toBe(0);
  });

  it('the queue and index survive a reload', async () => {
    await page.getByTestId('player-next').click();
    await playingPast(songs[1].id);
    const before = await stored();
    await page.reload();
    await page.getByTestId('player-bar').waitFor();
    expect(await stored()).toEqual(before);
    expect(await barTitle()).toBe(songs[1].title);
    expect((await audio())?.paused).toBe(true);
  });

  it('shuffle: random play keeps its chosen first song first and shuffles the rest', async () => {
    await lb.open('/playing', 'queue');
    await page.getByTestId('player-shuffle').click();
    expect(await page.evaluate(() => localStorage.getItem('player.shuffle'))).toBe('true');
    const answer = page.waitForResponse((r) => r.url().includes('/rest/getRandomSongs'));
    await page.getByTestId('queue-random').click();
    const sent = ((await (await answer).json()) as { 'subsonic-response': { randomSongs: { song: Song[] } } })['subsonic-response'].randomSongs.song;
    expect(sent.length).toBeGreaterThan(3);
    await expect.poll(async () => (await stored()).ids.length).toBe(sent.length);
    const { ids, index } = await stored();
    expect(index).toBe(0);
    expect(ids[0]).toBe(sent[0].id);
    expect([...ids].sort()).toEqual(sent.map((s) => s.id).sort());
    expect(ids).not.toEqual(sent.map((s) => s.id));
    // Clear keeps only the current track.
    await page.getByTestId('queue-clear').click();
    await expect.poll(async () => (await stored()).ids).toEqual([sent[0].id]);
    await page.getByTestId('player-shuffle').click();
  });

  it('/playing highlights the synced lyric line at the play time and keeps it in view', async () => {
    expect(lyricSong).toBeTruthy();
    const { song, lines } = lyricSong!;
    await lb.open(`/playing/id/${song.id}`, 'playing-detail');
    await page.getByTestId('lyrics').waitFor();
    expect(await page.locator('.ts-lyrics-line').count()).toBe(lines.length);
    await page.getByTestId('detail-play').click();
    await playingPast(song.id, 0.1);
    // A page load keeps the queue, paused (the store is restored from localStorage).
    await lb.open('/playing', 'lyrics');
    // Paused at a known time: the line sung then is the highlighted one.
    const target = lines[lines.length - 2];
    const fraction = (target.start / 1000 + 0.2) / (song.duration ?? 5);
    await seekTo(fraction);
    await expect.poll(() => page.locator('.ts-lyrics-active').textContent()).toBe(target.value);
    await expect.poll(() =>
      page.evaluate(() => {
        const panel = document.querySelector('[data-testid=lyrics]')!.getBoundingClientRect();
        const line = document.querySelector('.ts-lyrics-active')!.getBoundingClientRect();
        return line.top >= panel.top && line.bottom <= panel.bottom;
      }),
    ).toBe(true);
    await page.waitForTimeout(400); // the highlight's 0.2 s colour transition
    await lb.shot('player-playing');
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await page.getByTestId('lyrics').waitFor();
    await page.waitForTimeout(400);
    await lb.shot('player-playing-dark');
    await page.evaluate(() => localStorage.setItem('theme', 'light'));
  });

  it("an album's play button queues the album and the bar plays its first song", async () => {
    const album = await lb.rest<{ album: { song: Song[] } }>('getAlbum', { id: songs[0].albumId! });
    await lb.open(`/album/id/${songs[0].albumId}`, 'album-page');
    await page.getByTestId('album-play').click();
    await playingPast(album.album.song[0].id);
    expect(await stored()).toEqual({ ids: album.album.song.map((x) => x.id), index: 0 });
    expect(await barTitle()).toBe(album.album.song[0].title);
    await page.getByTestId('player-toggle').click();
  });

  it('the collapsed bar is remembered; a phone gets the compact bar', async () => {
    await lb.open('/', 'player-bar');
    await page.getByTestId('player-toggle-bar').click();
    expect(await page.getByTestId('player-bar').getAttribute('data-open')).toBe('false');
    await page.reload();
    expect(await page.getByTestId('player-bar').getAttribute('data-open')).toBe('false');
    await lb.shot('player-bar-collapsed');
    await page.getByTestId('player-toggle-bar').click();

    const phone = await newContext(lb.browser, { width: 390, height: 844 });
    await phone.addCookies(await lb.context.cookies());
    const p = await phone.newPage();
    await p.goto(`${lb.server.base}/`);
    await p.evaluate((q) => localStorage.setItem('queue', JSON.stringify(q)), songs.slice(0, 3).map(asTrack));
    await p.goto(`${lb.server.base}/playing`);
    await p.getByTestId('player-bar').waitFor();
    await p.getByTestId('queue').waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The library's side navigation is the header's drawer on a phone, not a docked 200 px column.
    expect(await p.locator('.ts-sidenav-docked').isVisible()).toBe(false);
    expect(await p.getByTestId('queue').evaluate((el) => el.getBoundingClientRect().left)).toBeLessThan(40);
    await p.waitForTimeout(400);
    await p.screenshot({ path: 'test/browser/screenshots/player-phone.png' });
    await phone.close();
    expect(pageErrors).toEqual([]);
  });
});
