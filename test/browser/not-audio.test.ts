/**
 * The file browser shows which files the library scan left out as not songs (issue 10, item 12b):
 * random bytes named .mp3 and a FLAC cut after its header carry a "不是歌曲" mark whose tooltip is the
 * scan's reason; a real song next to them has none. Real files, a real scan, the real server, chromium.
 */
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '@tagsonic/core/config';
import { openRuntime } from '@tagsonic/cli';
import { Scanner } from '@tagsonic/workers/scanner';
import { buildDashboard, launchBrowser, makeHome, newContext, startServer, type Home, type Server } from './harness.ts';

const PASSWORD = 'browser-not-audio-password';
const SHOTS = '/tmp/shots-library';

let home: Home;
let server: Server;
let browser: Browser;
let page: Page;
let folder: string;

beforeAll(async () => {
  await buildDashboard();
  home = await makeHome(1);
  folder = path.join(home.library.root, 'Not Songs');
  await mkdir(folder);
  const flac = home.library.files.find((f) => f.kind === 'audio' && f.format === 'flac' && !f.cue)!;
  const source = path.join(home.library.root, ...flac.path.split('/'));
  await copyFile(source, path.join(folder, 'real song.flac'));
  // Bytes in which a stray 0xFF… reads as an MPEG frame header, and a FLAC of 42 bytes (header and STREAMINFO).
  const junk = new Uint8Array(64 * 1024);
  let x = 10;
  for (let i = 0; i < junk.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    junk[i] = x & 0xff;
  }
  await writeFile(path.join(folder, 'random.mp3'), junk);
  await writeFile(path.join(folder, 'cut.flac'), (await readFile(source)).subarray(0, 42));
  // The scan the server's worker would run, done before it starts (one process opens the store at a time here).
  const rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home.home }));
  await new Scanner({ roots: rt.roots, library: rt.library.store, catalog: rt.library.catalog, readerThreads: 2 }).scan();
  await rt.close();
  server = await startServer(home.home, PASSWORD);
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (home) await rm(home.home, { recursive: true, force: true });
});

describe('file browser: files that are not songs', { timeout: 120_000 }, () => {
  it('marks them with the scan’s reason, and leaves real songs unmarked', async () => {
    // The first folder answers late, after the path has been typed and before Enter: what was typed must stay
    // (the box used to be reset to the folder that finished loading, and Enter then opened that one).
    let delayed = false;
    await page.route('**/apimt/file_list/', async (route) => {
      if (delayed) return route.continue();
      delayed = true;
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.fulfill({ response });
    });
    const first = page.waitForResponse('**/apimt/file_list/');
    await page.goto(`${server.base}/`);
    await page.waitForURL(/\/login$/);
    await page.fill('#ts-username', 'admin');
    await page.fill('#ts-password', PASSWORD);
    await page.press('#ts-password', 'Enter');
    await page.waitForURL(`${server.base}/`);
    const box = page.locator('.ts-tree-toolbar input[aria-label="路径"]');
    await box.fill(folder);
    await first;
    await page.waitForTimeout(100);
    expect(await box.inputValue()).toBe(folder);
    await box.press('Enter');
    await page.locator('[data-testid="file-tree"]:not([data-loading])').waitFor();
    const row = (name: string) => page.locator(`[data-testid="file-tree"] li[data-name="${name}"]`);
    await row('real song.flac').waitFor();
    for (const name of ['random.mp3', 'cut.flac']) {
      expect(await row(name).getAttribute('data-scan-problem')).toBe('TAGSONIC_ERR_LIBRARY_NOT_AUDIO');
      const mark = row(name).locator('.ts-tree-problem');
      expect(await mark.textContent()).toBe('不是歌曲');
      // The tooltip is the reason: the server's text, or the dashboard's own for the code once it has one.
      expect(await mark.getAttribute('title')).toBeTruthy();
    }
    expect(await row('real song.flac').locator('.ts-tree-problem').count()).toBe(0);
    expect(await row('real song.flac').getAttribute('data-scan-problem')).toBeNull();
    await mkdir(SHOTS, { recursive: true });
    await row('random.mp3').locator('.ts-tree-problem').hover();
    await page.screenshot({ path: path.join(SHOTS, 'not-audio-file-tree.png') });
  });
});
