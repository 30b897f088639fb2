/**
 * Issue 12's flow as a person does it, in Debian chromium against the real server (embedded store, in-process
 * bus, the built-in batch-action plugins in their sandboxes, real MP3 files): tick a folder in the file screen,
 * run a manual batch edit, follow the success notice to the operation log and the task's report, watch its
 * progress bar move over SSE, check the files with ffprobe, undo the task from the report and check them again;
 * a tidy with its preview, applied, then undone (the folder listing is the original one again); a duplicate
 * check whose report deletes one copy, then undoes that delete. Screenshots go to /tmp/shots-batch-flow/.
 */
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { makeAudio, probeTags } from '../support/audio.ts';
import { buildDashboard, launchBrowser, makeHome, newContext, startServer, type Home, type Server } from './harness.ts';

const PASSWORD = 'batch-flow-password';
const SHOTS = '/tmp/shots-batch-flow';
/** Enough files that the edit runs for a few seconds: its report is open while it runs. */
const EDIT_FILES = 400;

let home: Home;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let flow: string;
const pageErrors: string[] = [];

const row = (name: string) => page.locator(`[data-testid="file-tree"] li[data-name="${name}"]`);
const box = (name: string) => row(name).locator('[role="checkbox"]');
const notice = (title: string) => page.locator(`.bp6-toast [data-notice-title="${title}"]`).last();
/** The whole toast of a notice (its action button sits beside the text). */
const toast = (title: string) => page.locator('.bp6-toast').filter({ has: page.locator(`[data-notice-title="${title}"]`) }).last();
const action = (id: string) => page.locator(`[data-batch-action="${id}"]`);
const form = (id: string) => page.locator(`.ts-batch-form[data-action="${id}"]`);
const submit = () => page.locator('.bp6-overlay-open [data-testid="batch-submit"]');
const settled = (p: Page) => p.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
const editFile = (i: number) => path.join(flow, 'edit', `${String(i + 1).padStart(3, '0')}.mp3`);

async function shot(name: string) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

async function api(method: 'GET' | 'POST', pathname: string, body?: unknown) {
  const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
  const headers = { 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' };
  const res = method === 'GET' ? await page.request.get(`${server.base}${pathname}`, { headers }) : await page.request.post(`${server.base}${pathname}`, { data: body, headers });
  return (await res.json()) as { result: boolean; message: string; data: Record<string, unknown> };
}

/** Shows `folder` in the file screen and ticks its entry `name`. */
async function tick(folder: string, name: string) {
  // ?path= opens a folder (the report's links use it too).
  await page.goto(`${server.base}/?path=${encodeURIComponent(folder)}`);
  await expect.poll(() => page.locator('.ts-tree-toolbar form input').inputValue()).toBe(folder);
  await page.locator('[data-testid="file-tree"]:not([data-loading])').waitFor();
  await box(name).click();
  await page.getByTestId('batch-bar').waitFor();
}

async function open(id: string) {
  await action(id).click();
  await form(id).waitFor();
  await settled(page);
}

/**
 * From the success notice's 查看操作记录 (or the menu's /log when the notice has none) to the log, then the newest
 * entry of `actionName` → its report; its task id.
 */
async function openNewestReport(actionName: string, via: 'notice' | 'log' = 'notice'): Promise<string> {
  if (via === 'notice') await toast('创建成功！').getByRole('button', { name: '查看操作记录' }).click();
  else await page.goto(`${server.base}/log`);
  await page.waitForURL(`${server.base}/log`);
  const entry = page.locator('[data-testid="audit-table"] tbody tr').filter({ hasText: actionName }).first();
  await entry.waitFor();
  const id = (await entry.getAttribute('data-audit-id'))!;
  await entry.getByTestId('detail-link').click();
  await page.getByTestId('log-detail').waitFor();
  return id;
}

async function undoFromReport() {
  await page.getByTestId('undo-task').click();
  await page.getByTestId('confirm-text').waitFor();
  await page.locator('.bp6-alert').getByRole('button', { name: '撤销' }).click();
  await notice('撤销成功！').waitFor();
  await page.getByTestId('report-undone').waitFor();
}

const waitForStatus = (status: string) => page.locator(`[data-testid="log-detail"][data-status="${status}"]`).waitFor({ timeout: 90_000 });

/** Every file under `dir`, relative, sorted. */
async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(path.relative(dir, path.join(e.parentPath, e.name)));
  return out.filter((f) => !f.startsWith('.tagsonic-trash')).sort();
}

