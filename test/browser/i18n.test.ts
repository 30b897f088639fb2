/**
 * Server messages and dates in the interface language (issue 10 item 8): the dashboard shows each
 * failure's text for its TAGSONIC_ERR_* code in zh-CN (the default) or English, never the server's
 * English inside a Chinese notice; dates read 2026-11-24 23:36 in zh-CN; notices sit below the header.
 * Screenshots go to test/browser/screenshots/i18n-*.png.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildDashboard, launchBrowser, makeHome, newContext, screenshot, startServer, type Home, type Server } from './harness.ts';
import { textFrame, txxxFrame, writeMp3WithTag } from '../support/oversize-tags.ts';

const PASSWORD = 'i18n-test-password';
const BOB_PASSWORD = 'i18n-bob-password';

let home: Home;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const notice = (title: string) => page.locator(`.bp6-toast [data-notice-title="${title}"]`);
const noticeText = (title: string) => notice(title).locator('.ts-notice-content').textContent();

async function signIn(p: Page, username: string, password: string) {
  await p.goto(`${server.base}/login`);
  await p.fill('#ts-username', username);
  await p.fill('#ts-password', password);
  await p.press('#ts-password', 'Enter');
}

async function setLanguage(p: Page, lang: 'en' | 'zh-CN') {
  await p.evaluate((l) => localStorage.setItem('lang', l), lang);
  await p.reload();
  await expect.poll(() => p.evaluate(() => document.documentElement.lang)).toBe(lang);
}

/** The toast sits wholly below the header (it used to cover the tabs). */
async function belowHeader(p: Page, title: string) {
  const header = await p.locator('.ts-header').boundingBox();
  const toast = p.locator('.bp6-toast', { has: p.locator(`[data-notice-title="${title}"]`) });
  // Polled: the toast slides in from above.
  await expect.poll(async () => (await toast.boundingBox())!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
}

beforeAll(async () => {
  await buildDashboard();
  home = await makeHome(10);
  server = await startServer(home.home, PASSWORD);
  browser = await launchBrowser();
  context = await newContext(browser, { width: 1440, height: 900 });
  page = await context.newPage();
}, 240_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `i18n-failed-${ctx.task.name.slice(0, 40).replace(/[^\w]+/g, '-')}`).catch(() => undefined);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (home) await rm(home.home, { recursive: true, force: true });
});

