/**
 * Albums list figures in Debian's chromium over the cached 10k library (1 000 albums):
 *   node --no-node-snapshot bench/ui/albums.ts [--runs 12] [--covers 50] [--scroll-seconds 6] [--fresh]
 *
 * 1. First render: navigation to /albums/recently-added → the first `--covers` covers of the grid painted
 *    (`img.complete && naturalWidth > 0`, checked every animation frame in the page), measured from the
 *    document's navigation start (performance.now() in the page). Cold: a new context per run (no HTTP cache,
 *    every chunk and cover fetched); warm: reloads in one context. p50/p95 over --runs each (target ≤ 300 ms p50).
 * 2. Scroll: the grid scrolled to the end until all 1 000 albums are loaded (infinite list, 50 a batch), back to
 *    the top, then wheel steps of 120 px per animation frame (real wheel events through CDP, so the page scrolls as
 *    under a mouse, lazy covers and all) for --scroll-seconds; frames counted with requestAnimationFrame in the
 *    page: fps, frame-time p50/p95/max and frames over 25 ms (target ≥ 55 fps).
 * Prints a table, a one-line summary and a JSON line.
 */
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { load, log, percentile, printTable, round, startUiBench } from './browser.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '12' },
    covers: { type: 'string', default: '50' },
    'scroll-seconds': { type: 'string', default: '6' },
    fresh: { type: 'boolean', default: false },
    /** The grid's cover images (the shared CoverGrid, features/library/components/cover-grid.tsx). */
    selector: { type: 'string', default: '[data-testid="album-grid"] img' },
    path: { type: 'string', default: '/albums/recently-added' },
  },
});
const RUNS = Number(values.runs);
const COVERS = Number(values.covers);
const SCROLL_SECONDS = Number(values['scroll-seconds']);
const SELECTOR = values.selector!;
const ALBUMS = 1000;

/** In the page: ms from navigation start until `count` images of `selector` are decoded with a size. */
async function coversPainted(page: Page, selector: string, count: number): Promise<number> {
  const handle = await page.waitForFunction(
    ([sel, n]) => {
      const imgs = [...document.querySelectorAll<HTMLImageElement>(sel as string)].slice(0, n as number);
      return imgs.length >= (n as number) && imgs.every((i) => i.complete && i.naturalWidth > 0) ? performance.now() : false;
    },
    [selector, count] as const,
    { polling: 'raf', timeout: 60_000 },
  );
  return (await handle.jsonValue()) as number;
}