beforeAll(async () => {
  await buildDashboard();
  home = await makeHome(10);
  flow = path.join(home.media, 'flow');
  await mkdir(path.join(flow, 'edit'), { recursive: true });
  // Four different recordings, each copied to a quarter of the folder (copies keep the generation quick).
  const bases: string[] = [];
  for (let b = 0; b < 4; b++) {
    const base = path.join(home.home, `base-${b}.mp3`);
    await makeAudio(base, { seconds: 1, freq: 300 + b * 90, tags: { title: `Take ${b}`, artist: 'Flow Artist', album: 'Old Album' } });
    bases.push(base);
  }
  for (let i = 0; i < EDIT_FILES; i++) await copyFile(bases[i % 4]!, editFile(i));
  await mkdir(path.join(flow, 'tidy'), { recursive: true });
  for (const [i, [artist, album, title]] of [['Aurora', 'North', 'Cold Light'], ['Aurora', 'North', 'Snow'], ['Bell', 'Tower', 'Ring']].entries()) {
    await makeAudio(path.join(flow, 'tidy', `track ${i + 1}.mp3`), { seconds: 1, freq: 500 + i * 70, tags: { title, artist, album, track: String(i + 1) } });
  }
  await mkdir(path.join(flow, 'dups'), { recursive: true });
  await makeAudio(path.join(flow, 'dups', 'song.mp3'), { seconds: 1, freq: 800, tags: { title: 'Song' } });
  await copyFile(path.join(flow, 'dups', 'song.mp3'), path.join(flow, 'dups', 'song (copy).mp3'));
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
  // The duplicate check is V2 (spec doc 1 §6): the administrator gives the account V2.
  expect((await api('POST', '/apimt/admin/users/admin/role/', { role: 'V2' })).result).toBe(true);
}, 240_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await shot(`failed-${ctx.task.name.slice(0, 40).replace(/[^\w]+/g, '-')}`).catch(() => undefined);
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (home) await rm(home.home, { recursive: true, force: true });
});

