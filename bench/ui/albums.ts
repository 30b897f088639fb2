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
 * 3. --trace <file>: a Chromium performance trace of the scroll phase (bench/ui/trace-summary.ts sums it up);
 *    --css '<rules>': CSS added before the scroll phase, to try a fix without editing the dashboard.
 * Prints a table, a one-line summary and a JSON line.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
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
    /** Writes a Chromium performance trace of the scroll phase to this file (see trace-summary.ts). */
    trace: { type: 'string' },
    /**
     * Serves the dashboard from this build folder instead of dashboard/dist (index.html for the albums URL and
     * /assets/* answered by the browser context): compares an experimental build with the same server and data.
     */
    dist: { type: 'string' },
    /** Prints every request of the last cold run (start → end, ms from navigation start): the waterfall. */
    waterfall: { type: 'boolean', default: false },
    /** CSS added to the page before the scroll phase: tries a fix without editing the dashboard. */
    css: { type: 'string' },
    /** Cold runs over a throttled network, `<round trip ms>,<Mbit/s>` (e.g. 40,20: a home server reached from outside). */
    network: { type: 'string' },
    /** Cold runs ask for uncompressed files (Accept-Encoding: identity): the peer of the build's brotli copies. */
    identity: { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const COVERS = Number(values.covers);
const SCROLL_SECONDS = Number(values['scroll-seconds']);
const SELECTOR = values.selector!;
const ALBUMS = 1000;

/**
 * In the page: ms from navigation start until the first `count` images of `selector` are done — decoded with a size,
 * or failed (a failed cover counts as done, else one bad file would hang the figure; failures are counted and shown).
 */
async function coversPainted(page: Page, selector: string, count: number): Promise<number> {
  const errors: string[] = [];
  const onError = (e: Error) => errors.push(e.message);
  page.on('pageerror', onError);
  try {
    const handle = await page.waitForFunction(
      ([sel, n]) => {
        const imgs = [...document.querySelectorAll<HTMLImageElement>(sel as string)].slice(0, n as number);
        return imgs.length >= (n as number) && imgs.every((i) => i.complete) ? performance.now() : false;
      },
      [selector, count] as const,
      { polling: 'raf', timeout: 60_000 },
    );
    const at = (await handle.jsonValue()) as number;
    const broken = await page.evaluate(([sel, n]) => [...document.querySelectorAll<HTMLImageElement>(sel as string)].slice(0, n as number).filter((i) => i.naturalWidth === 0).length, [selector, count] as const);
    if (broken > 0) brokenCovers += broken;
    return at;
  } catch (e) {
    const state = await page.evaluate((sel) => {
      const imgs = [...document.querySelectorAll<HTMLImageElement>(sel)];
      return { url: location.href, imgs: imgs.length, complete: imgs.filter((i) => i.complete).length, text: document.body.innerText.slice(0, 300) };
    }, selector);
    log(`covers not painted within 60 s: ${JSON.stringify({ ...state, errors })}`);
    throw e;
  } finally {
    page.off('pageerror', onError);
  }
}
/** Covers among the measured ones that failed to load (should stay 0). */
let brokenCovers = 0;

/**
 * Where a first render's time goes, from the page's Resource Timing (ms from navigation start): the main script
 * and stylesheet downloaded, the session check answered, the album list answered, the first covers' answers, the
 * first contentful paint. Printed as medians beside the figure — the profile that says which lever to pull.
 */
const MILESTONES_JS = `(() => {
  const res = performance.getEntriesByType('resource');
  const end = (re) => { const e = res.find((r) => re.test(r.name)); return e ? e.responseEnd : NaN; };
  const start = (re) => { const e = res.find((r) => re.test(r.name)); return e ? e.startTime : NaN; };
  const covers = res.filter((r) => /getCoverArt/.test(r.name)).slice(0, ${COVERS});
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const nav = performance.getEntriesByType('navigation')[0];
  return {
    html: nav ? nav.responseEnd : NaN,
    mainJs: end(/\\/assets\\/main-[^/]+\\.js/),
    mainCss: end(/\\/assets\\/main-[^/]+\\.css/),
    fcp: fcp ? fcp.startTime : NaN,
    session: end(/user\\/info/),
    albumListAsked: start(/getAlbumList2/),
    albumList: end(/getAlbumList2/),
    firstCoverStart: covers.length ? Math.min(...covers.map((c) => c.startTime)) : NaN,
    lastCover: covers.length ? Math.max(...covers.map((c) => c.responseEnd)) : NaN,
    coverMsP50: covers.length ? covers.map((c) => c.responseEnd - c.startTime).sort((a, b) => a - b)[Math.floor(covers.length / 2)] : NaN,
  };
})()`;

/** --dist: the context answers the albums page's HTML and every /assets/ file from that folder (covers and API calls go to the server). */
async function serveDist(ctx: BrowserContext): Promise<BrowserContext> {
  const dir = values.dist;
  if (!dir) return ctx;
  await ctx.route(
    (url) => url.pathname.startsWith('/assets/') || url.pathname.replace(/\/$/, '') === values.path!.replace(/\/$/, ''),
    async (route) => {
      const { pathname } = new URL(route.request().url());
      const file = pathname.startsWith('/assets/') ? path.join(dir, pathname) : path.join(dir, 'index.html');
      const body = await readFile(file).catch(() => null);
      if (!body) return route.continue();
      const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : file.endsWith('.html') ? 'text/html' : 'application/octet-stream';
      // As the server sends them: hashed assets cached for good, the page revalidated.
      const cache = pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
      await route.fulfill({ status: 200, body, headers: { 'content-type': type, 'cache-control': cache } });
    },
  );
  return ctx;
}

const bench = await startUiBench({ fresh: values.fresh });
try {
  const url = `${bench.server.base}${values.path}`;
  const albums = (await bench.rest<{ albumList2?: { album?: unknown[] } }>('getAlbumList2', { type: 'alphabeticalByName', size: 500, offset: 500 })).albumList2?.album?.length ?? 0;
  log(`library: ${500 + albums} albums or more (the second page of 500 holds ${albums})`);

  // Warm the server's caches (catalogue, covers) once so the cold runs measure the browser side.
  const warmUp = await serveDist(await bench.freshContext());
  const wp = await warmUp.newPage();
  await wp.goto(url);
  await coversPainted(wp, SELECTOR, COVERS);
  await warmUp.close();

  const cold: number[] = [];
  const milestones: Array<Record<string, number>> = [];
  for (let i = 0; i < RUNS; i++) {
    const ctx = await serveDist(await bench.freshContext());
    const page = await ctx.newPage();
    if (values.waterfall) {
      await page.addInitScript(() => {
        const w = window as unknown as { __longTasks: number[][] };
        w.__longTasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
        }).observe({ type: 'longtask', buffered: true });
      });
    }
    if (values.network || values.identity) {
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Network.enable');
      if (values.network) {
        const [rtt, mbit] = values.network.split(',').map(Number);
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: rtt!, downloadThroughput: (mbit! * 1e6) / 8, uploadThroughput: (mbit! * 1e6) / 8 });
      }
      if (values.identity) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
    }
    await page.goto(url, { waitUntil: 'commit' });
    cold.push(await coversPainted(page, SELECTOR, COVERS));
    milestones.push((await page.evaluate(MILESTONES_JS)) as Record<string, number>);
    if (values.waterfall && i === RUNS - 1) {
      const rows = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((r) => ({ name: r.name.replace(location.origin, '').replace(/[?&](u|t|s|v|c|f)=[^&]*/g, ''), start: Math.round(r.startTime), end: Math.round((r as PerformanceResourceTiming).responseEnd) })),
      );
      const longTasks = await page.evaluate(() => (window as unknown as { __longTasks?: number[][] }).__longTasks ?? []);
      for (const r of rows.filter((x) => !/getCoverArt/.test(x.name))) log(`  ${String(r.start).padStart(5)} → ${String(r.end).padStart(5)}  ${r.name.slice(0, 100)}`);
      log(`  (+ ${rows.filter((x) => /getCoverArt/.test(x.name)).length} covers)  long tasks [start, ms]: ${JSON.stringify(longTasks)}`);
    }
    await ctx.close();
  }
  const warm: number[] = [];
  const wctx = await serveDist(await bench.freshContext());
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
  if (values.css) await page.addStyleTag({ content: values.css });
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
  if (values.trace) await bench.browser.startTracing(page, { path: values.trace, categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'] });
  const until = performance.now() + SCROLL_SECONDS * 1000;
  let direction = 1;
  for (let step = 0; performance.now() < until; step++) {
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: box.x, y: box.y, deltaX: 0, deltaY: 120 * direction });
    // Turn round at either end (checked every 10 steps: each check is a round trip).
    if (step % 10 === 9) {
      const at = await scroller.evaluate((el) => (el.scrollTop + el.clientHeight >= el.scrollHeight - 5 ? 'end' : el.scrollTop <= 0 ? 'top' : 'mid'));
      if (at !== 'mid') direction = at === 'end' ? -1 : 1;
    }
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  }
  if (values.trace) {
    await bench.browser.stopTracing();
    log(`trace of the scroll written to ${values.trace}; main-thread time by event: node bench/ui/trace-summary.ts ${values.trace}`);
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
  const median = (key: string) => round(percentile(milestones.map((m) => m[key]!).filter(Number.isFinite), 50));
  process.stdout.write(
    `cold first render, medians from navigation start (ms): html ${median('html')}, main.css ${median('mainCss')}, main.js ${median('mainJs')}, first paint ${median('fcp')}, session ${median('session')}, album list asked ${median('albumListAsked')} / answered ${median('albumList')}, first cover asked ${median('firstCoverStart')}, last of ${COVERS} covers ${median('lastCover')} (one cover ${median('coverMsP50')} ms), painted ${round(p50)}\n`,
  );
  if (brokenCovers > 0) process.stdout.write(`note: ${brokenCovers} measured covers failed to load\n`);
  process.stdout.write(`scroll: ${round(fps)} fps over ${round(spanMs / 1000)} s, ${long} frames over 25 ms, scrolled to ${scrolled} px (target ≥ 55 fps); loading ${loaded} albums took ${round(loadSeconds)} s\n`);
  const ok = p50 <= 300 && fps >= 55;
  process.stdout.write(
    `summary: albums first render cold p50 ${round(p50)} ms / p95 ${round(percentile(cold, 95))} ms, warm p50 ${round(percentile(warm, 50))} ms; scroll ${round(fps)} fps with ${loaded} albums — ${ok ? 'targets met' : 'target missed'} (load ${load().join(' ')})\n`,
  );
  process.stdout.write(`JSON ${JSON.stringify({ bench: 'ui-albums', covers: COVERS, cold, warm, milestones, fps: round(fps), frameP95: round(percentile(gaps, 95)), longFrames: long, albumsLoaded: loaded, load: load() })}\n`);
} finally {
  await bench.close();
}
