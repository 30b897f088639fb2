/**
 * /log and /log_detail/{id}/ in chromium against a real server: a replace_text dry run over real MP3 files
 * is opened from the operation log, its report lists every change and nothing on disk moved; applying it opens
 * the new task's report, whose progress bar moves live over SSE while the files change (read back with
 * ffprobe); the section pages 10 rows at a time; Undo task puts every title back. The runtime log polls and shows
 * the server process's own lines, and the feedback dialog refuses a reason under 20 characters without sending it. Screenshots light and dark, desktop and narrow, go to /tmp/shots-log-ui/.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { makeAudio, probeTags } from '../support/audio.ts';
import { buildDashboard, launchBrowser, makeHome, newContext, startServer, type Home, type Server } from './harness.ts';

const PASSWORD = 'logs-browser-password';
const SHOTS = '/tmp/shots-log-ui';
/** Enough files for a task that runs for a moment and a section with several pages of 10. */
const FILES = 36;
/** Empty .mp3 files (media/big): each item fails at once with its reason, and the task runs long enough to stop. */
const BIG = 2000;

let home: Home;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let folder: string;
const files: string[] = [];
/** Uncaught errors in the page: any of them fails the test that caused it. */
const pageErrors: string[] = [];
const original = (i: number) => `Song ${String(i + 1).padStart(2, '0')} (Official Video)`;
const cleaned = (i: number) => `Song ${String(i + 1).padStart(2, '0')}`;

const notice = (p: Page, title: string) => p.locator(`.bp6-toast [data-notice-title="${title}"]`).last();

async function api(p: Page, method: 'GET' | 'POST', pathname: string, body?: unknown) {
  const csrf = (await p.context().cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
  const headers = { 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' };
  const res = method === 'GET' ? await p.request.get(`${server.base}${pathname}`, { headers }) : await p.request.post(`${server.base}${pathname}`, { data: body, headers });
  return (await res.json()) as { result: boolean; message: string; data: Record<string, unknown> };
}

async function shot(name: string) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
}

/** Both themes at the current viewport, once `ready` is visible; the theme is the one the theme drawer stores. */
async function shots(name: string, ready: string) {
  for (const theme of ['dark', 'light']) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme);
    await page.reload();
    await page.locator(ready).first().waitFor();
    await shot(`${name}-${theme}`);
  }
}

const titles = () => Promise.all(files.map(async (f) => (await probeTags(f)).title));

async function waitForStatus(status: string) {
  await page.locator(`[data-testid="log-detail"][data-status="${status}"]`).waitFor({ timeout: 60_000 });
}

