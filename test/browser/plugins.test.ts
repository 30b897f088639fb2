/**
 * The plugin screens (/mod, /actionMod) in chromium against a real server: the built-in sources are listed,
 * a plugin zip built here is uploaded from the market tab, its permissions are read before it is enabled
 * (a missing required setting is refused and said in Chinese), it is configured (the secret comes back masked),
 * a second version is uploaded and rolled back, versions and the plugin are removed, a bad zip shows the
 * package error, and a non-administrator sees everything without the actions. Screenshots light and dark,
 * desktop and narrow, go to test/browser/screenshots/plugins-*.png.
 */
import { rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import yazl from 'yazl';
import { serverMessage } from '../../dashboard/src/lib/server-messages.ts';
import { freePort } from '../support/free-port.ts';
import { buildDashboard, launchBrowser, makeHome, newContext, screenshot, startServer, type Home, type Server } from './harness.ts';

const PASSWORD = 'plugins-browser-password';
const USER = { username: 'viewer', password: 'viewer-password-1' };

let home: Home;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const manifest = (version: string) => ({
  id: 'mirror_lyrics',
  name: 'Mirror Lyrics',
  version,
  description: 'Lyrics from a self-hosted LrcApi mirror.',
  kind: 'tag-source',
  entry: 'index.js',
  config: {
    type: 'object',
    required: ['token'],
    properties: {
      token: { type: 'string', title: 'Token', secret: true },
      region: { type: 'string', title: 'Region', enum: ['us', 'jp'], default: 'us' },
    },
  },
  permissions: {
    http: { hosts: [{ host: 'lrc.mirror.example', reason: 'Asks the mirror for lyrics' }] },
    tags: { access: 'read', reason: 'Reads title and artist to search with' },
  },
});

async function zip(entries: Array<{ name: string; data: string }>): Promise<Buffer> {
  const file = new yazl.ZipFile();
  for (const e of entries) file.addBuffer(Buffer.from(e.data), e.name);
  file.end();
  const chunks: Buffer[] = [];
  for await (const chunk of file.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const pluginZip = (version: string) =>
  zip([
    { name: 'mirror-lyrics/manifest.json', data: JSON.stringify(manifest(version)) },
    { name: 'mirror-lyrics/index.js', data: `"use strict";\nmodule.exports = { search: async () => [] }; // ${version}\n` },
    { name: 'mirror-lyrics/README.md', data: '# Mirror Lyrics' },
  ]);

/** The newest notice with this title (an earlier one may still be showing: a hovered toast does not time out). */
const notice = (p: Page, title: string) => p.locator(`.bp6-toast [data-notice-title="${title}"]`).last();
const row = (id: string) => page.locator(`[data-testid="plugin-list"] [data-plugin="${id}"]`);
const drawer = () => page.locator('[data-testid="plugin-detail"]');
const versionRow = (v: string) => drawer().locator(`[data-testid="plugin-versions"] tr[data-version="${v}"]`);

async function api(p: Page, pathname: string, body: unknown) {
  const csrf = (await p.context().cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
  const res = await p.request.post(`${server.base}${pathname}`, { data: body, headers: { 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' } });
  return (await res.json()) as { result: boolean; message: string; data: unknown };
}

async function signIn(p: Page, username: string, password: string) {
  await p.goto(`${server.base}/login`);
  await p.fill('#ts-username', username);
  await p.fill('#ts-password', password);
  await p.press('#ts-password', 'Enter');
  await p.waitForURL(`${server.base}/`);
}

async function uploadFile(name: string, buffer: Buffer) {
  await page.getByRole('tab', { name: '插件市场' }).click();
  await page.locator('[data-testid="plugin-market"] input[type="file"]').setInputFiles({ name, mimeType: 'application/zip', buffer });
  await page.getByTestId('plugin-upload').click();
}

/** Both themes at the current viewport; the theme is the one the theme drawer stores. */
async function shots(name: string) {
  for (const theme of ['dark', 'light']) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme);
    await page.reload();
    await page.locator('[data-testid="plugins-page"]').waitFor();
    await page.locator('[data-testid="plugin-list"]:not([data-loading])').waitFor();
    await screenshot(page, `plugins-${name}-${theme}`);
  }
}

beforeAll(async () => {
  await buildDashboard();
  home = await makeHome(10);
  // iTunes pointed at a port nobody listens on, by the administrator's environment: its calls fail.
  process.env.TAGSONIC_SOURCE_URL_ITUNES = `http://127.0.0.1:${await freePort()}`;
  try {
    server = await startServer(home.home, PASSWORD);
  } finally {
    delete process.env.TAGSONIC_SOURCE_URL_ITUNES;
  }
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
  await signIn(page, 'admin', PASSWORD);
  // The plugin screens are V2 (§6): the administrator gives the account V2 and creates a V2 non-administrator.
  expect((await api(page, '/apimt/admin/users/admin/role/', { role: 'V2' })).result).toBe(true);
  expect((await api(page, '/apimt/admin/users/', { ...USER, role: 'V2', is_admin: false })).result).toBe(true);
}, 240_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `plugins-failed-${ctx.task.name.slice(0, 40).replace(/[^\w]+/g, '-')}`).catch(() => undefined);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (home) await rm(home.home, { recursive: true, force: true });
});

describe('plugin screens in chromium', { timeout: 120_000 }, () => {
  it('lists the built-in tag sources on /mod with their permissions and health; /actionMod is the other list', async () => {
    await page.goto(`${server.base}/mod`);
    await row('itunes').waitFor();
    for (const id of ['lrclib', 'musicbrainz', 'itunes']) {
      await expect.poll(() => row(id).locator('[data-testid="plugin-builtin"]').count()).toBe(1);
    }
    expect(await row('lrclib').locator('[data-permission="http"]').textContent()).toContain('lrclib.net');
    expect(await row('lrclib').locator('[data-testid="plugin-health"]').textContent()).toContain('调用 0 次');
    expect(await page.locator('.ts-tabs a.ts-active').textContent()).toBe('插件管理');

    // Search narrows the list (debounced), clearing it brings every source back.
    const search = page.getByRole('searchbox', { name: '搜索插件' });
    await search.fill('lrclib');
    await expect.poll(() => page.locator('[data-testid="plugin-list"] [data-plugin]').count()).toBe(1);
    await search.fill('');
    await expect.poll(() => page.locator('[data-testid="plugin-list"] [data-plugin]').count()).toBeGreaterThan(2);
    await shots('01-list-desktop');

    await page.locator('[data-nav="batch-action"]').click();
    await page.waitForURL(`${server.base}/actionMod`);
    await page.locator('[data-testid="plugins-page"][data-kind="batch-action"] [data-testid="plugin-list"]:not([data-loading])').waitFor();
    expect(await page.locator('.ts-tabs a.ts-active').textContent()).toBe('插件管理');
    await page.locator('[data-nav="tag-source"]').click();
    await page.waitForURL(`${server.base}/mod`);
  });

  it('uploads a plugin zip from the market tab; it arrives disabled, its permissions and reasons shown', async () => {
    await uploadFile('mirror-lyrics-1.0.0.zip', await pluginZip('1.0.0'));
    await notice(page, '上传成功！').waitFor();
    await page.waitForURL(/\/mod\?plugin=mirror_lyrics$/);
    await expect.poll(() => drawer().getAttribute('data-plugin')).toBe('mirror_lyrics');
    const permissions = drawer().getByTestId('plugin-permissions');
    expect(await permissions.locator('[data-permission="http"]').textContent()).toBe('访问网站 lrc.mirror.example' + 'Asks the mirror for lyrics');
    expect(await permissions.locator('[data-permission="tags"]').textContent()).toBe('读取音乐标签' + 'Reads title and artist to search with');
    expect(await drawer().getByTestId('plugin-enable').isChecked()).toBe(false);
    expect(await versionRow('1.0.0').getAttribute('data-active')).toBe('true');
    await screenshot(page, 'plugins-02-uploaded-details');
  });

  it('enabling from the list shows the permissions first; a missing required setting is refused in Chinese and opens the settings', async () => {
    await page.keyboard.press('Escape');
    await page.waitForURL(`${server.base}/mod`);
    await row('mirror_lyrics').getByTestId('plugin-enable').click({ force: true });
    const confirm = page.locator('.ts-plugin-confirm');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('Asks the mirror for lyrics');
    expect(await confirm.textContent()).toContain('Reads title and artist to search with');
    await page.waitForTimeout(300);
    await screenshot(page, 'plugins-03-enable-confirm');
    await confirm.getByRole('button', { name: '启用' }).click();
    // The token is required and not set yet: the registry refuses, the notice says why in the interface language,
    // and the plugin's details open on the form to fill in.
    await notice(page, '修改失败！').waitFor();
    expect(await notice(page, '修改失败！').textContent()).toContain(serverMessage('TAGSONIC_ERR_PLUGIN_CONFIG_INVALID', '', 'zh-CN'));
    await page.waitForURL(/\/mod\?plugin=mirror_lyrics$/);
    await drawer().getByTestId('plugin-settings').waitFor();
    expect(await drawer().getByTestId('plugin-enable').isChecked()).toBe(false);
    expect(await row('mirror_lyrics').getAttribute('data-enabled')).toBe('false');
  });

  it('configures the plugin (the secret comes back masked), then enables it after confirming', async () => {
    const form = drawer().getByTestId('plugin-settings');
    await form.locator('#ts-plugin-base-url').fill('ftp://nope');
    expect(await form.getByTestId('plugin-settings-save').isDisabled()).toBe(true);
    await form.locator('#ts-plugin-base-url').fill('http://127.0.0.1:9');
    await form.getByTestId('plugin-settings-save').click();
    // The required token is empty: the form says so before anything is sent.
    await expect.poll(() => form.locator('.bp6-form-group.bp6-intent-danger').first().textContent()).toContain('必填');
    await form.locator('#ts-plugin-config-token').fill('s3cret-token');
    await form.locator('#ts-plugin-config-region').selectOption('jp');
    await form.getByTestId('plugin-settings-save').click();
    await notice(page, '保存成功！').waitFor();
    await expect.poll(() => drawer().locator('#ts-plugin-config-token').inputValue()).toBe('********');
    expect(await drawer().locator('#ts-plugin-base-url').inputValue()).toBe('http://127.0.0.1:9');
    const detail = (await api(page, '/apimt/script_detail/', { id: 'mirror_lyrics' })).data as { settings: { base_url: string; config: Record<string, unknown> } };
    expect(detail.settings).toEqual({ base_url: 'http://127.0.0.1:9', config: { token: '********', region: 'jp' } });

    await drawer().getByTestId('plugin-enable').click({ force: true });
    await page.locator('.ts-plugin-confirm').getByRole('button', { name: '启用' }).click();
    await expect.poll(() => drawer().getByTestId('plugin-enable').isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    await page.waitForURL(`${server.base}/mod`);
    await expect.poll(() => row('mirror_lyrics').getAttribute('data-enabled')).toBe('true');
    await screenshot(page, 'plugins-04-enabled-in-list');
  });

  it('uploads a second version, rolls back to the first and removes the second', async () => {
    await uploadFile('mirror-lyrics-1.1.0.zip', await pluginZip('1.1.0'));
    await notice(page, '上传成功！').waitFor();
    await expect.poll(() => versionRow('1.1.0').getAttribute('data-active')).toBe('true');
    await page.waitForTimeout(400);
    // A new version keeps the plugin's state and settings.
    expect(await drawer().getByTestId('plugin-enable').isChecked()).toBe(true);
    expect(await versionRow('1.0.0').locator('td').nth(1).textContent()).toBe('上传');
    await screenshot(page, 'plugins-05-two-versions');

    await versionRow('1.0.0').getByTestId('plugin-activate').click();
    await expect.poll(() => versionRow('1.0.0').getAttribute('data-active')).toBe('true');
    await expect.poll(() => row('mirror_lyrics').getByTestId('plugin-version').textContent()).toBe('v1.0.0');

    await versionRow('1.1.0').getByTestId('plugin-remove-version').click();
    await page.locator('.bp6-alert').getByRole('button', { name: '删除' }).click();
    await expect.poll(() => drawer().locator('[data-testid="plugin-versions"] tr[data-version]').count()).toBe(1);
  });

  it('a source that fails says so at a glance, with its error; the base URL set by the environment is shown read-only', async () => {
    await page.goto(`${server.base}/mod`);
    await page.locator('[data-testid="plugin-list"]:not([data-loading])').waitFor();
    expect(await row('itunes').locator('[data-health="failing"]').count()).toBe(0);
    const failed = await api(page, '/apimt/fetch_id3_by_title/', { title: 'Hello', artist: 'Adele', resource: 'itunes' });
    expect(failed.result).toBe(false);
    // Workers flush health every 5 s and the open list reads its page again every 10 s: the failure shows
    // without a reload.
    await expect.poll(() => row('itunes').locator('[data-health="failing"]').count(), { timeout: 30_000, interval: 500 }).toBe(1);
    const lastError = row('itunes').getByTestId('plugin-last-error');
    const code = await lastError.getAttribute('data-code');
    expect(code).toMatch(/^TAGSONIC_ERR_PLUGIN_/);
    expect(await row('itunes').locator('[data-health="failing"]').textContent()).toContain('故障');
    expect(await row('itunes').getByTestId('plugin-health').textContent()).toContain('失败 1 次');
    await row('itunes').scrollIntoViewIfNeeded();
    await screenshot(page, 'plugins-06-source-broken');

    await row('itunes').getByRole('button', { name: '详情' }).click();
    await drawer().getByTestId('plugin-env-url').waitFor();
    expect(await drawer().getByTestId('plugin-env-url').inputValue()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await drawer().getByTestId('plugin-env-url').getAttribute('readonly')).not.toBeNull();
    expect(await drawer().textContent()).toContain('TAGSONIC_SOURCE_URL_ITUNES');
    expect(await drawer().getByTestId('plugin-last-error').getAttribute('data-code')).toBe(code);
    await page.waitForTimeout(400);
    await screenshot(page, 'plugins-07-source-broken-details');
    await page.keyboard.press('Escape');
    await page.waitForURL(`${server.base}/mod`);
  });

  it('removes the plugin', async () => {
    await page.goto(`${server.base}/mod?plugin=mirror_lyrics`);
    await drawer().getByTestId('plugin-remove').click();
    const alert = page.locator('.bp6-alert');
    expect(await alert.textContent()).toContain('Mirror Lyrics');
    await alert.getByRole('button', { name: '删除' }).click();
    await notice(page, '删除成功！').waitFor();
    await page.waitForURL(`${server.base}/mod`);
    await expect.poll(() => row('mirror_lyrics').count()).toBe(0);
  });

  it('a batch action uploaded from /mod lands on /actionMod, its write access marked, without a source address', async () => {
    const action = {
      id: 'tidy_lyrics', name: 'Tidy Lyrics', version: '0.1.0', description: 'Moves .lrc files next to their tracks.', kind: 'batch-action', entry: 'index.js',
      permissions: { files: { access: 'write', reason: 'Moves lyric files next to the tracks' } },
    };
    await uploadFile('tidy-lyrics.zip', await zip([
      { name: 'manifest.json', data: JSON.stringify(action) },
      { name: 'index.js', data: 'module.exports = { run: async () => null };' },
    ]));
    await page.waitForURL(/\/actionMod\?plugin=tidy_lyrics$/);
    await expect.poll(() => drawer().getAttribute('data-plugin')).toBe('tidy_lyrics');
    const files = drawer().getByTestId('plugin-permissions').locator('[data-permission="files"]');
    expect(await files.textContent()).toBe('读取、移动、复制和删除媒体文件' + 'Moves lyric files next to the tracks');
    expect(await files.getAttribute('class')).toContain('ts-plugin-write');
    expect(await drawer().locator('#ts-plugin-base-url').count()).toBe(0);
    expect(await drawer().textContent()).toContain('此插件没有设置项。');
    await page.keyboard.press('Escape');
    await page.waitForURL(`${server.base}/actionMod`);
    // Beside the built-in batch actions (plugins/replace-text, tidy-folder …), the one uploaded.
    await expect.poll(() => page.locator('[data-testid="plugin-list"] [data-plugin]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-plugin'))))
      .toEqual(expect.arrayContaining(['tidy_lyrics', 'replace-text', 'fix-encoding', 'simplified-fields', 'split-filename']));
    expect(await page.locator('[data-testid="plugin-list"] [data-plugin]:not(:has([data-testid="plugin-builtin"]))').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-plugin')))).toEqual(['tidy_lyrics']);
    await page.locator('[data-nav="tag-source"]').click();
    await page.waitForURL(`${server.base}/mod`);
  });

  it('a bad zip is refused with the package error in the interface language', async () => {
    const bad = await zip([{ name: 'index.js', data: 'module.exports = {};' }]);
    // What the server answers for it (its code and words), to compare with the notice.
    const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
    const res = await page.request.post(`${server.base}/apimt/upload_script/`, {
      multipart: { upload_file: { name: 'bad.zip', mimeType: 'application/zip', buffer: bad } },
      headers: { 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' },
    });
    const envelope = (await res.json()) as { result: boolean; message: string; data: { error: string } };
    expect(envelope.result).toBe(false);
    expect(envelope.data.error).toBe('TAGSONIC_ERR_PLUGIN_PACKAGE_NO_MANIFEST');

    await uploadFile('bad.zip', bad);
    await notice(page, '上传失败！').waitFor();
    const said = await notice(page, '上传失败！').textContent();
    // The catalogue's Chinese text for the code, not the server's English words.
    expect(said).toContain(serverMessage(envelope.data.error, envelope.message, 'zh-CN'));
    expect(said).not.toContain(envelope.message);
    await page.waitForTimeout(300);
    await screenshot(page, 'plugins-08-bad-zip');
  });

  it('a non-administrator sees the lists and details without the actions', async () => {
    const other = await newContext(browser);
    const p = await other.newPage();
    try {
      await signIn(p, USER.username, USER.password);
      await p.goto(`${server.base}/mod`);
      const lrclib = p.locator('[data-testid="plugin-list"] [data-plugin="lrclib"]');
      await lrclib.waitFor();
      expect(await lrclib.getByTestId('plugin-enable').isDisabled()).toBe(true);
      await p.goto(`${server.base}/mod?plugin=lrclib`);
      await p.locator('[data-testid="plugin-detail"][data-plugin="lrclib"]').waitFor();
      expect(await p.getByTestId('plugin-permissions').textContent()).toContain('lrclib.net');
      expect(await p.getByTestId('plugin-settings-save').count()).toBe(0);
      expect(await p.getByTestId('plugin-activate').count()).toBe(0);
      await p.keyboard.press('Escape');
      await p.getByRole('tab', { name: '插件市场' }).click();
      await p.getByText('只有管理员可以上传插件。').waitFor();
      expect(await p.getByTestId('plugin-upload').count()).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('pages the list at 20', async () => {
    const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
    for (let i = 1; i <= 12; i++) {
      const id = `bulk_${String(i).padStart(2, '0')}`;
      const buffer = await zip([
        { name: 'manifest.json', data: JSON.stringify({ ...manifest('1.0.0'), id, name: `Bulk ${i}`, config: undefined }) },
        { name: 'index.js', data: 'module.exports = { search: async () => [] };' },
      ]);
      const res = await page.request.post(`${server.base}/apimt/upload_script/`, {
        multipart: { upload_file: { name: `${id}.zip`, mimeType: 'application/zip', buffer } },
        headers: { 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' },
      });
      expect(((await res.json()) as { result: boolean }).result).toBe(true);
    }
    const first = (await api(page, '/apimt/get_resource_script/', { page: 1, page_size: 20 })).data as { total: number };
    expect(first.total).toBeGreaterThan(20);
    await page.goto(`${server.base}/mod`);
    await page.locator('[data-testid="plugin-list"]:not([data-loading]) [data-plugin]').first().waitFor();
    expect(await page.locator('[data-testid="plugin-list"] [data-plugin]').count()).toBe(20);
    const pager = page.getByTestId('plugin-pager');
    expect(await pager.textContent()).toContain('第 1 / 2 页');
    await pager.getByRole('button', { name: '下一页' }).click();
    await expect.poll(() => pager.textContent()).toContain('第 2 / 2 页');
    // The search box's debounce once sent a page turned right after opening back to page 1 (300 ms later).
    await page.waitForTimeout(600);
    expect(await pager.textContent()).toContain('第 2 / 2 页');
    await expect.poll(() => page.locator('[data-testid="plugin-list"] [data-plugin]').count()).toBe(first.total - 20);
  });

  it('fits a phone: the side menu becomes a bar, the details drawer fills the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.base}/mod`);
    await row('itunes').waitFor();
    const width = await page.evaluate(() => document.querySelector('.ts-main')!.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await shots('09-list-narrow');
    await page.goto(`${server.base}/mod?plugin=musicbrainz`);
    await drawer().locator('[data-testid="plugin-versions"]').waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'plugins-10-details-narrow');
    await page.setViewportSize({ width: 1400, height: 860 });
  });
});
