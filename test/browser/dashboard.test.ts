/**
 * The dashboard in a real browser against a real server: sign in, browse a generated library, filter by
 * scrape state, Shift-select a range, edit a file's title/cover/lyrics and undo it (checked with
 * ffprobe), themes, activation with a minted code, the bell, the admin backend, the mobile layout, and
 * the performance figures of a 10 000-entry folder. Screenshots go to test/browser/screenshots/.
 */
import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  buildDashboard,
  coverOf,
  ffprobe,
  issueLicense,
  launchBrowser,
  makeHome,
  makePicture,
  newContext,
  screenshot,
  startServer,
  type Home,
  type Server,
} from './harness.ts';

const PASSWORD = 'browser-test-password';

let home: Home;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const figures: Record<string, unknown> = {};

/** The album the edit tests use: an MP3 with an embedded cover, in a folder of at least three tracks. */
function pickAlbum() {
  // Files whose comment ffmpeg could only store as TXXX:comment are left out: the tag engine refuses to
  // write them (reported; see the dashboard README's notes).
  const mp3s = home.library.files.filter((f) => f.kind === 'audio' && f.format === 'mp3' && f.cover && f.tags?.title && !f.nonStandard?.comment);
  for (const f of mp3s) {
    const dir = path.posix.dirname(f.path);
    const siblings = home.library.files.filter((g) => g.kind === 'audio' && path.posix.dirname(g.path) === dir);
    if (siblings.length >= 3) return { file: f, dir, tracks: siblings.map((s) => path.posix.basename(s.path)).sort() };
  }
  throw new Error('the generated library has no MP3 album with a cover and three tracks');
}

const row = (name: string) => page.locator(`[data-testid="file-tree"] li[data-name="${name}"]`);
const openFolder = async (name: string) => {
  await row(name).locator('.ts-tree-button').click();
  await page.locator('[data-testid="file-tree"]:not([data-loading])').waitFor();
};
/** Opens a folder through the path box, as a user typing a path would. */
const goToFolder = async (folder: string) => {
  const box = page.locator('.ts-tree-toolbar input[aria-label="路径"]');
  await box.fill(folder);
  await box.press('Enter');
  await expect.poll(() => box.inputValue()).toBe(folder);
  await page.locator('[data-testid="file-tree"]:not([data-loading])').waitFor();
};
const notice = (title: string) => page.locator(`.bp6-toast [data-notice-title="${title}"]`);

/** POST to the dashboard API with the browser's session and CSRF cookie. */
async function api(pathname: string, body: unknown) {
  const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
  const res = await page.request.post(`${server.base}${pathname}`, { data: body, headers: { 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' } });
  return (await res.json()) as { result: boolean; message: string; data: unknown };
}

beforeAll(async () => {
  await buildDashboard();
  home = await makeHome();
  server = await startServer(home.home, PASSWORD);
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
}, 240_000);

// A failing step leaves a picture of the page behind.
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `failed-${ctx.task.name.slice(0, 40).replace(/[^\w]+/g, '-')}`).catch(() => undefined);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (home) await rm(home.home, { recursive: true, force: true });
  console.log('[browser figures]', JSON.stringify(figures));
});

