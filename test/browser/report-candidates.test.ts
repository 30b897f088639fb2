/**
 * The task report's candidate drawers (spec doc 2 §2 "Task report"), in chromium against the real server: a real
 * 自动刮削 task in hard mode with Kugou — the built-in source pointed by TAGSONIC_SOURCE_URL_KUGOU at a local replay
 * (test/support/source-fake.ts) — misses a track whose only candidate names another artist, and a track nothing
 * is found for. In the report the first row's candidate link opens the editor and the kept candidates side by
 * side; the candidate's row is copied (cover included), saved (update_id3), the row finished (finish_files), and
 * it moves to success while the file's tags on disk are the candidate's. The second row has no candidates: its
 * drawers look its title up in the locally remembered source (netease by default, here an error), and switching
 * the source looks again. Escape closes. Screenshots light/dark, desktop/phone: /tmp/shots-candidates/.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { makeAudio, probeTags, waitFor } from '../support/audio.ts';
import { sourceFake } from '../support/source-fake.ts';
import { buildDashboard, coverOf, ffprobe, launchBrowser, makeHome, makePicture, newContext, startServer, type Home, type Server } from './harness.ts';

const PASSWORD = 'report-candidates-password';
const SHOTS = '/tmp/shots-candidates';
const HASH = 'C0FFEE00C0FFEE00C0FFEE00C0FFEE00';
const SOURCES = ['KUGOU', 'QMUSIC', 'NETEASE'];

let home: Home;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cover: Buffer;
let folder: string;
let missed: string;
let nothing: string;
let taskId: string;
/** Uncaught errors in the page: any of them fails the test that caused it. */
const pageErrors: string[] = [];

const found = (lists: unknown[]) => ({ status: 1, error_code: 0, error_msg: '', data: { page: 1, pagesize: lists.length, total: lists.length, lists } });
/** Kugou's song search: the same title by another artist (hard mode refuses it), nothing for "nothing…". */
const fake = sourceFake('kugou', (p, query) => {
  if (p === '/v2/search/song') {
    if ((query.get('keyword') ?? '').startsWith('nothing')) return [200, 'application/json', found([])];
    return [200, 'application/json', found([{
      SongName: '<em>雨下一整晚</em>', SingerName: '周杰伦', AlbumName: '跨时代', FileHash: HASH, Duration: 3, PublishTime: '2010-05-18 00:00:00',
      Image: `${fake.baseUrl()}/stdmusic/{size}/rain.jpg`,
    }])];
  }
  if (p.endsWith('/rain.jpg')) return [200, 'image/jpeg', cover];
  return [404, 'text/html', 'not found'];
});

const notice = (title: string) => page.locator(`.bp6-toast [data-notice-title="${title}"]`).last();
const rowOf = (file: string) => page.locator(`[data-section] tr[data-path="${file}"]`);
const drawers = () => page.getByTestId('candidate-drawers');
const settled = () => page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));

async function api(method: 'GET' | 'POST', pathname: string, body?: unknown) {
  const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
  const headers = { 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' };
  const res = method === 'GET' ? await page.request.get(`${server.base}${pathname}`, { headers }) : await page.request.post(`${server.base}${pathname}`, { data: body, headers });
  return (await res.json()) as { result: boolean; message: string; data: Record<string, unknown> };
}

async function openReport() {
  await page.goto(`${server.base}/log_detail/${taskId}/`);
  await page.getByTestId('log-detail').waitFor();
}

/** Opens a row's drawers and waits until the editor has the file and the candidate list has settled. */
async function openDrawers(file: string) {
  await rowOf(file).getByTestId('candidate-item').click();
  await drawers().waitFor();
  await drawers().locator(`[data-testid="track-editor"][data-file="${file}"] #ts-field-title`).waitFor();
  await drawers().locator('[data-testid="scrape-results"]:not([data-status="loading"])').waitFor();
  await settled();
}

async function shot(name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

beforeAll(async () => {
  await buildDashboard();
  await mkdir(SHOTS, { recursive: true });
  home = await makeHome(1);
  folder = path.join(home.media, 'candidates');
  await mkdir(folder, { recursive: true });
  missed = path.join(folder, '01 雨下一整晚.mp3');
  nothing = path.join(folder, '02 nothing.mp3');
  await makeAudio(missed, { seconds: 3, tags: { title: '雨下一整晚', artist: '无名歌手' } });
  await makeAudio(nothing, { seconds: 2, freq: 600, tags: { title: 'nothing like it' } });
  const picture = path.join(home.home, 'rain.jpg');
  await makePicture(picture, 300, 300, 'teal');
  cover = await readFile(picture);
  // Every source the workers could ask points at the replay (it answers netease and qmusic 404).
  for (const id of SOURCES) process.env[`TAGSONIC_SOURCE_URL_${id}`] = fake.baseUrl();
  server = await startServer(home.home, PASSWORD);
  browser = await launchBrowser();
  context = await newContext(browser, { width: 1440, height: 900 });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.stack ?? e.message));
  await page.goto(`${server.base}/login`);
  await page.fill('#ts-username', 'admin');
  await page.fill('#ts-password', PASSWORD);
  await page.press('#ts-password', 'Enter');
  await page.waitForURL(`${server.base}/`);

  const created = await api('POST', '/apimt/batch_auto_update_id3/', {
    file_full_path: folder,
    select_data: [path.basename(missed), path.basename(nothing)],
    music_info: { select_mode: 'hard', source_list: ['kugou'], is_skip_tag: false, is_folder_album: false, scrape_rate: 20 },
  });
  expect(created.result).toBe(true);
  taskId = String(created.data.task_id);
  await waitFor(async () => (await api('GET', `/apimt/audit_log_detail/?id=${taskId}`)).data.status !== 'running', 'the auto-scrape task to end', 60_000);
}, 240_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await shot(`failed-${ctx.task.name.slice(0, 30).replace(/[^\w]+/g, '-')}`).catch(() => undefined);
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  for (const id of SOURCES) delete process.env[`TAGSONIC_SOURCE_URL_${id}`];
  await browser?.close();
  await server?.stop();
  if (home) await rm(home.home, { recursive: true, force: true });
});

