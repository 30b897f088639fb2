/**
 * 自动刮削 from the batch side bar on the real server, in chromium: a folder ticked, the auto-edit drawer with Kugou
 * as the only source, 创建成功！, then the task runs in the server's workers — the built-in Kugou source pointed by
 * TAGSONIC_SOURCE_URL_KUGOU at a local replay of its answers (song search, lyric search and download, the cover)
 * — and the file changes on disk (album, year, lyrics and the cover byte for byte, read with ffprobe/ffmpeg); the
 * task report opened from the log shows the track under the mode's title with raw vs new values, and the track
 * nothing was found for under 缺少艺术家和专辑. Screenshots: /tmp/shots-autoscrape/.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { makeAudio, probeTags } from '../support/audio.ts';
import { sourceFake } from '../support/source-fake.ts';
import { buildDashboard, launchBrowser, makeHome, makePicture, newContext, startServer, type Home, type Server } from './harness.ts';

const run = promisify(execFile);
const PASSWORD = 'auto-scrape-browser-password';
const SHOTS = '/tmp/shots-autoscrape';
const HASH = 'B8B4E2E5A5E56B4C3E0A1C2D3E4F5A6B';
const LRC = '[ti:晴天]\n[00:29.12]故事的小黄花\n[00:32.00]从出生那年就飘着\n';

let home: Home;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cover: Buffer;
let folder: string;

const found = (lists: unknown[]) => ({ status: 1, error_code: 0, error_msg: '', data: { page: 1, pagesize: lists.length, total: lists.length, lists } });
const fake = sourceFake('kugou', (p, query) => {
  if (p === '/v2/search/song') {
    if ((query.get('keyword') ?? '').startsWith('nothing')) return [200, 'application/json', found([])];
    return [200, 'application/json', found([{
      SongName: '<em>晴天</em>', SingerName: '周杰伦', AlbumName: '叶惠美', FileHash: HASH, Duration: 4, PublishTime: '2003-07-31 00:00:00',
      Image: `${fake.baseUrl()}/stdmusic/{size}/sunny.jpg`,
    }])];
  }
  if (p === '/search') return [200, 'application/json', { status: 200, info: 'OK', candidates: [{ id: '22361470', accesskey: 'A1B2C3D4E5F6', duration: 4000 }] }];
  if (p === '/download') return [200, 'application/json', { status: 200, info: 'OK', fmt: 'lrc', content: Buffer.from(LRC).toString('base64') }];
  if (p === '/stdmusic/sunny.jpg') return [200, 'image/jpeg', cover];
  return [404, 'text/html', 'not found'];
});

const row = (name: string) => page.locator(`[data-testid="file-tree"] li[data-name="${name}"]`);
const notice = (title: string) => page.locator(`.bp6-toast [data-notice-title="${title}"]`).last();
const form = () => page.locator('.ts-batch-form[data-action="auto"]');
const settled = () => page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));

beforeAll(async () => {
  await buildDashboard();
  home = await makeHome(1);
  folder = path.join(home.media, 'scrape');
  await mkdir(folder, { recursive: true });
  await makeAudio(path.join(folder, '01 晴天.mp3'), { seconds: 4, tags: { title: '晴天', artist: '周杰伦' } });
  await makeAudio(path.join(folder, '02 nothing.mp3'), { seconds: 2, tags: { title: 'nothing like it' } });
  const picture = path.join(home.home, 'kugou-cover.jpg');
  await makePicture(picture, 300, 300, 'orange');
  cover = await readFile(picture);
  // The workers the server starts read the sources' base URLs from the environment; the drawer's default
  // sources point at the replay too (it answers them 404), so nothing leaves this machine whatever is ticked.
  for (const id of ['KUGOU', 'QMUSIC', 'NETEASE']) process.env[`TAGSONIC_SOURCE_URL_${id}`] = fake.baseUrl();
  server = await startServer(home.home, PASSWORD);
  browser = await launchBrowser();
  context = await newContext(browser, { width: 1440, height: 900 });
  page = await context.newPage();
  await page.goto(`${server.base}/login`);
  await page.fill('#ts-username', 'admin');
  await page.fill('#ts-password', PASSWORD);
  await page.press('#ts-password', 'Enter');
  await page.waitForURL(`${server.base}/`);
}, 240_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await page.screenshot({ path: `${SHOTS}/failed.png` }).catch(() => undefined);
});

afterAll(async () => {
  for (const id of ['KUGOU', 'QMUSIC', 'NETEASE']) delete process.env[`TAGSONIC_SOURCE_URL_${id}`];
  await browser?.close();
  await server?.stop();
  if (home) await rm(home.home, { recursive: true, force: true });
});

describe('auto scrape from the batch side bar', { timeout: 120_000 }, () => {
  it('creates the task, the file gets album, year, lyrics and cover, and the report shows the mode match and the miss', async () => {
    await mkdir(SHOTS, { recursive: true });
    const input = page.locator('.ts-tree-toolbar form input');
    await row('lib').waitFor();
    await input.fill(home.media);
    await input.press('Enter');
    await expect.poll(() => input.inputValue()).toBe(home.media);
    await page.locator('[data-testid="file-tree"]:not([data-loading])').waitFor();
    await row('scrape').locator('[role="checkbox"]').click();
    await page.getByTestId('batch-bar').waitFor();

    await page.locator('[data-batch-action="auto"]').click();
    await form().waitFor();
    await settled();
    // Only Kugou: the defaults (qmusic, netease) switched off, Kugou on.
    for (const id of ['qmusic', 'netease', 'kugou']) await form().locator(`[data-source="${id}"] label`).click();
    await page.screenshot({ path: `${SHOTS}/auto-drawer.png` });
    await page.locator('.bp6-overlay-open [data-testid="batch-submit"]').click();
    await notice('创建成功！').waitFor();
    expect(await notice('创建成功！').textContent()).toContain('任务在后台努力运行中');

    const file = path.join(folder, '01 晴天.mp3');
    await expect.poll(async () => (await probeTags(file)).album, { timeout: 30_000 }).toBe('叶惠美');
    const tags = await probeTags(file);
    expect(tags).toMatchObject({ title: '晴天', artist: '周杰伦', date: '2003-07-31' });
    expect(Object.entries(tags).find(([k]) => k.startsWith('lyrics'))?.[1]).toContain('故事的小黄花');
    const extracted = path.join(home.home, 'extracted.jpg');
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-an', '-c:v', 'copy', '-frames:v', '1', extracted]);
    expect((await readFile(extracted)).equals(cover)).toBe(true);

    // The report, opened from the operation log.
    await page.goto(`${server.base}/log`);
    const entry = page.locator('tr', { hasText: '自动刮削' }).first();
    await entry.waitFor();
    await entry.getByText('查看详情').click();
    await page.waitForURL(/\/log_detail\//);
    const mode = page.locator('[data-section="mode_success"]');
    await mode.waitFor();
    await expect.poll(() => mode.textContent()).toContain('宽松模式');
    expect(await mode.textContent()).toContain('叶惠美');
    // Title and artist exact, no album on the file: 2 of 3, shown as 0.67.
    expect(await mode.locator('td.ts-mono').textContent()).toBe('0.67');
    await expect.poll(() => page.locator('[data-section="miss_artist_album"]').textContent()).toContain('02 nothing.mp3');
    await settled();
    await page.screenshot({ path: `${SHOTS}/report.png`, fullPage: true });
  });
});
