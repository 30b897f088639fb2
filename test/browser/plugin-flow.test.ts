/**
 * The whole path of a third-party tag source, as a person takes it, in Debian's chromium against a real
 * `tagsonic start`: the example source examples/deezer is packed by the real CLI (`tagsonic plugin pack`),
 * uploaded on /mod from the 插件市场 tab, its permissions and their reasons read in its details, enabled after
 * the confirmation lists them, chosen in the editor's 刮削配置, and used to look up a real MP3's title. The
 * scores are coloured (2 grey, 1 yellow, 0 red), a row is copied into the editor with its cover, saved, and the
 * file is read back with ffprobe and ffmpeg: title, artist, album and an attached picture, the very bytes served
 * (the save has the server download the candidate's cover URL).
 *
 * Deezer's API is replayed by a local server (test/support/source-fake.ts) that the server's workers reach
 * through TAGSONIC_SOURCE_URL_DEEZER, with answers of the real API's shape (the ones test/examples.test.ts
 * replays, for examples/deezer/fixture.json's song). The covers are on that same server, as a local mirror's
 * would be: nothing is intercepted in the browser. Screenshots of each step go to
 * test/browser/screenshots/plugin-flow-*.png (and /tmp/shots-e2e/), light theme, the results also dark.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { makeAudio } from '../support/audio.ts';
import { sourceFake } from '../support/source-fake.ts';
import { buildDashboard, coverOf, ffprobe, launchBrowser, makeHome, makePicture, newContext, ROOT, screenshot, startServer, type Home, type Server } from './harness.ts';

const run = promisify(execFile);
const PASSWORD = 'plugin-flow-password';
const SHOTS = '/tmp/shots-e2e';
const EXAMPLE = path.join(ROOT, 'examples/deezer');
/** The song examples/deezer/fixture.json searches for. */
const fixture = JSON.parse(await readFile(path.join(EXAMPLE, 'fixture.json'), 'utf8')) as { search: { title: string; artist: string; album: string } };
const { title: TITLE, artist: ARTIST, album: ALBUM } = fixture.search;
const COVER_SIZE = 1000;
/** The first candidate's cover (Discovery's, in Deezer's CDN naming). */
const FIRST_COVER = '2e018122cb56986277102d2041a592c8';

let home: Home;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** The JPEG the fake serves as every album's cover_xl. */
let coverJpeg: Buffer;
/** The uploaded package `tagsonic plugin pack` wrote. */
let packed: string;
/** The MP3 the editor opens: the fixture's title and artist, no album, no cover. */
let song: { full: string; dir: string; name: string };

/** A cover_xl on the fake, in Deezer's CDN path shape. */
const coverUrl = (md5: string) => `${deezer.baseUrl()}/images/cover/${md5}/${COVER_SIZE}x${COVER_SIZE}-000000-80-0-0.jpg`;
/** Deezer's /search items for the fixture's song (fields the plugin does not read left out). */
const track = () => ({
  id: 3135556, readable: true, title: TITLE, title_short: TITLE, duration: 224,
  artist: { id: 27, name: ARTIST, type: 'artist' },
  album: { id: 302127, title: ALBUM, cover_xl: coverUrl(FIRST_COVER), type: 'album' },
  type: 'track',
});
const live = () => ({ ...track(), id: 3135600, title: `${TITLE} (Alive 2007)`, duration: 340, album: { ...track().album, id: 302150, title: 'Alive 2007', cover_xl: coverUrl('aa11') } });

const deezer = sourceFake('deezer', (p) => {
  if (p === '/search') return [200, 'application/json', { data: [track(), live()], total: 2 }];
  if (p === '/track/3135556') return [200, 'application/json', { ...track(), track_position: 4, disk_number: 1, release_date: '2001-03-07' }];
  if (p === '/track/3135600') return [200, 'application/json', { error: { type: 'DataException', message: 'no data', code: 800 } }];
  // No CORS headers: the page only shows the picture, the server is the one that downloads it.
  if (p.startsWith('/images/cover/')) return [200, 'image/jpeg', coverJpeg];
  return [404, 'text/html', '<h1>Not found</h1>'];
});

const notice = (title: string) => page.locator(`.bp6-toast [data-notice-title="${title}"]`).last();
const drawer = () => page.locator('[data-testid="plugin-detail"]');
const row = (id: string) => page.locator(`[data-testid="plugin-list"] [data-plugin="${id}"]`);

