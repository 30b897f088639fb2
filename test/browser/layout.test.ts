/**
 * Layout of the file screen at 1440x900 and at the 200 px minimum tree width, in zh-CN and English
 * (issue 10 item 8): the multi-file table's default columns fit and say what limit is in effect, the
 * checked card is not clipped and counts only real files, the tree toolbar does not wrap, the `$`
 * popover closes on Escape, notices stay below the header tabs, the bell's empty text fits.
 * Screenshots go to test/browser/screenshots/layout-*.png.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildDashboard, launchBrowser, makeHome, newContext, screenshot, startServer, type Home, type Server } from './harness.ts';

const PASSWORD = 'layout-test-password';
const BIG = 400;

let home: Home;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const row = (name: string) => page.locator(`[data-testid="file-tree"] li[data-name="${name}"]`);
const box = (name: string) => row(name).locator('[role="checkbox"]');
const goToFolder = async (folder: string) => {
  const input = page.locator('.ts-tree-toolbar form input');
  await input.fill(folder);
  await input.press('Enter');
  await expect.poll(() => input.inputValue()).toBe(folder);
  await page.locator('[data-testid="file-tree"]:not([data-loading])').waitFor();
};
/** An album folder of the generated library with at least three tracks. */
function album(): { dir: string; tracks: string[] } {
  const byDir = new Map<string, string[]>();
  for (const f of home.library.files) {
    if (f.kind !== 'audio') continue;
    const dir = path.posix.dirname(f.path);
    byDir.set(dir, [...(byDir.get(dir) ?? []), path.posix.basename(f.path)]);
  }
  const [dir, tracks] = [...byDir].find(([, t]) => t.length >= 3)!;
  return { dir: path.join(home.library.root, dir), tracks: tracks.sort() };
}

beforeAll(async () => {
  await buildDashboard();
  home = await makeHome(BIG);
  // System clutter beside the tracks: never counted as files.
  for (const junk of ['desktop.ini', 'Thumbs.db', '.DS_Store']) await writeFile(path.join(album().dir, junk), 'x');
  server = await startServer(home.home, PASSWORD);
  browser = await launchBrowser();
  context = await newContext(browser, { width: 1440, height: 900 });
  page = await context.newPage();
  await page.goto(`${server.base}/login`);
  await page.fill('#ts-username', 'admin');
  await page.fill('#ts-password', PASSWORD);
  await page.press('#ts-password', 'Enter');
  await page.waitForURL(`${server.base}/`);
  await row('lib').waitFor();
}, 240_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `layout-failed-${ctx.task.name.slice(0, 40).replace(/[^\w]+/g, '-')}`).catch(() => undefined);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (home) await rm(home.home, { recursive: true, force: true });
});

/** Switches the interface language through the user menu. */
async function setLanguage(lang: 'en' | 'zh-CN') {
  await page.locator('button[aria-label="用户菜单"], button[aria-label="User menu"]').click();
  await page.getByRole('menuitem', { name: lang === 'en' ? 'English' : '中文' }).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
}

/** Does the filter box's placeholder fit inside the box (measured with the box's own font)? */
const placeholderFits = () =>
  page.locator('.ts-tree-toolbar .bp6-input-group:has(.bp6-input-action) input').evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text: input.placeholder, need: Math.ceil(ctx.measureText(input.placeholder).width), room: Math.floor(room) };
  });

/** The header cells of the table's columns: key, right edge; and the table's right edge. */
const tableColumns = () =>
  page.getByTestId('id3-table').evaluate((table) => {
    const host = table.querySelector('.ts-table-host')!.getBoundingClientRect();
    const heads = [...table.querySelectorAll('.bp6-table-quadrant-top .ts-sort-head[data-column]')].map((b) => {
      const cell = b.closest('.bp6-table-header')!.getBoundingClientRect();
      return { key: b.getAttribute('data-column')!, left: Math.round(cell.left), right: Math.round(cell.right) };
    });
    const unique = [...new Map(heads.map((h) => [h.key, h])).values()];
    return { hostRight: Math.round(host.right), columns: unique };
  });