describe('dashboard in chromium', { timeout: 120_000 }, () => {
  it('signs in (English login page, Enter submits, failures say 登录失败！)', async () => {
    await page.goto(`${server.base}/`);
    await page.waitForURL(/\/login$/);
    await expect.poll(() => page.locator('text=Not a member? Please contact the administrator').count()).toBe(1);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await expect.poll(() => page.locator('.bp6-dialog code', { hasText: './run passwd admin' }).count()).toBe(1);
    await screenshot(page, '01-login-forgot-password');
    // Escape closes it — once it has finished opening (under load an Escape during the transition was lost, and the
    // sign-in below then typed behind the dialog).
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await page.keyboard.press('Escape');
    await page.locator('.bp6-dialog').waitFor({ state: 'detached' });
    await screenshot(page, '01-login');

    await page.fill('#ts-username', 'admin');
    await page.fill('#ts-password', 'wrong-password');
    await page.press('#ts-password', 'Enter');
    await notice('登录失败！').waitFor();

    await page.fill('#ts-password', PASSWORD);
    await page.press('#ts-password', 'Enter');
    await page.waitForURL(`${server.base}/`);
    await row('lib').waitFor();
    expect(await page.getByTestId('role-badge').textContent()).toBe('V1');
    // V1 sees the console and the operation records only (§6).
    expect(await page.locator('.ts-tabs a').allTextContents()).toEqual(['操作台', '操作记录']);
    await screenshot(page, '02-home');
  });

  it('lists a 10 000-entry folder in under a second and scrolls it without jank', async () => {
    const pathBox = page.locator('.ts-tree-toolbar input[aria-label="路径"]');
    /** From pressing Enter in the path box to the first frame showing the folder's rows. */
    const openBig = async () => {
      await pathBox.fill(home.big);
      await page.evaluate(() => ((window as unknown as { __t0: number }).__t0 = performance.now()));
      await pathBox.press('Enter');
      const ms = await page.evaluate(
        (count) =>
          new Promise<number>((resolve) => {
            const t0 = (window as unknown as { __t0: number }).__t0;
            const check = () => {
              const tree = document.querySelector('[data-testid="file-tree"]');
              if (tree?.getAttribute('data-row-count') === String(count) && tree.querySelector('li[data-name="track 00001.mp3"]')) {
                requestAnimationFrame(() => resolve(performance.now() - t0));
              } else requestAnimationFrame(check);
            };
            check();
          }),
        home.bigCount,
      );
      const parts = await page.getByTestId('file-tree').evaluate((el) => ({ requestMs: Number(el.dataset.requestMs), storeMs: Number(el.dataset.storeMs), renderMs: Number(el.dataset.renderMs) }));
      return { totalMs: Math.round(ms), ...parts };
    };
    // The first listing includes the server's first read of the folder; the second is the steady state.
    figures.list10kFirst = await openBig();
    await page.getByRole('button', { name: '上一级' }).click();
    await row('big').waitFor();
    const steady = await openBig();
    figures.list10kSteady = steady;
    expect(steady.totalMs).toBeLessThan(1000);
    // The browser's own share (store update + render) is a small part of it.
    expect(steady.storeMs + steady.renderMs).toBeLessThan(400);

    /** Frame times while the tree scrolls `stepPx` a frame (0 = idle: the machine's own frame cadence). */
    const scrollFrames = (stepPx: number) =>
      page.evaluate(
        (step) =>
          new Promise<{ p50: number; p95: number; max: number; domRows: number; lastRow: string | null }>((resolve) => {
            const el = document.querySelector('[data-testid="file-tree"]') as HTMLElement;
            const deltas: number[] = [];
            let last = performance.now();
            let frames = 0;
            const tick = () => {
              const now = performance.now();
              deltas.push(now - last);
              last = now;
              el.scrollTop += step;
              if (++frames < 180) requestAnimationFrame(tick);
              else {
                const sorted = deltas.slice(1).sort((a, b) => a - b);
                const pick = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
                const items = el.querySelectorAll('li[data-name]');
                resolve({ p50: pick(0.5), p95: pick(0.95), max: pick(1), domRows: items.length, lastRow: items[items.length - 1]?.getAttribute('data-name') ?? null });
              }
            };
            requestAnimationFrame(tick);
          }),
        stepPx,
      );
    const idle = await scrollFrames(0);
    const wheel = await scrollFrames(120);
    const fling = await scrollFrames(420);
    figures.scrollFrameMs = { idle, wheel120pxPerFrame: wheel, fling420pxPerFrame: fling };
    // Only the rows in view plus the buffer are in the DOM, however long the folder.
    expect(fling.domRows).toBeLessThan(120);
    expect(fling.lastRow).toMatch(/^track \d{5}\.mp3$/);
    // 60 Hz frames are 16.7 ms; medians are asserted (the tails follow the shared machine's load, the idle
    // line shows how much). Wheel-speed scrolling keeps 40 fps or better, a 15-rows-a-frame fling 30 fps.
    expect(wheel.p50).toBeLessThan(25);
    expect(fling.p50).toBeLessThan(34);
    await screenshot(page, '03-big-folder-scrolled');

    // Per-folder scroll restore (§4): leave and come back.
    const before = await page.getByTestId('file-tree').evaluate((el) => el.scrollTop);
    await page.getByRole('button', { name: '上一级' }).click();
    await row('big').waitFor();
    await openFolder('big');
    await expect.poll(() => page.getByTestId('file-tree').evaluate((el) => el.scrollTop)).toBe(before);
    await page.getByRole('button', { name: '上一级' }).click();
    await row('lib').waitFor();
  });

  it('browses the library and filters by state:failed after marking folders', async () => {
    const { dir } = pickAlbum();
    const [artist, album] = dir.split('/');
    await goToFolder(home.media);
    await openFolder('lib');
    await row(artist).waitFor();
    const artistPath = path.join(home.library.root, artist);
    // Mark one folder failed and another success through the API, as a finished scrape would.
    const others = home.library.files.filter((f) => f.kind === 'audio' && !f.path.startsWith(`${artist}/`)).map((f) => f.path.split('/')[0]);
    const okFolder = others[0];
    expect((await api('/apimt/update_folder_state/', { full_path: artistPath, state: 'failed' })).result).toBe(true);
    expect((await api('/apimt/update_folder_state/', { full_path: path.join(home.library.root, okFolder), state: 'success' })).result).toBe(true);
    await page.getByRole('button', { name: '刷新' }).click();
    await expect.poll(() => row(artist).getAttribute('data-state')).toBe('failed');
    await expect.poll(() => row(okFolder).getAttribute('data-state')).toBe('success');
    // success is grey, failed red (§4).
    expect(await row(artist).locator('.ts-tree-title').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(229, 72, 77)');
    await screenshot(page, '04-library-states');

    await page.getByPlaceholder('名称或 state:failed').fill('state:failed');
    await expect.poll(() => page.locator('[data-testid="file-tree"] li[data-name]').count()).toBe(1);
    expect(await page.locator('[data-testid="file-tree"] li[data-name]').first().getAttribute('data-name')).toBe(artist);
    await screenshot(page, '05-filter-state-failed');
    await page.getByPlaceholder('名称或 state:failed').fill('');
    await expect.poll(() => page.locator('[data-testid="file-tree"] li[data-name]').count()).toBeGreaterThan(3);

    await openFolder(artist);
    await openFolder(album);
    await row(pickAlbum().tracks[0]).waitFor();
  });

  it('Shift-selects a range of files and lists their tags in the table', async () => {
    const { tracks, dir } = pickAlbum();
    await goToFolder(path.join(home.library.root, dir));
    const box = (name: string) => row(name).locator('[role="checkbox"]');
    await box(tracks[0]).click();
    await page.keyboard.down('Shift');
    await box(tracks[tracks.length - 1]).click();
    await page.keyboard.up('Shift');
    for (const t of tracks) await expect.poll(() => box(t).getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => page.getByTestId('id3-table').getAttribute('data-rows')).toBe(String(tracks.length));
    await expect.poll(() => page.getByTestId('checked-panel').count()).toBe(1);

    // Table: a header click sorts ascending, then descending.
    const head = page.locator('.bp6-table-quadrant-top .ts-sort-head[data-column="title"]');
    await head.click();
    await expect.poll(() => head.getAttribute('data-sort')).toBe('asc');
    await head.click();
    await expect.poll(() => head.getAttribute('data-sort')).toBe('desc');
    // Shift-click in the table selects a range of rows.
    const cell = (r: number) => page.locator(`.bp6-table-quadrant-main .bp6-table-cell-row-${r}.bp6-table-cell-col-1`);
    await cell(0).click();
    await cell(tracks.length - 1).click({ modifiers: ['Shift'] });
    await expect.poll(() => page.getByTestId('id3-table').getAttribute('data-selected-rows')).toBe(String(tracks.length));
    await screenshot(page, '06-shift-range-table');

    // Clicking a checked box unchecks it; dragging across the boxes unchecks the rest.
    await box(tracks[0]).click();
    await expect.poll(() => box(tracks[0]).getAttribute('aria-checked')).toBe('false');
    const from = await box(tracks[1]).boundingBox();
    const to = await box(tracks[tracks.length - 1]).boundingBox();
    await page.mouse.move(from!.x + 5, from!.y + 5);
    await page.mouse.down();
    await page.mouse.move(to!.x + 5, to!.y + 5, { steps: 8 });
    await page.mouse.up();
    for (const t of tracks) await expect.poll(() => box(t).getAttribute('aria-checked')).toBe('false');
  });

  it('previews an image file in a modal', async () => {
    const picture = home.library.files.find((f) => f.kind === 'image' && f.role === 'folder-cover');
    expect(picture).toBeDefined();
    await goToFolder(path.join(home.library.root, path.posix.dirname(picture!.path)));
    await row(path.posix.basename(picture!.path)).locator('.ts-tree-button').click();
    await expect.poll(() => page.locator('.ts-preview-body img').getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
    await screenshot(page, '07-image-preview');
    await page.locator('.ts-preview-foot').getByRole('button', { name: '关闭' }).click();
    await expect.poll(() => page.locator('.ts-preview-body').count()).toBe(0);
  });

  it('edits title, cover and lyrics, verified with ffprobe, then Undo restores the file', async () => {
    const { file, dir } = pickAlbum();
    await goToFolder(path.join(home.library.root, dir));
    await page.getByRole('button', { name: '取消勾选' }).click({ timeout: 2000 }).catch(() => undefined);
    const full = path.join(home.library.root, file.path);
    const before = await ffprobe(full);
    const beforeCover = coverOf(before);
    expect(beforeCover).toBeDefined();

    await row(path.posix.basename(file.path)).locator('.ts-tree-button').click();
    const title = page.locator('#ts-field-title');
    await expect.poll(() => title.inputValue()).toBe(file.tags!.title);
    await screenshot(page, '08-editor');

    await title.fill('Edited in the browser ✓');
    const picture = path.join(home.home, 'new-cover.png');
    await makePicture(picture, 320, 240, 'orange');
    await page.getByTestId('cover-file').setInputFiles(picture);
    await expect.poll(() => page.locator('[data-testid="cover-preview"] img').getAttribute('src')).toMatch(/^\/apimt\/uploaded_image\//);
    await page.locator('#ts-field-lyrics').fill('[00:01.00]第一句歌词\n[00:03.00]second line');
    // `$` offers the template variables.
    const comment = page.locator('#ts-field-comment');
    await comment.fill('from $');
    await page.locator('[data-variable="album"]').waitFor();
    await page.keyboard.press('Escape');
    await comment.fill('');
    await screenshot(page, '08-editor-changed');

    await page.getByTestId('save-button').click();
    await notice('修改成功！').waitFor();
    await screenshot(page, '09-saved-with-undo');

    const after = await ffprobe(full);
    expect(after.tags.title).toBe('Edited in the browser ✓');
    const lyricsTags = Object.entries(after.tags).filter(([k]) => k.startsWith('lyrics'));
    expect(lyricsTags.some(([, v]) => v.includes('第一句歌词'))).toBe(true);
    const afterCover = coverOf(after);
    expect(afterCover).toMatchObject({ width: 320, height: 240 });

    await page.getByTestId('undo-button').click();
    await notice('撤销成功！').waitFor();
    const restored = await ffprobe(full);
    expect(restored.tags.title).toBe(before.tags.title);
    expect(Object.keys(restored.tags).filter((k) => k.startsWith('lyrics'))).toEqual(Object.keys(before.tags).filter((k) => k.startsWith('lyrics')));
    expect(coverOf(restored)).toMatchObject({ width: beforeCover!.width, height: beforeCover!.height });
    await expect.poll(() => title.inputValue()).toBe(file.tags!.title);
  });

  it('shows failed tasks in the bell and resets the unread count on opening', async () => {
    const corrupt = home.library.files.find((f) => f.kind === 'corrupt' && f.path.endsWith('.mp3'));
    expect(corrupt).toBeDefined();
    const r = await api('/apimt/update_id3/', { music_id3_info: [{ file_full_path: path.join(home.library.root, corrupt!.path), title: 'x' }] });
    expect(r.result).toBe(false);
    await page.reload();
    await expect.poll(() => page.getByTestId('unread-count').textContent(), { timeout: 20_000 }).toBe('1');
    await page.getByRole('button', { name: '通知' }).click();
    await page.locator('.ts-bell-list li', { hasText: '手动修改' }).first().waitFor();
    await screenshot(page, '10-bell');
    await expect.poll(() => page.getByTestId('unread-count').count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('switches the theme and keeps it across a reload', async () => {
    await page.getByTestId('theme-toggle').click();
    await page.locator('[data-theme-name="dracula"]').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dracula');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dracula');
    await screenshot(page, '11-theme-drawer');
    await page.keyboard.press('Escape');
    await page.reload();
    await row('lib').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dracula');
    expect(await page.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(33, 34, 44)');
    await screenshot(page, '12-theme-dracula');
    await page.getByTestId('theme-toggle').click();
    await page.locator('[data-theme-name="light"]').click();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');

    // A custom background picture replaces the default in the resource area; clearing restores it.
    const picture = path.join(home.home, 'background.png');
    await makePicture(picture, 640, 360, 'teal');
    await page.getByTestId('background-file').setInputFiles(picture);
    await notice('上传成功！').waitFor();
    await page.locator('.bp6-drawer').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByTestId('resource-background').evaluate((el) => getComputedStyle(el).backgroundImage)).toContain('/apimt/background/');
    await screenshot(page, '12-custom-background');
    await page.getByTestId('theme-toggle').click();
    await page.getByRole('button', { name: '恢复默认' }).click();
    await notice('恢复成功！').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.bp6-drawer').count()).toBe(0);
    await expect.poll(() => page.getByTestId('resource-background').evaluate((el) => getComputedStyle(el).backgroundImage)).not.toContain('/apimt/background/');
  });

  it('switches the interface to English and back', async () => {
    await page.getByRole('button', { name: '用户菜单' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect.poll(() => page.locator('.ts-tabs a').allTextContents()).toEqual(['Console', 'Operation log']);
    await screenshot(page, '12-english');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: '中文' }).click();
    await expect.poll(() => page.locator('.ts-tabs a').allTextContents()).toEqual(['操作台', '操作记录']);
  });

  it('activates V2 with a code minted by `tagsonic license issue`', async () => {
    const code = await issueLicense(home.home, true);
    expect(code.length).toBeGreaterThan(40);
    await page.getByTestId('role-badge').click();
    await page.locator('#ts-activation-code').fill('not-a-code');
    await page.locator('.bp6-dialog button[type="submit"]').click();
    await notice('激活失败！').waitFor();
    await page.locator('#ts-activation-code').fill(code);
    await screenshot(page, '13-activation');
    // Success shows its notice, then reloads the page (§4): wait for the reload from before the click.
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await page.locator('.bp6-dialog button[type="submit"]').click();
    await notice('激活成功！').waitFor();
    await reloaded;
    await expect.poll(() => page.getByTestId('role-badge').textContent(), { timeout: 20_000 }).toBe('V2');
    expect(await page.locator('.ts-tabs a').allTextContents()).toEqual(['首页', '操作台', '操作记录', '插件管理', '音乐库', '系统设置']);
    await page.getByTestId('role-badge').click();
    await page.locator('text=您已是永久激活用户').waitFor();
    await screenshot(page, '14-v2-permanent');
    await page.keyboard.press('Escape');
    // V2: the search toggle and the library side bar.
    await page.getByRole('button', { name: '搜索' }).click();
    await page.getByPlaceholder('搜索艺术家、专辑、歌曲').waitFor();
    // The 音乐库 tab leads to the album list, which without a Subsonic password (set in the next case) says so and
    // signs out (§8); the library side bar is checked on /discover, whose failure only empties it.
    expect(await page.locator('.ts-tabs a', { hasText: '音乐库' }).getAttribute('href')).toBe('/albums/recently-added/');
    await page.goto(`${server.base}/discover`);
    await page.locator('.ts-sidenav-docked a[data-nav="artists"]').waitFor();
    await screenshot(page, '15-library-later');
  });

  it('gives admin a Subsonic password in the admin backend, then the V2 header search finds the library', async () => {
    await page.goto(`${server.base}/admin/`);
    const adminRow = page.locator('[data-testid="admin-page"] tr[data-user="admin"]');
    await adminRow.waitFor();
    await screenshot(page, '16-admin');
    await adminRow.getByRole('button', { name: '操作' }).click();
    await page.getByRole('menuitem', { name: 'Subsonic 密码' }).click();
    await page.locator('#ts-subsonic').fill('subsonic-secret');
    await page.locator('.bp6-dialog').getByRole('button', { name: '保存' }).click();
    await notice('修改成功！').waitFor();
    await expect.poll(() => adminRow.locator('td').nth(3).textContent()).toBe('已设置');

    // Scan the library through the Subsonic API (u/t/s), as a Subsonic client would.
    const salt = randomBytes(6).toString('hex');
    const auth = `u=admin&t=${createHash('md5').update(`subsonic-secret${salt}`).digest('hex')}&s=${salt}&v=1.16.1&c=browser-test&f=json`;
    const rest = async (method: string) => ((await (await fetch(`${server.base}/rest/${method}?${auth}`)).json()) as { 'subsonic-response': { status: string; scanStatus?: { scanning: boolean; count?: number } } })['subsonic-response'];
    expect((await rest('startScan')).status).toBe('ok');
    // Done when not scanning and the library holds tracks (right after startScan it may not have begun).
    await expect
      .poll(async () => {
        const st = (await rest('getScanStatus')).scanStatus;
        return st?.scanning === false && (st.count ?? 0) > 0;
      }, { timeout: 60_000, interval: 500 })
      .toBe(true);

    // The shell reads the fresh salt/hash from /user/info/ into its cookies on load.
    const artist = pickAlbum().file.tags!.artist!;
    await page.goto(`${server.base}/`);
    await row('lib').waitFor();
    await page.getByRole('button', { name: '搜索' }).click();
    await page.getByPlaceholder('搜索艺术家、专辑、歌曲').fill(artist.split(' ')[0]);
    const hit = page.locator('.ts-search-results .bp6-menu-item', { hasText: artist }).first();
    await hit.waitFor({ timeout: 20_000 });
    await screenshot(page, '17-search');
    await hit.click();
    await page.waitForURL(/\/(artist|album)\/id\/[^/]+$/);
  });

  it('lays out for phones: bottom bar, editor and tag list in drawers', async () => {
    const phone = await newContext(browser, { width: 390, height: 844 });
    await phone.addCookies(await context.cookies());
    const p = await phone.newPage();
    const { dir, tracks } = pickAlbum();
    await p.goto(`${server.base}/?path=${encodeURIComponent(path.join(home.library.root, dir))}`);
    await p.locator(`li[data-name="${tracks[0]}"]`).waitFor();
    expect(new URL(p.url()).search).toBe('');
    await p.locator('.ts-bottom-bar').waitFor();
    await screenshot(p, '18-mobile-home');
    await p.locator(`li[data-name="${tracks[0]}"] .ts-tree-button`).click();
    await p.locator('.bp6-drawer .bp6-heading', { hasText: '元数据详情' }).waitFor();
    await p.locator('#ts-field-title').waitFor();
    await screenshot(p, '19-mobile-editor');
    await p.keyboard.press('Escape');
    await p.locator('.ts-bottom-bar button', { hasText: '详情' }).click();
    await p.waitForURL(/\/detail$/);
    await p.locator('.bp6-drawer [data-testid="id3-table"]').waitFor();
    await expect.poll(() => p.locator('.bp6-drawer [data-testid="id3-table"]').getAttribute('data-rows')).toBe(String(tracks.length));
    await screenshot(p, '20-mobile-details');
    await phone.close();
  });
});