const bench = await startUiBench({ fresh: values.fresh });
try {
  const url = `${bench.server.base}${values.path}`;
  const albums = (await bench.rest<{ albumList2?: { album?: unknown[] } }>('getAlbumList2', { type: 'alphabeticalByName', size: 500, offset: 500 })).albumList2?.album?.length ?? 0;
  log(`library: ${500 + albums} albums or more (the second page of 500 holds ${albums})`);

  // Warm the server's caches (catalogue, covers) once so the cold runs measure the browser side.
  const warmUp = await bench.freshContext();
  const wp = await warmUp.newPage();
  await wp.goto(url);
  await coversPainted(wp, SELECTOR, COVERS);
  await warmUp.close();

  const cold: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const ctx = await bench.freshContext();
    const page = await ctx.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    cold.push(await coversPainted(page, SELECTOR, COVERS));
    await ctx.close();
  }
  const warm: number[] = [];
  const wctx = await bench.freshContext();
  const page = await wctx.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  await page.goto(url);
  await coversPainted(page, SELECTOR, COVERS);
  for (let i = 0; i < RUNS; i++) {
    await page.reload({ waitUntil: 'commit' });
    warm.push(await coversPainted(page, SELECTOR, COVERS));
  }

  // Scroll: load every album first (the infinite list stops at its first short page).
  const scroller = await page.evaluateHandle((sel) => {
    let el: HTMLElement | null = document.querySelector<HTMLElement>(sel)!;
    while (el && !(el.scrollHeight > el.clientHeight + 10 && /(auto|scroll)/.test(getComputedStyle(el).overflowY))) el = el.parentElement;
    return el ?? (document.scrollingElement as HTMLElement);
  }, SELECTOR);
  const loadStarted = performance.now();
  let loaded = 0;
  // Gives up after 30 s without a new batch (a loaded machine answers slowly; the list itself never stalls).
  for (let lastChange = performance.now(); loaded < ALBUMS && performance.now() - lastChange < 30_000; ) {
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForTimeout(150);
    const now = await page.locator(SELECTOR).count();
    if (now !== loaded) lastChange = performance.now();
    loaded = now;
  }
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  log(`grid holds ${loaded} covers after ${round(loadSeconds)} s of scrolling`);
  if (loaded < ALBUMS) {
    log(`the list stopped early: ${JSON.stringify(await scroller.evaluate((el) => ({ tag: el.tagName, cls: el.className, top: el.scrollTop, height: el.scrollHeight, client: el.clientHeight })))}`);
    log(`page notices: ${JSON.stringify(await page.locator('.bp6-toast').allTextContents())}; console errors: ${JSON.stringify(consoleErrors.slice(0, 5))}`);
  }
  await scroller.evaluate((el) => el.scrollTo(0, 0));
  await page.waitForTimeout(500);

  const box = await scroller.evaluate((el) => {
    const r = el === document.scrollingElement ? { left: 0, top: 0, width: innerWidth, height: innerHeight } : el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + Math.min(r.height, innerHeight) / 2 };
  });
  await page.mouse.move(box.x, box.y);
  // Frames are counted in the page while the wheel steps come from CDP, one per animation frame of the page.
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stop: boolean };
    w.__frames = [];
    w.__stop = false;
    const tick = (t: number) => {
      w.__frames.push(t);
      if (!w.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const cdp = await page.context().newCDPSession(page);
  const until = performance.now() + SCROLL_SECONDS * 1000;
  let direction = 1;
  while (performance.now() < until) {
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: box.x, y: box.y, deltaX: 0, deltaY: 120 * direction });
    const atEnd = await scroller.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 5 || el.scrollTop <= 0);
    if (atEnd) direction = (await scroller.evaluate((el) => el.scrollTop <= 0)) ? 1 : -1;
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  }
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stop: boolean };
    w.__stop = true;
    return w.__frames;
  });
  const scrolled = await scroller.evaluate((el) => el.scrollTop);
  await cdp.detach();
  await wctx.close();

  const gaps = frames.slice(1).map((t, i) => t - frames[i]!);
  const spanMs = frames.at(-1)! - frames[0]!;
  const fps = (gaps.length / spanMs) * 1000;
  const long = gaps.filter((g) => g > 25).length;

  const p50 = percentile(cold, 50);
  printTable(
    ['measure', 'p50', 'p95', 'min', 'max', 'runs', 'target'],
    [
      [`first ${COVERS} covers, cold (ms)`, round(p50), round(percentile(cold, 95)), round(Math.min(...cold)), round(Math.max(...cold)), cold.length, '≤ 300 p50'],
      [`first ${COVERS} covers, warm (ms)`, round(percentile(warm, 50)), round(percentile(warm, 95)), round(Math.min(...warm)), round(Math.max(...warm)), warm.length, '≤ 300 p50'],
      [`scroll frame time (ms), ${loaded} albums`, round(percentile(gaps, 50)), round(percentile(gaps, 95)), round(Math.min(...gaps)), round(Math.max(...gaps)), gaps.length, ''],
    ],
  );
  process.stdout.write(`scroll: ${round(fps)} fps over ${round(spanMs / 1000)} s, ${long} frames over 25 ms, scrolled to ${scrolled} px (target ≥ 55 fps); loading ${loaded} albums took ${round(loadSeconds)} s\n`);
  const ok = p50 <= 300 && fps >= 55;
  process.stdout.write(
    `summary: albums first render cold p50 ${round(p50)} ms / p95 ${round(percentile(cold, 95))} ms, warm p50 ${round(percentile(warm, 50))} ms; scroll ${round(fps)} fps with ${loaded} albums — ${ok ? 'targets met' : 'target missed'} (load ${load().join(' ')})\n`,
  );
  process.stdout.write(`JSON ${JSON.stringify({ bench: 'ui-albums', covers: COVERS, cold, warm, fps: round(fps), frameP95: round(percentile(gaps, 95)), longFrames: long, albumsLoaded: loaded, load: load() })}\n`);
} finally {
  await bench.close();
}
