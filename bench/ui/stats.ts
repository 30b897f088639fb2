/**
 * First render of the statistics screens in Debian's chromium over the cached 10k library with a year of plays:
 *   node --no-node-snapshot bench/ui/stats.ts [--runs 10] [--plays 3000] [--fresh]
 *
 * Plays: when the administrator has fewer than --plays, scrobbles are added (random tracks, times spread over the
 * last 365 days, four client names) so every chart has data. For /index and /record: a warm-up visit counts the
 * charts the screen draws once it has settled (its <canvas> elements — uPlot draws into one each — and its <svg>
 * charts with content); each cold run then navigates (new context: no HTTP cache, as a first visit), each warm run
 * reloads the warmed-up page (its cache filled, as a returning visit), and measures from navigation start until that
 * many charts are drawn with a size and no spinner is left (checked every animation frame in the page). p50/p95 over
 * --runs each (target ≤ 500 ms). Prints a table, a one-line summary and a JSON line.
 */
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { load, log, percentile, printTable, round, startUiBench } from './browser.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    plays: { type: 'string', default: '3000' },
    fresh: { type: 'boolean', default: false },
    screens: { type: 'string', default: '/index,/record' },
    /** Folder for a screenshot of each screen once settled (to see what was counted). */
    shots: { type: 'string' },
  },
});
const RUNS = Number(values.runs);
const PLAYS = Number(values.plays);
const TARGET_MS = 500;
const CLIENTS = ['tagsonic-dashboard', 'DSub', 'Feishin', 'Symfonium'];

/**
 * In the page: the charts drawn (canvases with a size — uPlot draws into one each — and svg charts with shapes,
 * Blueprint's icons excluded) and the spinners left. With `expected`, the time from navigation start once that many
 * charts are drawn and no spinner is left, else false (a waitForFunction predicate: a real function, since the
 * page's CSP, script-src 'self', forbids eval).
 */
const chartState = ({ expected }: { expected: number | null }) => {
  const canvases = [...document.querySelectorAll('canvas')].filter((c) => c.width > 0 && c.height > 0 && c.getBoundingClientRect().width > 0);
  const svgs = [...document.querySelectorAll('svg')].filter((g) => !g.closest('.bp6-icon, .bp5-icon, [data-icon]') && g.getBoundingClientRect().width > 40 && g.querySelector('path, rect, circle'));
  const charts = canvases.length + svgs.length;
  const spinners = document.querySelectorAll('.bp6-spinner, .bp6-skeleton').length;
  if (expected === null) return { charts, spinners };
  return charts >= expected && spinners === 0 ? performance.now() : false;
};

async function chartsDrawn(page: Page, expected: number): Promise<number> {
  const handle = await page.waitForFunction(chartState, { expected }, { polling: 'raf', timeout: 60_000 });
  return (await handle.jsonValue()) as number;
}

const bench = await startUiBench({ fresh: values.fresh });
try {
  // Plays: what the administrator has (the most played albums' counts summed) against --plays.
  const frequent = (await bench.rest<{ albumList2?: { album?: Array<{ playCount?: number }> } }>('getAlbumList2', { type: 'frequent', size: 500 })).albumList2?.album ?? [];
  const have = frequent.reduce((s, a) => s + (a.playCount ?? 0), 0);
  if (have < PLAYS) {
    const songs = (await bench.rest<{ randomSongs?: { song?: Array<{ id: string }> } }>('getRandomSongs', { size: 500 })).randomSongs?.song ?? [];
    const now = Date.now();
    let rnd = 7;
    const next = () => (rnd = (rnd * 48271) % 2147483647) / 2147483647;
    for (let i = have; i < PLAYS; i += 50) {
      const ids: string[] = [];
      const times: number[] = [];
      for (let j = 0; j < 50; j++) {
        // Skewed towards a few songs (so there are favourites) and towards recent days.
        ids.push(songs[Math.floor(next() ** 2 * songs.length)]!.id);
        times.push(Math.round(now - next() ** 1.5 * 365 * 86_400_000));
      }
      const r = await bench.rest('scrobble', { id: ids, time: times, submission: 'true', c: CLIENTS[(i / 50) % CLIENTS.length]! });
      if (r.status !== 'ok') throw new Error(`scrobble: ${JSON.stringify(r)}`);
    }
    log(`added ${PLAYS - have} plays`);
  }

  const rows: Array<Array<string | number>> = [];
  const results: Record<string, { charts: number; runs: number[] }> = {};
  const warmResults: Record<string, number[]> = {};
  for (const screen of values.screens!.split(',')) {
    const url = `${bench.server.base}${screen}`;
    const warm = await bench.freshContext();
    const wp = await warm.newPage();
    await wp.goto(url, { waitUntil: 'networkidle' });
    await wp.waitForTimeout(1500);
    const { charts } = (await wp.evaluate(chartState, { expected: null })) as { charts: number };
    if (values.shots) await wp.screenshot({ path: `${values.shots}/${screen.replace(/\W+/g, '') || 'root'}.png`, fullPage: true });
    if (charts === 0) log(`${screen}: no chart found after the page settled — timing until the page has no spinner`);
    // Warm: reloads in the warmed-up context (its HTTP cache holds the scripts and covers), as a returning visit.
    const warmRuns: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await wp.reload({ waitUntil: 'commit' });
      warmRuns.push(await chartsDrawn(wp, charts));
    }
    await warm.close();
    warmResults[screen] = warmRuns;
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const ctx = await bench.freshContext();
      const page = await ctx.newPage();
      await page.goto(url, { waitUntil: 'commit' });
      runs.push(await chartsDrawn(page, charts));
      await ctx.close();
    }
    results[screen] = { charts, runs };
    rows.push([`${screen} cold (${charts} charts)`, round(percentile(runs, 50)), round(percentile(runs, 95)), round(Math.min(...runs)), round(Math.max(...runs)), runs.length, `≤ ${TARGET_MS} p50`]);
    rows.push([`${screen} warm (${charts} charts)`, round(percentile(warmRuns, 50)), round(percentile(warmRuns, 95)), round(Math.min(...warmRuns)), round(Math.max(...warmRuns)), warmRuns.length, `≤ ${TARGET_MS} p50`]);
  }
  printTable(['first render (ms)', 'p50', 'p95', 'min', 'max', 'runs', 'target'], rows);
  const summary = Object.entries(results).map(([s, r]) => `${s} cold p50 ${round(percentile(r.runs, 50))} ms / p95 ${round(percentile(r.runs, 95))} ms, warm p50 ${round(percentile(warmResults[s]!, 50))} ms (${r.charts} charts)`);
  const ok = Object.values(results).every((r) => percentile(r.runs, 50) <= TARGET_MS && r.charts > 0);
  process.stdout.write(`summary: ${summary.join('; ')} — ${ok ? 'targets met' : 'target missed'} (load ${load().join(' ')})\n`);
  process.stdout.write(`JSON ${JSON.stringify({ bench: 'ui-stats', results, warm: warmResults, load: load() })}\n`);
} finally {
  await bench.close();
}