describe('file screen layout at 1440x900', { timeout: 120_000 }, () => {
  it('the multi-file table shows its 10 default columns and whole covers; the checked card is not clipped and skips system files', async () => {
    const { dir, tracks } = album();
    await goToFolder(dir);
    for (const t of tracks) await box(t).click();
    await box('desktop.ini').click();
    await box('Thumbs.db').click();
    await expect.poll(() => page.getByTestId('id3-table').getAttribute('data-rows')).toBe(String(tracks.length));

    // Checked card: only the tracks count as files; the clutter is named as such.
    const card = page.getByTestId('checked-panel');
    await expect.poll(() => card.locator('p').first().textContent()).toBe(`已勾选 ${tracks.length} 个文件，0 个文件夹。 （另有 2 个系统文件，不计入）`);
    expect(await card.locator('.ts-checked-list li').allTextContents()).toEqual(tracks);
    // Its right border lies inside the edit area, which does not scroll sideways.
    const fit = await card.evaluate((el) => {
      const area = el.closest('.ts-edit-area')!;
      const a = area.getBoundingClientRect();
      return { cardRight: el.getBoundingClientRect().right, areaInner: a.left + area.clientWidth, overflow: area.scrollWidth - area.clientWidth };
    });
    expect(fit.cardRight).toBeLessThanOrEqual(fit.areaInner);
    expect(fit.overflow).toBe(0);

    // All 10 default columns are in view, the last one ending inside the table.
    await expect.poll(async () => (await tableColumns()).columns.length).toBe(10);
    const { hostRight, columns } = await tableColumns();
    expect(columns.map((c) => c.key)).toEqual(['album_img', 'filename', 'title', 'artist', 'album', 'albumartist', 'lyrics', 'lyrics_file', 'year', 'genre']);
    expect(Math.max(...columns.map((c) => c.right))).toBeLessThanOrEqual(hostRight);
    // A cut value carries its whole text as a tooltip.
    const filename = page.locator('.bp6-table-quadrant-main .bp6-table-cell.bp6-table-cell-row-0.bp6-table-cell-col-1');
    expect(await filename.getAttribute('title')).toBe(tracks[0]);

    // Covers keep their proportions and stay inside their cells.
    const covers = await page.locator('.bp6-table-quadrant-main .ts-cover-cell img').evaluateAll((imgs: HTMLImageElement[]) =>
      imgs.filter((i) => i.complete && i.naturalWidth > 0).map((img) => {
        const r = img.getBoundingClientRect();
        const cell = img.closest('.ts-cover-cell')!.getBoundingClientRect();
        return {
          ratio: r.width / r.height,
          natural: img.naturalWidth / img.naturalHeight,
          inside: r.left >= cell.left - 0.5 && r.right <= cell.right + 0.5 && r.top >= cell.top - 0.5 && r.bottom <= cell.bottom + 0.5,
        };
      }),
    );
    expect(covers.length).toBeGreaterThan(0);
    for (const c of covers) {
      expect(c.inside).toBe(true);
      expect(Math.abs(c.ratio - c.natural)).toBeLessThan(0.08);
    }
    await screenshot(page, 'layout-01-table-1440-zh');

    await setLanguage('en');
    await expect.poll(() => card.locator('p').first().textContent()).toContain('(2 system files such as desktop.ini not counted)');
    const heads = await page.locator('.bp6-table-quadrant-top .ts-sort-head[data-column]').evaluateAll((b) => [...new Set(b.map((x) => x.textContent?.trim()))]);
    // Fields that hold one value are named in the singular.
    expect(heads).toEqual(expect.arrayContaining(['Artist', 'Album', 'Genre']));
    expect(heads).not.toContain('Artists');
    expect((await tableColumns()).columns.length).toBe(10);
    await screenshot(page, 'layout-02-table-1440-en');
    await setLanguage('zh-CN');
    await page.getByRole('button', { name: '取消勾选' }).click();
  });

  it('says which limit is in effect and raises it on demand', async () => {
    await goToFolder(home.media);
    await box('big').click();
    const count = page.getByTestId('id3-count');
    await expect.poll(() => count.getAttribute('data-more'), { timeout: 30_000 }).toBe('true');
    expect(await page.getByTestId('id3-limit').textContent()).toContain('只显示前 100 个文件（上限 100），还有更多未列出。');
    expect(await page.getByTestId('id3-table').getAttribute('data-rows')).toBe('100');
    await screenshot(page, 'layout-03-limit-100');
    await page.getByRole('button', { name: '显示更多（上限 500）' }).click();
    await expect.poll(() => page.getByTestId('id3-table').getAttribute('data-rows'), { timeout: 30_000 }).toBe(String(BIG));
    expect(await count.getAttribute('data-more')).toBe('false');
    expect(await count.getAttribute('data-limit')).toBe('500');
    expect(await page.getByTestId('id3-limit').count()).toBe(0);
    expect(await count.textContent()).toBe(`${BIG} 个文件`);
    expect(await page.getByRole('button', { name: /显示更多/ }).count()).toBe(0);
    await screenshot(page, 'layout-04-limit-raised');
    await page.getByRole('button', { name: '取消勾选' }).click();
  });

  it('the English filter placeholder fits at the default tree width', async () => {
    await setLanguage('en');
    const fit = await placeholderFits();
    expect(fit.text).toBe('Name, state:failed');
    expect(fit.need).toBeLessThanOrEqual(fit.room);
    await setLanguage('zh-CN');
  });

  it('the $ variable popover closes on Escape and comes back when typing on', async () => {
    const { dir, tracks } = album();
    await goToFolder(dir);
    await row(tracks[0]).locator('.ts-tree-title').click();
    const field = page.locator('#ts-field-comment');
    await field.waitFor();
    await field.fill('x $');
    const menu = page.locator('.ts-variable-menu');
    await menu.waitFor();
    await field.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    expect(await field.inputValue()).toBe('x $');
    await screenshot(page, 'layout-05-variable-popover-closed');
    await field.press('t');
    await menu.waitFor();
    await field.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    await field.fill('');

    // The editor names single-value fields in the singular in English.
    await setLanguage('en');
    const label = async (f: string) => (await page.locator(`label[for="ts-field-${f}"]`).textContent())?.trim();
    await expect.poll(() => label('artist')).toBe('Artist');
    expect(await label('album')).toBe('Album');
    expect(await label('genre')).toBe('Genre');
    await screenshot(page, 'layout-05b-editor-en');
    await setLanguage('zh-CN');
    expect(await label('artist')).toBe('艺术家');
  });

  it("the bell's empty text is not clipped", async () => {
    await page.getByRole('button', { name: '通知' }).click();
    const empty = page.locator('.ts-bell-empty');
    await empty.waitFor();
    const fit = await empty.evaluate((el) => {
      const list = el.closest('.ts-bell-list')!;
      const text = el.querySelector('.bp6-non-ideal-state-text, .bp6-non-ideal-state > div:last-child') ?? el;
      return { textBottom: text.getBoundingClientRect().bottom, listBottom: list.getBoundingClientRect().bottom, overflow: list.scrollHeight - list.clientHeight };
    });
    expect(fit.textBottom).toBeLessThanOrEqual(fit.listBottom);
    expect(fit.overflow).toBe(0);
    await screenshot(page, 'layout-06-bell-empty');
    await page.keyboard.press('Escape');
  });
});

