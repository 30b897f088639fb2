/**
 * The import collection's report (导入收藏, /log_detail/{id}/) in chromium against a real `tagsonic start`: while the
 * import runs (paced at 1/s) its running list offers stop per file waiting for its turn; once done, 元数据扫描 lists the songs the
 * library already had (skipped, with the reason), 音乐收藏 the songs newly added (count badge, 10 rows a page, the
 * default genre filled in), 失败 the file that is no song, whose delete asks '确认要删除文件？' and moves it to the
 * trash. Screenshots (light and dark) go to /tmp/shots-import/.
 */
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { makeAudio, waitFor } from '../support/audio.ts';
import { buildDashboard, launchBrowser, makeHome, newContext, startServer, type Home, type Server } from './harness.ts';

const PASSWORD = 'import-browser-password';
const SHOTS = '/tmp/shots-import';
/** Songs the import adds: more than one page of 10. */
const NEW_SONGS = 13;
/** The library watcher's schedule (workers/src/scanner/watcher.ts WATCH_SCHEDULE, every 3 minutes). */
const WATCH_EVERY_MS = 3 * 60_000;

let home: Home;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let folder: string;
const pageErrors: string[] = [];

async function api(p: Page, method: 'GET' | 'POST', pathname: string, body?: unknown) {
  const csrf = (await p.context().cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
  const headers = { 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' };
  const res = method === 'GET' ? await p.request.get(`${server.base}${pathname}`, { headers }) : await p.request.post(`${server.base}${pathname}`, { data: body, headers });
  return (await res.json()) as { result: boolean; message: string; data: Record<string, any> };
}

async function shot(name: string) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

const exists = (p: string) => access(p).then(() => true, () => false);

beforeAll(async () => {
  await buildDashboard();
  home = await makeHome(10);
  folder = path.join(home.media, 'imports');
  await mkdir(folder);
  // Two songs the first scan lists: the import finds them already in the collection.
  for (const i of [0, 1]) await makeAudio(path.join(folder, `known ${i + 1}.mp3`), { freq: 900 + i * 40, tags: { title: `Known ${i + 1}`, artist: 'Old Friend', album: 'Listed', genre: 'Pop' } });
  server = await startServer(home.home, PASSWORD);
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.stack ?? e.message));
  await page.goto(`${server.base}/login`);
  await page.fill('#ts-username', 'admin');
  await page.fill('#ts-password', PASSWORD);
  await page.press('#ts-password', 'Enter');
  await page.waitForURL(`${server.base}/`);
  // Import collection is V2 (spec doc 1 §6).
  expect((await api(page, 'POST', '/apimt/admin/users/admin/role/', { role: 'V2' })).result).toBe(true);
  // The start-up scan lists the library (and the two known songs) before the new files arrive.
  await waitFor(async () => {
    const items = (await api(page, 'GET', '/apimt/audit_log/?page=1&page_size=50')).data.items as Array<{ status: string }>;
    return items.length > 0 && items.every((i) => i.status !== 'running');
  }, 'the start-up scan', 120_000);
  // The library watcher ticks at every third minute of the clock and would list new files itself: the new files
  // arrive (and are imported) right after a tick, not just before one.
  const toTick = WATCH_EVERY_MS - (Date.now() % WATCH_EVERY_MS);
  if (toTick < 90_000) await new Promise((r) => setTimeout(r, toTick + 5_000));
  for (let i = 0; i < NEW_SONGS; i++) {
    await makeAudio(path.join(folder, `new ${String(i + 1).padStart(2, '0')}.mp3`), { freq: 300 + i * 30, tags: { title: `New Song ${i + 1}`, artist: 'Import Band', album: 'Fresh Arrivals' } });
  }
  await writeFile(path.join(folder, 'broken.mp3'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)));
}, 240_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await shot(`failed-${ctx.task.name.slice(0, 40).replace(/[^\w]+/g, '-')}`).catch(() => undefined);
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('import collection report', () => {
  it('shows running (stop), 元数据扫描, 音乐收藏 (paged) and 失败 (delete asks first)', async () => {
    const created = await api(page, 'POST', '/apimt/import_music/', {
      file_full_path: home.media,
      select_data: [{ icon: 'folder', name: 'imports', title: 'imports' }],
      music_info: { genre: 'Imported' },
      is_skip_exist: true,
      import_rate: 1,
    });
    expect(created.result, created.message).toBe(true);
    const id = String(created.data.task_id);
    expect(created.data.total).toBe(NEW_SONGS + 3);

    // While it runs: the running list, each file waiting for its turn with its stop button; stop the last one shown.
    await page.goto(`${server.base}/log_detail/${id}/`);
    const running = page.locator('[data-testid="import-report"] [data-section="running"]');
    await running.locator('[data-testid="stop-item"]').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('stop-task').waitFor();
    await shot('01-import-running-light');
    const last = running.locator('tbody tr').last();
    const stoppedPath = await last.getAttribute('data-path');
    const stopped = page.waitForResponse((r) => r.url().includes('/apimt/stop_audit_log_detail_run/'));
    await last.getByTestId('stop-item').click();
    expect(((await (await stopped).json()) as { result: boolean }).result).toBe(true);

    await page.locator('[data-testid="log-detail"][data-status="success"]').waitFor({ timeout: 60_000 });
    const report = page.getByTestId('import-report');
    const scan = report.locator('[data-section="import_scan"]');
    const collection = report.locator('[data-section="import_collection"]');
    const failed = report.locator('[data-section="fail"]');
    // 元数据扫描: the two songs the library had, skipped with the reason.
    await expect.poll(() => scan.getByTestId('section-count').textContent()).toBe('2');
    expect(await scan.getByTestId('import-outcome').allTextContents()).toEqual(['跳过：already in the music collection', '跳过：already in the music collection']);
    // 音乐收藏: every new song but the stopped one, 10 a page, the default genre filled in.
    await expect.poll(() => collection.getByTestId('section-count').textContent()).toBe(String(NEW_SONGS - 1));
    expect(await report.locator('[data-section="stop"] tbody tr').getAttribute('data-path')).toBe(stoppedPath);
    expect(await collection.locator('tbody tr').count()).toBe(10);
    expect(await collection.getByTestId('import-outcome').first().textContent()).toBe('新加入收藏');
    expect(await collection.locator('.ts-report-changes').first().textContent()).toContain('genre');
    expect(await collection.getByTestId('section-page-label').textContent()).toBe('第 1 / 2 页');
    // 失败: the file that is no song, with its reason and the candidate link.
    await expect.poll(() => failed.getByTestId('section-count').textContent()).toBe('1');
    expect(await failed.locator('.ts-report-reason').textContent()).toContain('broken.mp3');
    await failed.getByTestId('candidate-item').waitFor();
    for (const theme of ['dark', 'light']) {
      await page.evaluate((t) => localStorage.setItem('theme', t), theme);
      await page.reload();
      await page.getByTestId('import-report').locator('[data-section="import_collection"] tbody tr').first().waitFor();
      await shot(`02-import-report-${theme}`);
    }

    // The second page of 音乐收藏.
    await collection.getByRole('button', { name: '下一页' }).click();
    await expect.poll(() => collection.locator('tbody tr').count()).toBe(NEW_SONGS - 1 - 10);
    expect(await collection.getByTestId('section-page-label').textContent()).toBe('第 2 / 2 页');

    // Deleting the failed file asks first, then moves it to the trash.
    await failed.getByTestId('delete-item').click();
    await expect.poll(() => page.getByTestId('confirm-delete-text').textContent()).toBe('确认要删除文件？');
    await shot('03-import-delete-confirm-light');
    const answer = page.waitForResponse((r) => r.url().includes('/apimt/delete_files/'));
    await page.getByRole('button', { name: '删除', exact: true }).last().click();
    const deleted = (await (await answer).json()) as { result: boolean; message: string; data: { task_id: string } };
    expect(deleted.result, deleted.message).toBe(true);
    await waitFor(async () => (await api(page, 'GET', `/apimt/audit_log_detail/?id=${deleted.data.task_id}`)).data.status !== 'running', 'the delete task');
    const del = (await api(page, 'GET', `/apimt/audit_log_detail/?id=${deleted.data.task_id}`)).data;
    expect(del.fail, JSON.stringify(del.fail)).toEqual([]);
    await expect.poll(() => exists(path.join(folder, 'broken.mp3')), { timeout: 30_000 }).toBe(false);
  }, 180_000);
});