beforeAll(async () => {
  await buildDashboard();
  home = await makeHome(BIG);
  folder = path.join(home.media, 'logs');
  await mkdir(folder);
  for (let i = 0; i < FILES; i++) {
    const file = path.join(folder, `${String(i + 1).padStart(2, '0')}.mp3`);
    await makeAudio(file, { seconds: 1, freq: 300 + i * 10, tags: { title: original(i), artist: 'Log Tester', album: 'Report Album' } });
    files.push(file);
  }
  const dups = path.join(home.media, 'dups');
  await mkdir(dups);
  await makeAudio(path.join(dups, 'one.mp3'), { seconds: 1, freq: 500, tags: { title: 'One' } });
  await copyFile(path.join(dups, 'one.mp3'), path.join(dups, 'one (1).mp3'));
  await makeAudio(path.join(dups, 'two.mp3'), { seconds: 1, freq: 700, tags: { title: 'Two' } });
  await copyFile(path.join(dups, 'two.mp3'), path.join(dups, 'two (2).mp3'));
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
  // The duplicate check is V2 (spec doc 1 §2): the administrator gives the account V2.
  expect((await api(page, 'POST', '/apimt/admin/users/admin/role/', { role: 'V2' })).result).toBe(true);
}, 240_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await shot(`failed-${ctx.task.name.slice(0, 40).replace(/[^\w]+/g, '-')}`).catch(() => undefined);
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('operation log and task report', () => {
  it('opens a dry run from the log, applies it with live progress, pages the report and undoes the task', async () => {
    const created = await api(page, 'POST', '/apimt/replace_text/', {
      file_full_path: home.media,
      select_data: [{ icon: 'folder', name: 'logs', title: 'logs' }],
      replace_text_list: [{ before: ' (Official Video)', after: '' }],
      modify_list: ['title'],
      replace_mode: 'text',
      dry_run: true,
    });
    expect(created.result, created.message).toBe(true);
    const dryId = String(created.data.task_id);

    // The operation log lists it with its action, level, status and a link to its report.
    await page.goto(`${server.base}/log`);
    const entry = page.locator(`[data-testid="audit-table"] tr[data-audit-id="${dryId}"]`);
    await entry.waitFor();
    await expect.poll(async () => (await api(page, 'GET', `/apimt/audit_log_detail/?id=${dryId}`)).data.status, { timeout: 30_000 }).toBe('success');
    await page.reload();
    await expect.poll(() => entry.locator('td').nth(3).textContent()).toBe('替换文本');
    await expect.poll(() => entry.getByTestId('audit-status').textContent()).toBe('成功');
    expect(await entry.locator('[data-level]').textContent()).toBe('info');
    expect(await page.getByTestId('audit-page-label').textContent()).toContain('第 1 / 1 页');
    await expect.poll(() => page.getByRole('button', { name: '下一页' }).isDisabled()).toBe(true);
    await shots('01-operation-log', '[data-testid="audit-table"]');

    // The dry run's report: every file listed with its change, nothing written.
    await entry.getByTestId('detail-link').click();
    await page.waitForURL(`${server.base}/log_detail/${dryId}/`);
    await waitForStatus('success');
    await page.getByTestId('dry-run-note').waitFor();
    const success = page.locator('[data-section="success"]');
    expect(await success.getByTestId('section-count').textContent()).toBe(String(FILES));
    expect(await success.locator('tbody tr').count()).toBe(10);
    const firstChange = success.locator('tbody tr').first().locator('.ts-report-changes li');
    expect(await firstChange.textContent()).toBe(`title ${original(0)} → ${cleaned(0)}`);
    expect(await page.locator('[data-stat="total"] .ts-report-stat-value').textContent()).toBe(String(FILES));
    expect(await titles()).toEqual(files.map((_, i) => original(i)));
    // Later pages of a section come from the server, 10 rows each.
    await success.getByRole('button', { name: '下一页' }).click();
    await expect.poll(() => success.getByTestId('section-page-label').textContent()).toBe(`第 2 / ${Math.ceil(FILES / 10)} 页`);
    await expect.poll(() => success.locator('tbody tr').first().getAttribute('data-path')).toBe(files[10]);
    expect(await success.locator('tbody tr td').first().textContent()).toBe('11');
    await shots('02-dry-run-report', '[data-section="success"] tbody tr');

    // Apply: the new task's report opens while it runs and its bar moves with the workers' events.
    await page.evaluate(() => {
      const w = window as unknown as { seen: string[] };
      w.seen = [];
      new MutationObserver(() => {
        const bar = document.querySelector('[data-testid="report-progress"]');
        if (bar) w.seen.push(`${bar.getAttribute('data-done')}/${bar.getAttribute('data-total')}`);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-done'] });
    });
    await page.getByTestId('apply-task').click();
    await notice(page, '创建成功！').waitFor();
    await page.waitForURL((u) => u.pathname.startsWith('/log_detail/') && !u.pathname.includes(dryId));
    const appliedId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    await waitForStatus('success');
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    const moving = seen.filter((s) => s !== `0/${FILES}` && s !== `${FILES}/${FILES}` && s.endsWith(`/${FILES}`));
    expect(moving.length, `progress values seen: ${seen.join(' ')}`).toBeGreaterThan(0);
    expect(await page.locator('[data-stat="success"] .ts-report-stat-value').textContent()).toBe(String(FILES));
    expect(await page.locator('[data-stat="rate"] .ts-report-stat-value').textContent()).toBe('100%');
    expect(await titles()).toEqual(files.map((_, i) => cleaned(i)));
    await shots('03-applied-report', '[data-section="success"] tbody tr');

    // Both tasks are in the log now, the newest first (the file watcher's library scans may land between and above them).
    await page.goto(`${server.base}/log`);
    await page.locator(`[data-testid="audit-table"] tr[data-audit-id="${appliedId}"]`).waitFor();
    const order = await page.locator('[data-testid="audit-table"] tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-audit-id')));
    expect(order).toContain(dryId);
    expect(order.indexOf(appliedId)).toBeLessThan(order.indexOf(dryId));

    // One title is edited by hand afterwards: Undo task leaves that file alone until told to undo anyway.
    const edited = await api(page, 'POST', '/apimt/update_id3/', { music_id3_info: [{ file_full_path: files[0], title: 'Edited by hand' }] });
    expect(edited.result, edited.message).toBe(true);
    await expect.poll(async () => (await probeTags(files[0])).title, { timeout: 30_000 }).toBe('Edited by hand');

    // Undo task puts every other title back.
    await page.goto(`${server.base}/log_detail/${appliedId}/`);
    await waitForStatus('success');
    await page.getByTestId('undo-task').click();
    await page.getByTestId('confirm-text').waitFor();
    await shot('04-undo-confirm-light');
    await page.locator('.bp6-alert').getByRole('button', { name: '撤销' }).click();
    const undoNotice = notice(page, '撤销成功！');
    await undoNotice.waitFor();
    expect(await undoNotice.textContent()).toContain(files[0]);
    await page.getByTestId('report-undone').waitFor();
    expect(await page.getByTestId('undo-task').count()).toBe(0);
    expect(await titles()).toEqual(files.map((_, i) => (i === 0 ? 'Edited by hand' : original(i))));
    await shot('04b-undo-conflict-light');
    await page.locator('.bp6-toast').getByText('仍然撤销').last().click();
    await expect.poll(async () => (await probeTags(files[0])).title, { timeout: 30_000 }).toBe(original(0));
    expect(await titles()).toEqual(files.map((_, i) => original(i)));
  }, 180_000);

  it('stops one queued item and then the task while it runs; failures say why', async () => {
    const created = await api(page, 'POST', '/apimt/replace_text/', {
      file_full_path: home.media,
      select_data: [{ icon: 'folder', name: 'big', title: 'big' }],
      replace_text_list: [{ before: 'track', after: 'piste' }],
      modify_list: ['title'],
      replace_mode: 'text',
    });
    expect(created.result, created.message).toBe(true);
    const id = String(created.data.task_id);
    // The log shows it running; its report opens from there.
    await page.goto(`${server.base}/log`);
    const entry = page.locator(`[data-testid="audit-table"] tr[data-audit-id="${id}"]`);
    await expect.poll(() => entry.getByTestId('audit-status').textContent()).toBe('进行中');
    await entry.getByTestId('detail-link').click();
    await page.getByTestId('stop-task').waitFor();
    const running = page.locator('[data-section="running"]');
    // The rows are as of the last refresh (3 s): the item may have run meanwhile, and then the server refuses.
    // Items already running have no stop button (16 run at once, more than a page of 10): page on to a queued one.
    await running.locator('tbody tr').first().waitFor();
    for (let i = 0; i < 5 && (await running.getByTestId('stop-item').count()) === 0; i++) {
      await running.getByRole('button', { name: '下一页' }).click();
      await page.waitForTimeout(200);
    }
    const queued = running.locator('tbody tr').filter({ has: page.getByTestId('stop-item') }).last();
    const queuedId = await queued.getAttribute('data-row-id');
    const answer = page.waitForResponse((r) => r.url().includes('/apimt/stop_audit_log_detail_run/'));
    await queued.getByTestId('stop-item').click();
    const stoppedOne = (await (await answer).json()) as { result: boolean };
    await notice(page, stoppedOne.result ? '停止成功！' : '停止失败！').waitFor();
    await page.getByTestId('stop-task').click();
    await notice(page, '停止成功！').waitFor();
    await waitForStatus('stop');
    expect(await page.getByTestId('report-status').textContent()).toBe('停止');
    expect(await page.getByTestId('stop-task').count()).toBe(0);
    const stopped = page.locator('[data-section="stop"]');
    await stopped.waitFor();
    expect(Number(await stopped.getByTestId('section-count').textContent())).toBeGreaterThan(0);
    if (stoppedOne.result) {
      const detail = await api(page, 'GET', `/apimt/audit_log_detail/?id=${id}&section=stop&page=1&page_size=${BIG}`);
      expect((detail.data.stop as Array<{ id: string }>).map((r) => r.id)).toContain(queuedId);
    }
    // Items that ran before the stop failed, each with its reason beside the file.
    const failed = page.locator('[data-section="fail"]');
    await failed.waitFor();
    expect((await failed.locator('tbody tr').first().locator('.ts-report-reason').textContent())?.length).toBeGreaterThan(0);
    expect(Number(await page.locator('[data-stat="fail"] .ts-report-stat-value').textContent())).toBeGreaterThan(0);
    // Queued items end as stopped when a worker reaches them; the page follows until none is left.
    await page.locator('[data-section="running"]').waitFor({ state: 'detached', timeout: 60_000 });
    // Every item is accounted for: those that ran failed, the rest were stopped (how many ran first depends on the machine's load).
    const stoppedCount = Number(await stopped.getByTestId('section-count').textContent());
    expect(stoppedCount + Number(await page.locator('[data-stat="fail"] .ts-report-stat-value').textContent())).toBe(BIG);
    await shots('09-stopped-report', '[data-section="fail"] tbody tr');
    // A failed row opens its folder in the file screen, where the file can be edited.
    await failed.locator('tbody tr').first().getByTestId('edit-in-folder').click();
    await page.waitForURL(`${server.base}/`);
    await page.getByText('track 00001.mp3').first().waitFor();
  }, 120_000);

  it('shows a duplicate check as its duplicate detail, deletes one file and deletes by rules', async () => {
    const dups = path.join(home.media, 'dups');
    const created = await api(page, 'POST', '/apimt/check_file_duplicates/', { file_full_path: home.media, select_data: [{ icon: 'folder', name: 'dups', title: 'dups' }] });
    expect(created.result, created.message).toBe(true);
    await page.goto(`${server.base}/log_detail/${String(created.data.task_id)}/`);
    await waitForStatus('success');
    const hash = page.locator('[data-section="dup-hash"]');
    const byName = page.locator('[data-section="dup-name"]');
    await hash.waitFor();
    expect(await hash.getByTestId('section-count').textContent()).toBe('2');
    expect(await byName.getByTestId('section-count').textContent()).toBe('2');
    expect(await page.locator('[data-section="success"]').count()).toBe(0);
    await shots('10-duplicate-report', '[data-section="dup-hash"] tbody tr');

    // One file: asked first, then a delete task of its own; the file leaves the folder.
    await hash.locator('[data-file$="/one (1).mp3"]').first().getByTestId('delete-file').click();
    expect(await page.getByTestId('confirm-text').textContent()).toBe('确认要删除文件？');
    await page.locator('.bp6-alert').getByRole('button', { name: '删除' }).click();
    await notice(page, '创建成功！').waitFor();
    await hash.locator('[data-file$="/one (1).mp3"]').first().getByText('已提交删除').waitFor();
    await expect.poll(() => readdir(dups), { timeout: 30_000 }).not.toContain('one (1).mp3');

    // By rules (the spec's defaults: the longer name goes): the delete task's report opens.
    await byName.getByTestId('rule-delete').click();
    await page.locator('.ts-rules-dialog').waitFor();
    await page.waitForTimeout(500); // the dialog's opening transition
    await shot('11-rules-dialog-light');
    // 预览 lists what the rules would delete, touching nothing; deleting then deletes exactly that list.
    await page.getByTestId('rules-submit').click();
    const listed = page.getByTestId('rules-preview-table').locator('tr');
    await listed.first().waitFor();
    expect(await listed.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-path')))).toEqual([path.join(dups, 'two (2).mp3')]);
    expect(await page.getByTestId('rules-preview-count').textContent()).toBe('将删除 1 个文件（放入回收站，可撤销）：');
    expect((await readdir(dups)).sort()).toEqual(['one.mp3', 'two (2).mp3', 'two.mp3']);
    await page.waitForTimeout(500); // the dialog's opening transition
    await shot('11b-rules-preview-light');
    await page.getByTestId('rules-apply').click();
    await notice(page, '创建成功！').waitFor();
    await page.waitForURL((u) => !u.pathname.includes(String(created.data.task_id)));
    await page.locator('[data-testid="log-detail"]:not([data-status="running"])').waitFor({ timeout: 60_000 });
    expect(await page.locator('.ts-report-name h3').textContent()).toBe('删除文件');
    await expect.poll(async () => (await readdir(dups)).sort(), { timeout: 30_000 }).toEqual(['one.mp3', 'two.mp3']);
    // The check's report lists what was deleted from it.
    await page.goto(`${server.base}/log_detail/${String(created.data.task_id)}/`);
    await page.locator('[data-section="delete"]').waitFor();
    expect(await page.locator('[data-section="delete"]').getByTestId('section-count').textContent()).toBe('2');
    await hash.locator('[data-file$="/two (2).mp3"]').first().getByText('已删除').waitFor();
    expect(await page.getByTestId('undo-task').count()).toBe(0);
    await shots('12-duplicate-report-after-deletes', '[data-section="delete"] tbody tr');
  }, 120_000);

  it('refreshes the log while a task on it runs', async () => {
    await page.goto(`${server.base}/log`);
    await page.locator('[data-testid="audit-table"]').waitFor();
    const created = await api(page, 'POST', '/apimt/replace_text/', { select_data: [path.join(home.media, 'big')], replace_text_list: [{ before: 'a', after: 'b' }], modify_list: ['title'], replace_mode: 'text' });
    const id = String(created.data.task_id);
    const entry = page.locator(`[data-testid="audit-table"] tr[data-audit-id="${id}"]`);
    await page.reload();
    await expect.poll(() => entry.getByTestId('audit-status').textContent()).toBe('进行中');
    expect((await api(page, 'POST', '/apimt/stop_audit_log_detail/', { id })).result).toBe(true);
    // No reload: the page refreshes itself while an entry on it runs.
    await expect.poll(() => entry.getByTestId('audit-status').textContent(), { timeout: 15_000 }).toBe('停止');
  }, 60_000);

  it('filters by action: the request names the action, only its entries show, an empty filter says so', async () => {
    await page.goto(`${server.base}/log`);
    await page.locator('[data-testid="audit-table"]').waitFor();
    const asked = page.waitForRequest((r) => r.url().includes('/apimt/audit_log/') && new URL(r.url()).searchParams.get('action') === '重复检查');
    await page.locator('[data-filter="duplicate"]').click();
    const request = await asked;
    expect(new URL(request.url()).searchParams.get('page_size')).toBe('50');
    await expect.poll(async () => [...new Set(await page.locator('[data-testid="audit-table"] tbody tr td:nth-child(4)').allTextContents())]).toEqual(['重复检查']);
    await page.locator('[data-filter="background"]').click();
    await page.getByText('还没有操作记录').waitFor();
    await page.locator('[data-filter="all"]').click();
    await page.locator('[data-testid="audit-table"]').waitFor();
  });
});

describe('operation log pages', () => {
  it('pages 50 entries at a time with previous, next and a page jump', async () => {
    // Enough dry runs (one file each) for a second page.
    const before = Number((await api(page, 'GET', '/apimt/audit_log/?page=1&page_size=50')).data.count);
    for (let i = before; i <= 50; i++) {
      const r = await api(page, 'POST', '/apimt/replace_text/', { select_data: [files[0]], replace_text_list: [{ before: 'Song', after: 'Track' }], modify_list: ['title'], replace_mode: 'text', dry_run: true });
      expect(r.result, r.message).toBe(true);
    }
    const count = Number((await api(page, 'GET', '/apimt/audit_log/?page=1&page_size=50')).data.count);
    expect(count).toBeGreaterThan(50);
    await page.goto(`${server.base}/log`);
    const rows = page.locator('[data-testid="audit-table"] tbody tr');
    await expect.poll(() => rows.count()).toBe(50);
    expect(await page.getByTestId('audit-page-label').textContent()).toBe(`第 1 / 2 页，共 ${count} 条`);
    const next = page.getByTestId('audit-pager').getByRole('button', { name: '下一页' });
    const previous = page.getByTestId('audit-pager').getByRole('button', { name: '上一页' });
    expect(await previous.isDisabled()).toBe(true);
    await next.click();
    await expect.poll(() => rows.count()).toBe(count - 50);
    expect(await next.isDisabled()).toBe(true);
    await previous.click();
    await expect.poll(() => rows.count()).toBe(50);
    // The jump takes a page number; one past the last goes to the last, below 1 to the first.
    const jump = page.getByRole('spinbutton', { name: '跳转到页码' });
    await jump.fill('9');
    await jump.press('Enter');
    await expect.poll(() => page.getByTestId('audit-page-label').textContent()).toBe(`第 2 / 2 页，共 ${count} 条`);
    expect(await jump.inputValue()).toBe('2');
    await jump.fill('0');
    await jump.press('Enter');
    await expect.poll(() => page.getByTestId('audit-page-label').textContent()).toBe(`第 1 / 2 页，共 ${count} 条`);
  }, 120_000);

  it('speaks English when the interface does', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
    try {
      await page.goto(`${server.base}/log`);
      await page.locator('[data-testid="audit-table"]').waitFor();
      expect(await page.locator('[data-filter="duplicate"]').textContent()).toBe('Duplicate check');
      expect(await page.getByTestId('audit-page-label').textContent()).toMatch(/^Page 1 of 2, \d+ entries$/);
      await shot('13-operation-log-en-light');
      const id = await page.locator('[data-testid="audit-table"] tbody tr[data-status="success"]').first().getAttribute('data-audit-id');
      await page.goto(`${server.base}/log_detail/${id}/`);
      await page.getByTestId('report-stats').waitFor();
      expect(await page.locator('[data-stat="complete"] .ts-small').textContent()).toBe('Completed');
      await shot('14-report-en-light');
    } finally {
      await page.evaluate(() => localStorage.setItem('lang', 'zh-CN'));
    }
  });
});

describe('runtime log', () => {
  it('shows the server process\'s own lines, keeps polling, and refuses feedback under 20 characters', async () => {
    await page.goto(`${server.base}/log`);
    const asked = page.waitForRequest((r) => r.url().includes('/apimt/runtime_log/'));
    await page.getByRole('tab', { name: '运行日志' }).click();
    const request = await asked;
    expect(request.postDataJSON()).toEqual({ type: 'gunicorn' });
    await page.waitForURL(`${server.base}/log?tab=runtime`);
    expect(await page.locator('[data-process]').allTextContents()).toEqual(['gunicorn', 'nginx', 'beat', 'worker', 'redis', 'xiaoai']);
    expect(await page.locator('#ts-runtime-interval').inputValue()).toBe('5');
    // The server's own runtime log (gateway/src/routes/runtime-log.ts): its start-up line, still polling.
    await expect.poll(() => page.getByTestId('runtime-run').inputValue()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\//);
    expect(await page.getByTestId('runtime-error').count()).toBe(0);
    expect(await page.getByTestId('runtime-toggle').textContent()).toBe('停止刷新');
    await page.locator('[data-process="redis"]').click();
    await expect.poll(() => page.getByTestId('runtime-run').inputValue()).toMatch(/bus is embedded/);
    await shots('05-runtime-log', '[data-testid="runtime-log"]');

    const uploads: string[] = [];
    page.on('request', (r) => r.url().includes('/apimt/upload_log/') && uploads.push(r.url()));
    await page.getByTestId('feedback-open').click();
    await page.getByTestId('feedback-reason').fill('日志里有错误');
    await page.getByTestId('feedback-send').click();
    await notice(page, '反馈失败！').waitFor();
    expect(await notice(page, '反馈失败！').textContent()).toContain('反馈理由至少20字');
    await shot('06-feedback-too-short-light');
    expect(uploads).toEqual([]);
  });
});

describe('runtime log with long logs', () => {
  // The page's request is answered in the browser with 400 lines per process (a fresh test server has a few), to
  // check what the page itself does with logs: each tab asks for its process, the text areas end at the newest
  // line, the interval and start/stop govern the polling.
  it('shows the newest lines and polls at the chosen interval until stopped', async () => {
    const asked: string[] = [];
    await page.route('**/apimt/runtime_log/', async (route) => {
      const type = (route.request().postDataJSON() as { type: string }).type;
      asked.push(type);
      const lines = (kind: string) => Array.from({ length: 400 }, (_, i) => `${type} ${kind} line ${i + 1} (fetch ${asked.length})`).join('\n');
      await route.fulfill({ json: { result: true, code: 0, message: 'ok', data: { log: lines('run'), fail_log: lines('error') } } });
    });
    try {
      await page.goto(`${server.base}/log?tab=runtime`);
      await page.locator('[data-testid="runtime-log"][data-fetches="1"]').waitFor();
      for (const area of ['runtime-run', 'runtime-fail']) {
        await expect.poll(() => page.getByTestId(area).evaluate((el) => Math.abs(el.scrollHeight - el.clientHeight - el.scrollTop))).toBeLessThan(2);
      }
      expect(await page.getByTestId('runtime-run').inputValue()).toContain('gunicorn run line 400');
      await page.locator('[data-process="worker"]').click();
      await expect.poll(() => page.getByTestId('runtime-run').inputValue()).toContain('worker run line 400');
      expect(asked.at(-1)).toBe('worker');
      // 1 s: several fetches in a few seconds; stopped: none.
      await page.locator('#ts-runtime-interval').fill('1');
      await page.locator('#ts-runtime-interval').press('Enter');
      const before = asked.length;
      await page.waitForTimeout(3500);
      expect(asked.length - before).toBeGreaterThanOrEqual(2);
      await page.getByTestId('runtime-toggle').click();
      expect(await page.getByTestId('runtime-toggle').textContent()).toBe('开始刷新');
      const stopped = asked.length;
      await page.waitForTimeout(2500);
      expect(asked.length).toBe(stopped);
      await shots('15-runtime-log-with-lines', '[data-testid="runtime-log"]');
    } finally {
      await page.unroute('**/apimt/runtime_log/');
    }
  });
});

describe('a task that is not one file per item', () => {
  it("shows a library scan's report: its one item is the whole task", async () => {
    // Scans come from Subsonic clients and from the file watcher, so they land on the log between batch tasks.
    expect((await api(page, 'POST', '/apimt/admin/users/admin/subsonic_password/', { password: 'scan-secret' })).result).toBe(true);
    const salt = randomBytes(6).toString('hex');
    const auth = `u=admin&t=${createHash('md5').update(`scan-secret${salt}`).digest('hex')}&s=${salt}&v=1.16.1&c=logs-test&f=json`;
    const started = (await (await fetch(`${server.base}/rest/startScan?${auth}`)).json()) as { 'subsonic-response': { status: string } };
    expect(started['subsonic-response'].status).toBe('ok');
    const scan = async () => ((await api(page, 'GET', '/apimt/audit_log/?page=1&page_size=50')).data.items as Array<{ id: string; action: string; status: string }>).find((e) => e.action === '媒体库扫描');
    await expect.poll(async () => (await scan())?.status, { timeout: 60_000 }).toBe('success');
    await page.goto(`${server.base}/log_detail/${(await scan())!.id}/`);
    await waitForStatus('success');
    const row = page.locator('[data-section="success"] tbody tr').first();
    await row.waitFor();
    expect(await row.locator('.ts-report-file > div').first().textContent()).toBe('整个任务');
  }, 90_000);
});

describe('narrow screens', () => {
  it('shows the log and the report on a phone-sized screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.base}/log`);
    await shots('07-operation-log-narrow', '[data-testid="audit-table"]');
    const id = await page.locator('[data-testid="audit-table"] tbody tr').first().getAttribute('data-audit-id');
    await page.goto(`${server.base}/log_detail/${id}/`);
    await shots('08-report-narrow', '[data-testid="report-stats"]');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1400, height: 860 });
  });
});