describe('candidate drawers of a task report', { timeout: 120_000 }, () => {
  it('shows the editor beside the kept candidates, light and dark, desktop and phone', async () => {
    for (const [size, viewport] of [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
      await page.setViewportSize(viewport);
      for (const theme of ['light', 'dark']) {
        await page.evaluate((t) => localStorage.setItem('theme', t), theme);
        await openReport();
        await openDrawers(missed);
        // The candidate auto-scrape kept: exact title (grey), another artist (not a match).
        const song = drawers().locator(`[data-testid="scrape-table"] tr[data-song="${HASH}"]`);
        await song.waitFor();
        expect(await song.locator('[data-cell="title"]').getAttribute('class')).toContain('ts-score-exact');
        expect(await song.locator('[data-cell="artist"]').textContent()).toBe('周杰伦');
        expect(await song.locator('[data-cell="album"]').textContent()).toBe('跨时代');
        await shot(`drawers-${size}-${theme}`);
        await page.keyboard.press('Escape');
        await drawers().waitFor({ state: 'detached' });
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.evaluate(() => localStorage.setItem('theme', 'light'));
  });

  it('copies the candidate\'s row, saves the file and finishes the row, which moves to success', async () => {
    await openReport();
    const missSection = rowOf(missed).locator('xpath=ancestor::*[@data-section][1]');
    expect(await missSection.getAttribute('data-section')).toBe('miss_album');
    await openDrawers(missed);
    await drawers().getByTestId('copy-row').click();
    await expect.poll(() => drawers().locator('#ts-field-album').inputValue()).toBe('跨时代');
    expect(await drawers().locator('#ts-field-artist').inputValue()).toBe('周杰伦');
    expect(await drawers().locator('#ts-field-year').inputValue()).toBe('2010');

    await drawers().getByTestId('save-button').click();
    await notice('修改成功！').waitFor();
    await drawers().getByTestId('candidate-saved').waitFor();
    await settled();
    await shot('saved-desktop-light');
    await drawers().getByTestId('candidate-finish').click();
    await notice('完成成功！').waitFor();
    await drawers().waitFor({ state: 'detached' });

    // The row is in success now, and the miss section is gone with it (it had this one row).
    await expect.poll(async () => rowOf(missed).locator('xpath=ancestor::*[@data-section][1]').getAttribute('data-section')).toBe('success');
    expect(await page.locator('[data-section="miss_album"]').count()).toBe(0);
    const detail = await api('GET', `/apimt/audit_log_detail/?id=${taskId}`);
    expect((detail.data.static as { success_count: number }).success_count).toBe(1);

    const tags = await probeTags(missed);
    expect(tags).toMatchObject({ title: '雨下一整晚', artist: '周杰伦', album: '跨时代' });
    expect(tags.date ?? tags.year).toMatch(/^2010/);
    // The candidate's cover replaced the (absent) artwork.
    expect(coverOf(await ffprobe(missed))).toBeTruthy();
  });

  it('looks a row without candidates up in the remembered source, switches the source, and closes on Escape', async () => {
    await openReport();
    const before = fake.seen.length;
    await openDrawers(nothing);
    // No source chosen yet: netease, which the replay answers 404 — the list says the lookup failed.
    expect(await drawers().getByTestId('candidate-source').inputValue()).toBe('netease');
    await drawers().locator('[data-testid="scrape-results"][data-status="error"] [data-testid="scrape-error"]').waitFor();
    await shot('no-candidates-error-desktop-light');

    await drawers().getByTestId('candidate-source').selectOption('kugou');
    await drawers().locator('[data-testid="scrape-results"][data-status="done"]').waitFor();
    expect(await drawers().getByTestId('scrape-results').textContent()).toContain('暂无信息');
    const searches = fake.seen.slice(before).filter((r) => r.path === '/v2/search/song');
    expect(searches.some((r) => (r.query.get('keyword') ?? '').startsWith('nothing like it'))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('resource'))).toBe('kugou');

    await page.keyboard.press('Escape');
    await drawers().waitFor({ state: 'detached' });
    // Nothing was saved or finished: the row is still missing.
    expect(await rowOf(nothing).locator('xpath=ancestor::*[@data-section][1]').getAttribute('data-section')).toBe('miss_artist_album');
  });
  it('speaks English when the interface does', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
    try {
      await openReport();
      expect(await rowOf(nothing).getByTestId('candidate-item').textContent()).toBe('Candidates');
      await openDrawers(nothing);
      expect(await page.locator('.ts-candidate-drawers .bp6-heading').first().textContent()).toBe('Candidate songs · 02 nothing.mp3');
      expect(await drawers().locator('.ts-candidates-head label').textContent()).toBe('Tag source');
      await shot('drawers-desktop-light-en');
      await page.keyboard.press('Escape');
      await drawers().waitFor({ state: 'detached' });
    } finally {
      await page.evaluate(() => localStorage.setItem('lang', 'zh-CN'));
    }
  });
});