describe('file screen layout at the 200 px minimum tree width', { timeout: 120_000 }, () => {
  it('keeps the sort button on one line, shows the end of the path, and fits the filter placeholder (zh-CN and English)', async () => {
    await page.evaluate(() => localStorage.setItem('treeWidth', '200'));
    await page.reload();
    await page.locator('[data-testid="file-tree"]:not([data-loading])').waitFor();
    const { dir } = album();
    await goToFolder(dir);
    await page.locator('.ts-tree-toolbar form input').blur();
    expect(await page.locator('.ts-tree-panel').evaluate((el) => Math.round(el.getBoundingClientRect().width))).toBe(200);

    for (const lang of ['zh-CN', 'en'] as const) {
      if (lang === 'en') await setLanguage('en');
      const sort = page.locator('.ts-sort-button');
      const box = await sort.boundingBox();
      expect(box!.height).toBeLessThanOrEqual(32);
      expect(await sort.getAttribute('title')).toBe(lang === 'en' ? 'Folders first' : '文件夹优先');
      const pathBox = await page.locator('.ts-tree-toolbar form input').evaluate((input: HTMLInputElement) => {
        const panel = input.closest('.ts-tree-panel')!.getBoundingClientRect();
        const r = input.getBoundingClientRect();
        // Scrolled to the end: scrolling further does not move it (the box's own scroll range, padding aside).
        const shown = input.scrollLeft;
        input.scrollLeft = 1e6;
        const atEnd = shown > 0 && input.scrollLeft === shown;
        return { inside: r.left >= panel.left && r.right <= panel.right, width: r.width, atEnd, shown, title: input.title };
      });
      expect(pathBox.inside).toBe(true);
      expect(pathBox.width).toBeGreaterThan(100);
      expect(pathBox.atEnd, JSON.stringify(pathBox)).toBe(true);
      expect(pathBox.title).toBe(dir);
      const fit = await placeholderFits();
      expect(fit.need).toBeLessThanOrEqual(fit.room);
      await screenshot(page, `layout-07-tree-200-${lang}`);
    }
    await setLanguage('zh-CN');
    await page.evaluate(() => localStorage.removeItem('treeWidth'));
  });
});