/** Into the repository's screenshots (the ones people look at) and /tmp/shots-e2e. */
async function shot(name: string) {
  const file = await screenshot(page, `plugin-flow-${name}`);
  await mkdir(SHOTS, { recursive: true });
  await copyFile(file, path.join(SHOTS, `plugin-flow-${name}.png`));
}

async function api(pathname: string, body: unknown) {
  const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
  const res = await page.request.post(`${server.base}${pathname}`, { data: body, headers: { 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' } });
  return (await res.json()) as { result: boolean; message: string; data: unknown };
}

/** Opens the MP3 in the editor through the file tree's path box. */
async function openSong() {
  // The first listing must be in before the path is typed, or it replaces the folder asked for.
  await page.locator('[data-testid="file-tree"]:not([data-loading]) li[data-name]').first().waitFor();
  const box = page.locator('.ts-tree-toolbar input[aria-label="路径"]');
  await box.fill(song.dir);
  await box.press('Enter');
  await page.locator(`[data-testid="file-tree"]:not([data-loading]) li[data-name="${song.name}"] .ts-tree-button`).click();
}

/** A computed background's red, green and blue in 0…255 (chromium writes color-mix results as color(srgb …)). */
function rgbOf(css: string): [number, number, number] {
  const n = (css.match(/[\d.]+/g) ?? []).map(Number);
  return css.startsWith('color(') ? [n[0]! * 255, n[1]! * 255, n[2]! * 255] : [n[0]!, n[1]!, n[2]!];
}

beforeAll(async () => {
  await buildDashboard();
  home = await makeHome(1);
  const picture = path.join(home.home, 'deezer-cover.jpg');
  await makePicture(picture, COVER_SIZE, COVER_SIZE, 'navy');
  coverJpeg = await readFile(picture);
  const dir = path.join(home.media, 'e2e');
  await mkdir(dir, { recursive: true });
  song = { dir, name: 'Daft Punk - Harder Better Faster Stronger.mp3', full: '' };
  song.full = path.join(dir, song.name);
  await makeAudio(song.full, { seconds: 3, tags: { title: TITLE, artist: ARTIST } });
  // The administrator's CLI, as the example's README says: tagsonic plugin pack examples/deezer -o <file>.
  packed = path.join(home.home, 'dist', 'deezer-1.0.0.zip');
  await run(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), 'plugin', 'pack', EXAMPLE, '-o', packed], { cwd: ROOT });
  // The server's workers read the source's base URL from the environment they start in.
  process.env.TAGSONIC_SOURCE_URL_DEEZER = deezer.baseUrl();
  try {
    server = await startServer(home.home, PASSWORD);
  } finally {
    delete process.env.TAGSONIC_SOURCE_URL_DEEZER;
  }
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
  await page.goto(`${server.base}/login`);
  await page.fill('#ts-username', 'admin');
  await page.fill('#ts-password', PASSWORD);
  await page.press('#ts-password', 'Enter');
  await page.waitForURL(`${server.base}/`);
  // The plugin screens are V2 (§6).
  expect((await api('/apimt/admin/users/admin/role/', { role: 'V2' })).result).toBe(true);
}, 240_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await shot(`failed-${ctx.task.name.slice(0, 40).replace(/[^\w]+/g, '-')}`).catch(() => undefined);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (home) await rm(home.home, { recursive: true, force: true });
});