describe('server messages in the interface language', { timeout: 120_000 }, () => {
  it('a wrong password says 用户名或密码错误 (English: Wrong username or password.)', async () => {
    await signIn(page, 'admin', 'wrong-password');
    await notice('登录失败！').waitFor();
    expect(await noticeText('登录失败！')).toBe('用户名或密码错误');
    await screenshot(page, 'i18n-01-login-zh');
    await setLanguage(page, 'en');
    await signIn(page, 'admin', 'wrong-password');
    await notice('Login failed!').waitFor();
    expect(await noticeText('Login failed!')).toBe('Wrong username or password.');
    await setLanguage(page, 'zh-CN');
  });

  it('a bad activation code is explained in Chinese, in a notice below the header tabs', async () => {
    await signIn(page, 'admin', PASSWORD);
    await page.waitForURL(`${server.base}/`);
    await page.getByTestId('role-badge').click();
    await page.locator('#ts-activation-code').fill('not-a-code');
    await page.locator('.bp6-dialog button[type="submit"]').click();
    await notice('激活失败！').waitFor();
    const text = await noticeText('激活失败！');
    expect(text).toMatch(/[\u4e00-\u9fff]/);
    expect(text).not.toMatch(/[A-Za-z]{4,}/);
    await belowHeader(page, '激活失败！');
    await screenshot(page, 'i18n-02-activation-zh');
    await page.keyboard.press('Escape');

    await setLanguage(page, 'en');
    await page.getByTestId('role-badge').click();
    await page.locator('#ts-activation-code').fill('not-a-code');
    await page.locator('.bp6-dialog button[type="submit"]').click();
    await notice('Activation failed!').waitFor();
    expect(await noticeText('Activation failed!')).not.toMatch(/[\u4e00-\u9fff]/);
    await belowHeader(page, 'Activation failed!');
    await screenshot(page, 'i18n-03-activation-en');
    await page.keyboard.press('Escape');
    await setLanguage(page, 'zh-CN');
  });

  it('dates in the admin backend use the UI locale', async () => {
    const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
    const made = await page.request.post(`${server.base}/apimt/admin/users/`, {
      data: { username: 'bob', password: BOB_PASSWORD, role: 'V1', is_admin: false },
      headers: { 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' },
    });
    expect(made.ok()).toBe(true);
    await page.goto(`${server.base}/admin/`);
    const created = page.locator('[data-testid="admin-page"] tr', { hasText: 'bob' }).locator('td.ts-small').first();
    await expect.poll(() => created.textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await screenshot(page, 'i18n-04-admin-dates-zh');
    await setLanguage(page, 'en');
    await expect.poll(() => created.textContent()).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    await setLanguage(page, 'zh-CN');
  });

  it("a non-administrator's refusal in the admin backend is in Chinese", async () => {
    const bobContext = await newContext(browser, { width: 1440, height: 900 });
    const bob = await bobContext.newPage();
    try {
      await signIn(bob, 'bob', BOB_PASSWORD);
      await bob.waitForURL(`${server.base}/`);
      await bob.goto(`${server.base}/admin/`);
      await bob.locator('.ts-page').getByText('只有管理员可以执行此操作', { exact: true }).waitFor();
      await screenshot(bob, 'i18n-05-admin-refused-zh');
      await setLanguage(bob, 'en');
      await bob.locator('.ts-page').getByText('Only an administrator can do this.', { exact: true }).waitFor();
    } finally {
      await bobContext.close();
    }
  });
});

describe('failed task items in the interface language', { timeout: 120_000 }, () => {
  const name = 'oversize-tag.mp3';
  let folder: string;

  /** Opens the file in the editor through the path box, as a user typing a path would. */
  async function openInEditor(pathLabel: string) {
    const box = page.locator(`.ts-tree-toolbar input[aria-label="${pathLabel}"]`);
    // The first listing (the media root) must be in, or it would put its path back into the box.
    await page.locator('[data-testid="file-tree"]:not([data-loading]) li[data-name="codes"]').waitFor();
    await box.fill(folder);
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe(folder);
    await page.locator(`[data-testid="file-tree"] li[data-name="${name}"] .ts-tree-button`).click();
    await expect.poll(() => page.locator('#ts-field-title').inputValue()).toBe('Kept');
  }

  async function openBell(label: string) {
    await page.getByRole('button', { name: label, exact: true }).click();
    // Screenshots wait for the popover's zoom-in to end (its box is then its layout size).
    const list = page.locator('.ts-bell-list');
    await expect.poll(() => list.evaluate((el) => Math.round(el.getBoundingClientRect().width) === (el as HTMLElement).offsetWidth)).toBe(true);
    return list.locator('li').first();
  }

  it('saving onto a file whose tag is beyond bounds says why, in Chinese and then in English; so does the bell', async () => {
    // A 5 MiB TXXX frame: the editor reads the file (the frame is left out), the writer refuses to rewrite it.
    folder = path.join(home.media, 'codes');
    await mkdir(folder, { recursive: true });
    await writeMp3WithTag(path.join(folder, name), [textFrame('TIT2', 'Kept'), txxxFrame('JUNK', 5 * 1024 * 1024)]);
    await page.goto(`${server.base}/`);
    if (page.url().includes('/login')) {
      await signIn(page, 'admin', PASSWORD);
      await page.waitForURL(`${server.base}/`);
    }
    await openInEditor('路径');
    await page.locator('#ts-field-title').fill('改一下');
    await page.getByTestId('save-button').click();
    await notice('修改失败！').waitFor();
    expect(await noticeText('修改失败！')).toBe('文件的标签超出大小限制（封面、单个字段、帧数量或标签总大小），文件可能已损坏');
    await screenshot(page, 'i18n-06-save-refused-zh');

    const zh = await openBell('通知');
    await expect.poll(() => zh.locator('.ts-bell-title').textContent()).toBe('手动修改 失败');
    expect(await zh.locator('.ts-bell-content').textContent()).toBe(
      `1 个文件失败（共 1 个）：${path.join(folder, name)}: 文件的标签超出大小限制（封面、单个字段、帧数量或标签总大小），文件可能已损坏`,
    );
    await screenshot(page, 'i18n-07-bell-zh');
    await page.keyboard.press('Escape');

    await setLanguage(page, 'en');
    await openInEditor('Path');
    await page.locator('#ts-field-title').fill('Changed');
    await page.getByTestId('save-button').click();
    await notice('Save failed!').waitFor();
    expect(await noticeText('Save failed!')).toBe("The file's tags are beyond the size limits (cover, a single field, frame count or total size); the file may be malformed.");
    await screenshot(page, 'i18n-08-save-refused-en');

    const en = await openBell('Notifications');
    await expect.poll(() => en.locator('.ts-bell-title').textContent()).toBe('Manual edit failed');
    const content = await en.locator('.ts-bell-content').textContent();
    expect(content).toBe(`1 of 1 file failed: ${path.join(folder, name)}: The file's tags are beyond the size limits (cover, a single field, frame count or total size); the file may be malformed.`);
    expect(content).not.toMatch(/[\u4e00-\u9fff]/);
    await screenshot(page, 'i18n-09-bell-en');
    await page.keyboard.press('Escape');
    await setLanguage(page, 'zh-CN');
  });
});