describe('batch work from the file screen to the report and back', () => {
  it('manual edit of a ticked folder: live progress in its report, the tags on disk, then undone', async () => {
    await tick(flow, 'edit');
    await open('manual');
    await form('manual').locator('[data-tag="album"]').fill('Flow Album');
    await form('manual').locator('[data-tag="title"]').fill('${file_song_name}');
    await shot('01-manual-edit-drawer');
    await submit().click();
    await notice('创建成功！').waitFor();
    await shot('02-created-notice');

    // The report's bar, watched from the moment the report is on screen.
    await page.evaluate(() => {
      const w = window as unknown as { seen: string[] };
      w.seen = [];
      new MutationObserver(() => {
        const bar = document.querySelector('[data-testid="report-progress"]');
        if (bar) w.seen.push(`${bar.getAttribute('data-done')}/${bar.getAttribute('data-total')}`);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-done'] });
    });
    await openNewestReport('手动修改');
    const running = await page.getByTestId('log-detail').getAttribute('data-status');
    if (running === 'running') await shot('03-report-running');
    await waitForStatus('success');
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    const between = seen.filter((s) => s.endsWith(`/${EDIT_FILES}`) && s !== `0/${EDIT_FILES}` && s !== `${EDIT_FILES}/${EDIT_FILES}`);
    expect(running, 'the report opened while the edit ran').toBe('running');
    expect(between.length, `progress values seen: ${seen.join(' ')}`).toBeGreaterThan(0);
    expect(await page.locator('[data-stat="success"] .ts-report-stat-value').textContent()).toBe(String(EDIT_FILES));
    await shot('04-report-done');

    // Every 20th file read back with ffprobe: the album and the title from the file name.
    const sample = Array.from({ length: EDIT_FILES / 20 }, (_, k) => k * 20 + 7);
    for (const i of sample) {
      const tags = await probeTags(editFile(i));
      expect([tags.album, tags.title], editFile(i)).toEqual(['Flow Album', String(i + 1).padStart(3, '0')]);
    }

    await undoFromReport();
    await shot('05-report-undone');
    for (const i of sample) {
      const tags = await probeTags(editFile(i));
      expect([tags.album, tags.title], editFile(i)).toEqual(['Old Album', `Take ${i % 4}`]);
    }
  }, 240_000);

  it('tidy with its preview: nothing moves until applied, the files go where the preview said, and undo puts them back', async () => {
    const before = await listing(flow);
    const root = path.join(home.media, 'tidied');
    await tick(flow, 'tidy');
    await open('tidy');
    await form('tidy').locator('#ts-tidy-root').fill(root);
    await page.locator('.bp6-overlay-open [data-testid="batch-preview"]').click();
    const table = page.getByTestId('dry-run-table');
    await table.waitFor();
    await expect.poll(() => page.getByTestId('dry-run-progress').textContent(), { timeout: 60_000 }).toMatch(/^已检查 1 \/ 1 项/); // one item per folder
    await settled(page);
    await shot('06-tidy-preview');
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.getAttribute('title') ?? td.textContent ?? '')));
    const moves = new Map(rows.filter((r) => r[1] === '移动').map((r) => [r[2]!, r[3]!]));
    expect(moves.size).toBe(3);
    expect(await listing(flow)).toEqual(before);

    await page.getByTestId('dry-run-apply').click();
    await notice('创建成功！').waitFor();
    const taskId = await openNewestReport('整理文件夹');
    await waitForStatus('success');
    for (const [from, to] of moves) {
      expect(to.startsWith(`${root}/`), to).toBe(true);
      expect((await listing(root)).map((f) => path.join(root, f))).toContain(to);
      expect(await listing(flow)).not.toContain(path.relative(flow, from));
    }
    await shot('07-tidy-report');
    expect(new URL(page.url()).pathname).toBe(`/log_detail/${taskId}/`);

    await undoFromReport();
    expect(await listing(flow)).toEqual(before);
    expect(await listing(root).catch(() => [])).toEqual([]);
    expect((await probeTags(path.join(flow, 'tidy', 'track 2.mp3'))).title).toBe('Snow');
  }, 180_000);

  it('duplicate check: its report shows the copies, deletes one, and the delete is undone', async () => {
    await tick(flow, 'dups');
    await open('duplicate');
    await shot('08-duplicate-modal');
    await submit().click();
    await notice('创建成功！').waitFor();
    await openNewestReport('重复检查');
    await waitForStatus('success');
    const hash = page.locator('[data-section="dup-hash"]');
    await hash.waitFor();
    expect(await hash.getByTestId('section-count').textContent()).toBe('1');
    await shot('09-duplicate-report');

    await hash.locator('[data-file$="/song (copy).mp3"]').first().getByTestId('delete-file').click();
    expect(await page.getByTestId('confirm-text').textContent()).toBe('确认要删除文件？');
    await page.locator('.bp6-alert').getByRole('button', { name: '删除' }).click();
    await notice('创建成功！').waitFor();
    await expect.poll(() => listing(path.join(flow, 'dups')), { timeout: 30_000 }).toEqual(['song.mp3']);

    // The delete is a task of its own on the log: its report undoes it, and the copy is back, byte for byte.
    await openNewestReport('删除文件', 'log');
    await waitForStatus('success');
    await undoFromReport();
    await shot('10-delete-undone');
    expect(await listing(path.join(flow, 'dups'))).toEqual(['song (copy).mp3', 'song.mp3']);
    expect((await probeTags(path.join(flow, 'dups', 'song (copy).mp3'))).title).toBe('Song');
  }, 120_000);
});