describe('a third-party tag source from upload to a saved file', { timeout: 120_000 }, () => {
  it('uploads the packed example on /mod (插件市场); it arrives disabled, its permission and reason in its details', async () => {
    await page.goto(`${server.base}/mod`);
    await page.locator('[data-testid="plugin-list"]:not([data-loading])').waitFor();
    await page.getByRole('tab', { name: '插件市场' }).click();
    await page.locator('[data-testid="plugin-market"] input[type="file"]').setInputFiles(packed);
    await shot('01-market');
    await page.getByTestId('plugin-upload').click();
    await notice('上传成功！').waitFor();
    await page.waitForURL(/\/mod\?plugin=deezer$/);
    await expect.poll(() => drawer().getAttribute('data-plugin')).toBe('deezer');
    const http = drawer().getByTestId('plugin-permissions').locator('[data-permission="http"]');
    expect(await http.textContent()).toBe(
      '访问网站 api.deezer.com' + "Searches Deezer's catalogue for songs and artists, and reads a found song's track number, disc number and release date.",
    );
    expect(await drawer().getByTestId('plugin-permissions').locator('[data-permission]').count()).toBe(1);
    expect(await drawer().getByTestId('plugin-enable').isChecked()).toBe(false);
    // The administrator's environment points it at the replay: shown read-only.
    expect(await drawer().getByTestId('plugin-env-url').inputValue()).toBe(deezer.baseUrl());
    await page.mouse.move(0, 0);
    await notice('上传成功！').waitFor({ state: 'detached' });
    await shot('02-details');
  });

  it('enables it after the confirmation lists its permission; 刮削配置 then offers it', async () => {
    await drawer().getByTestId('plugin-enable').click({ force: true });
    const confirm = page.locator('.ts-plugin-confirm');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('api.deezer.com');
    expect(await confirm.textContent()).toContain("Searches Deezer's catalogue for songs and artists");
    await page.waitForTimeout(300);
    await shot('03-enable-confirm');
    await confirm.getByRole('button', { name: '启用' }).click();
    await expect.poll(() => drawer().getByTestId('plugin-enable').isChecked()).toBe(true);
    // The focus is back on the switch as the switch turns on: Escape closes the drawer right away (it was lost
    // for the ~300 ms the confirmation took to fade out).
    expect(await page.evaluate(() => document.activeElement?.closest('.ts-plugin-drawer') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await page.waitForURL(`${server.base}/mod`);
    await expect.poll(() => row('deezer').getAttribute('data-enabled')).toBe('true');
    await drawer().waitFor({ state: 'detached' });
    await notice('已启用').waitFor({ state: 'detached' });
    await shot('04-enabled');
  });

  it('looks the file\'s title up with Deezer in the editor, scores coloured 2 grey, 1 yellow, 0 red', async () => {
    await page.goto(`${server.base}/`);
    await openSong();
    await expect.poll(() => page.locator('#ts-field-title').inputValue()).toBe(TITLE);

    await page.getByRole('button', { name: '刮削配置' }).click();
    const select = page.locator('#ts-resource');
    await expect.poll(() => select.locator('option[value="deezer"]').textContent()).toBe('Deezer (deezer)');
    await select.selectOption('deezer');
    await page.locator('.bp6-overlay-open .bp6-dialog').waitFor();
    await page.waitForTimeout(300);
    await shot('05-source-setting');
    await page.getByRole('button', { name: '确定' }).click();
    // The editor's head names the chosen source (its name, not its id) in full beside a long file name (it was cut to 'dee…').
    const chip = page.locator('.ts-editor-head .bp6-tag');
    await expect.poll(() => chip.textContent()).toBe('Deezer');
    expect(await chip.getAttribute('data-source')).toBe('deezer');
    expect(await chip.evaluate((e) => e.scrollWidth <= e.clientWidth && [...e.children].every((c) => c.scrollWidth <= c.clientWidth))).toBe(true);

    await page.getByTestId('lookup-button').click();
    const table = page.getByTestId('scrape-table');
    await table.waitFor();
    expect(await page.locator('.ts-scrape-query').textContent()).toMatch(/^Deezer · /);
    // The plugin asked Deezer (the replay) with the editor's title and artist.
    expect(deezer.seen.find((r) => r.path === '/search')!.query.get('q')).toBe(`track:"${TITLE}" artist:"${ARTIST}"`);
    const rows = table.locator('tbody tr');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-song')))).toEqual(['3135556', '3135600']);
    const cell = (i: number, which: string) => rows.nth(i).locator(`[data-cell="${which}"]`);
    // Same title and artist (2), the file has no album (0); the live version's title only contains it (1).
    expect(await cell(0, 'title').getAttribute('data-score')).toBe('2');
    expect(await cell(0, 'artist').getAttribute('data-score')).toBe('2');
    expect(await cell(0, 'album').getAttribute('data-score')).toBe('0');
    expect(await cell(1, 'title').getAttribute('data-score')).toBe('1');
    const bg = async (i: number, which: string) => rgbOf(await cell(i, which).evaluate((e) => getComputedStyle(e).backgroundColor));
    const [gr, gg, gb] = await bg(0, 'title');
    expect(Math.max(gr, gg, gb) - Math.min(gr, gg, gb)).toBeLessThan(20); // grey
    const [yr, yg, yb] = await bg(1, 'title');
    expect(Math.min(yr, yg) - yb).toBeGreaterThan(100); // yellow: red and green, little blue
    const [rr, rg, rb] = await bg(0, 'album');
    expect(rr - Math.max(rg, rb)).toBeGreaterThan(100); // red
    // The thumbnail is the 1000 px cover_xl, loaded from the replay.
    const thumb = rows.first().locator('.ts-scrape-thumb img');
    expect(await thumb.getAttribute('src')).toBe(coverUrl(FIRST_COVER));
    await expect.poll(() => thumb.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(COVER_SIZE);
    await page.mouse.move(0, 0);
    await shot('06-results');
  });

  it('copies the first row and its cover into the editor, saves, and ffprobe reads them in the file', async () => {
    const before = deezer.seen.length;
    await page.getByTestId('scrape-table').locator('tbody tr').first().getByTestId('copy-row').click();
    const preview = page.locator('[data-testid="cover-preview"] img');
    // The new cover is the candidate's URL, shown straight from the source until the save.
    await expect.poll(() => preview.getAttribute('src')).toBe(coverUrl(FIRST_COVER));
    await expect.poll(() => preview.evaluate((i) => (i as HTMLImageElement).naturalWidth), { timeout: 20_000 }).toBe(COVER_SIZE);
    expect(await page.locator('#ts-field-album').inputValue()).toBe(ALBUM);
    expect(await page.locator('#ts-field-artist').inputValue()).toBe(ARTIST);
    expect(await page.locator('#ts-field-year').inputValue()).toBe('2001');
    expect(await page.locator('#ts-field-tracknumber').inputValue()).toBe('4');
    expect(await page.locator('#ts-field-discnumber').inputValue()).toBe('1');
    await page.mouse.move(0, 0);
    await shot('07-row-copied');

    await page.getByTestId('save-button').click();
    await notice('修改成功！').waitFor();
    await shot('08-saved');
    const probe = await ffprobe(song.full);
    expect(probe.tags.title).toBe(TITLE);
    expect(probe.tags.artist).toBe(ARTIST);
    expect(probe.tags.album).toBe(ALBUM);
    expect(probe.tags.date ?? probe.tags.year).toMatch(/^2001/);
    expect(probe.tags.track).toMatch(/^4/);
    expect(coverOf(probe)).toMatchObject({ width: COVER_SIZE, height: COVER_SIZE });
    // The server downloaded the candidate's cover from the source's host (the administrator's base URL, so
    // allowed on loopback) and embedded it byte for byte: the picture ffmpeg copies out is the one served.
    const downloads = deezer.seen.slice(before).filter((r) => r.path === new URL(coverUrl(FIRST_COVER)).pathname && String(r.headers['user-agent']).startsWith('Tagsonic'));
    expect(downloads).toHaveLength(1);
    const { stdout: embedded } = await run('ffmpeg', ['-v', 'error', '-i', song.full, '-an', '-c:v', 'copy', '-f', 'image2', 'pipe:1'], { encoding: 'buffer' });
    expect(embedded.equals(coverJpeg)).toBe(true);
  });

  it('reads in the dark theme', async () => {
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await openSong();
    await expect.poll(() => page.locator('#ts-field-album').inputValue()).toBe(ALBUM);
    await page.getByTestId('lookup-button').click();
    await page.getByTestId('scrape-table').waitFor();
    await expect.poll(() => page.locator('.ts-scrape-thumb img').first().evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(COVER_SIZE);
    await page.mouse.move(0, 0);
    await shot('09-results-dark');
    await page.evaluate(() => localStorage.setItem('theme', 'light'));
  });

  it('/mod counts the lookups in the source\'s health, none failed', async () => {
    // Two searches (the light and the dark lookup); workers flush health every few seconds.
    await expect
      .poll(async () => {
        await page.goto(`${server.base}/mod`);
        await page.locator('[data-testid="plugin-list"]:not([data-loading])').waitFor();
        return row('deezer').getByTestId('plugin-health').textContent();
      }, { timeout: 30_000, interval: 2000 })
      .toContain('调用 2 次');
    expect(await row('deezer').getByTestId('plugin-health').textContent()).toContain('失败 0 次');
    expect(await row('deezer').locator('[data-health="failing"]').count()).toBe(0);
    await shot('10-health');
  });
});
