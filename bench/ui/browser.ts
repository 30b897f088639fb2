/**
 * What the dashboard benches share: the real server (`tagsonic start`, as the browser tests start it) over the cached
 * 10k library, the administrator made V2 with a Subsonic password (the library screens read /rest with u/t/s), the
 * library scanned, and Debian's chromium signed in. The home (its store) is kept in /tmp/tagsonic-bench-ui between
 * runs, so a second run only rescans an unchanged library; its media folder is a link to the library, which is never
 * written. `--fresh` starts from an empty home.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, symlink } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { generateLibrary } from '@tagsonic/test/library';
import { buildDashboard, launchBrowser, newContext, startServer, type Server } from '../../test/browser/harness.ts';

export const LIBRARY = '/tmp/tagsonic-bench-10k';
export const HOME = '/tmp/tagsonic-bench-ui';
const PASSWORD = 'bench-ui-admin-password';
const SUBSONIC_PASSWORD = 'bench-ui-subsonic-password';

export const log = (line: string) => process.stderr.write(`${line}\n`);
export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
export const load = () => loadavg().map((l) => round(l, 2));

/** The p-th percentile (nearest rank) of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A fixed-width table on stdout. */
export function printTable(head: string[], rows: Array<Array<string | number>>): void {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  for (const [n, r] of cells.entries()) {
    process.stdout.write(`${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}\n`);
    if (n === 0) process.stdout.write(`${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  }
}

export interface UiBench {
  server: Server;
  browser: Browser;
  /** The signed-in context (session cookie, CSRF token, the Subsonic cookies the shell writes). */
  context: BrowserContext;
  page: Page;
  /** A new context with the signed-in cookies and local storage and an empty HTTP cache: a first visit. */
  freshContext(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  /** GET /rest/<method> as the administrator; array values repeat the parameter. */
  rest<T = Record<string, unknown>>(method: string, params?: Record<string, string | number | Array<string | number>>): Promise<T & { status: string }>;
  close(): Promise<void>;
}

export async function startUiBench(options: { fresh?: boolean; viewport?: { width: number; height: number } } = {}): Promise<UiBench> {
  if (!existsSync(path.join(LIBRARY, '.tagsonic-library.json'))) log(`generating the 10k library in ${LIBRARY} (~10 min) …`);
  await generateLibrary({ root: LIBRARY, size: 10_000 });
  if (options.fresh) await rm(HOME, { recursive: true, force: true });
  await mkdir(HOME, { recursive: true });
  if (!existsSync(path.join(HOME, 'media'))) await symlink(LIBRARY, path.join(HOME, 'media'));
  log(`building the dashboard … ${await buildDashboard()}`);
  const server = await startServer(HOME, PASSWORD);
  const browser = await launchBrowser();
  const context = await newContext(browser, options.viewport);
  const page = await context.newPage();

  const csrf = async () => (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
  const apiPost = async (pathname: string, body: unknown) => {
    const res = await page.request.post(`${server.base}${pathname}`, { data: body, headers: { 'X-CSRFToken': await csrf(), 'X-Requested-With': 'XMLHttpRequest' } });
    const envelope = (await res.json()) as { result: boolean; message: string };
    if (!envelope.result) throw new Error(`${pathname}: ${envelope.message}`);
  };
  const rest: UiBench['rest'] = async (method, params = {}) => {
    const salt = randomBytes(6).toString('hex');
    const token = createHash('md5').update(`${SUBSONIC_PASSWORD}${salt}`).digest('hex');
    const query = new URLSearchParams({ u: 'admin', t: token, s: salt, v: '1.16.1', c: 'bench-ui', f: 'json' });
    for (const [k, v] of Object.entries(params)) {
      if (!Array.isArray(v)) query.set(k, String(v));
      else for (const one of v) query.append(k, String(one));
    }
    const res = await fetch(`${server.base}/rest/${method}?${query}`);
    return ((await res.json()) as { 'subsonic-response': never })['subsonic-response'];
  };

  await page.goto(`${server.base}/login`);
  await page.fill('#ts-username', 'admin');
  await page.fill('#ts-password', PASSWORD);
  await page.press('#ts-password', 'Enter');
  await page.waitForURL(`${server.base}/`);
  await apiPost('/apimt/admin/users/admin/role/', { role: 'V2' });
  await apiPost('/apimt/admin/users/admin/subsonic_password/', { password: SUBSONIC_PASSWORD });

  const started = performance.now();
  const scan = await rest('startScan');
  if (scan.status !== 'ok') throw new Error(`startScan: ${JSON.stringify(scan)}`);
  for (;;) {
    const st = (await rest<{ scanStatus?: { scanning: boolean; count?: number } }>('getScanStatus')).scanStatus;
    if (st && !st.scanning && (st.count ?? 0) > 0) {
      log(`library scanned: ${st.count} tracks in ${round((performance.now() - started) / 1000)} s`);
      break;
    }
    if (performance.now() - started > 600_000) throw new Error(`the scan did not finish within 10 min: ${JSON.stringify(st)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  // The shell writes the Subsonic cookies (username, salt, hash) from /user/info/ on load.
  await page.goto(`${server.base}/`);
  const deadline = Date.now() + 60_000;
  while (!(await context.cookies()).some((c) => c.name === 'hash')) {
    if (Date.now() > deadline) throw new Error(`the shell did not store the Subsonic cookies (at ${page.url()}, cookies: ${(await context.cookies()).map((c) => c.name).join(', ')})`);
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    server,
    browser,
    context,
    page,
    rest,
    async freshContext(viewport) {
      const state = await context.storageState();
      const fresh = await browser.newContext({ viewport: viewport ?? options.viewport ?? { width: 1400, height: 860 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', storageState: state });
      fresh.setDefaultTimeout(30_000);
      return fresh;
    },
    async close() {
      await browser.close().catch(() => undefined);
      await server.stop();
    },
  };
}
