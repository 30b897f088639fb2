/**
 * The start every library-screen browser test shares (issue 13): a real `tagsonic start` over a copy of the
 * generated small library, the administrator made V2 with a Subsonic password (the library pages read our own
 * /rest with u/t/s, spec doc 2 §6), the library scanned, and a Chromium page signed in. `api()` calls the
 * dashboard API with the page's cookies and CSRF token; `rest()` calls /rest as the administrator.
 */
import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildDashboard, launchBrowser, makeHome, newContext, screenshot, startServer, type Home, type Server } from './harness.ts';

export interface LibraryBrowser {
  home: Home;
  server: Server;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  password: string;
  subsonicPassword: string;
  /** POST (with a body) or GET (without) on the dashboard API, with the page's cookies and CSRF header. */
  api: <T = unknown>(pathname: string, body?: unknown) => Promise<{ result: boolean; message: string; code?: string; data: T }>;
  /** GET /rest/<method> as the administrator (u/t/s), the `subsonic-response` object. */
  rest: <T = Record<string, unknown>>(method: string, params?: Record<string, string | number>) => Promise<T & { status: string }>;
  /** Navigates and waits for the page's root `[data-testid=…]` to show. */
  open: (pathname: string, testId?: string) => Promise<void>;
  /** Screenshot into test/browser/screenshots/<name>.png (also `/tmp/shots-*` by copying if wanted). */
  shot: (name: string) => Promise<string>;
  close: () => Promise<void>;
}

export async function startLibraryBrowser(options: { viewport?: { width: number; height: number }; bigCount?: number } = {}): Promise<LibraryBrowser> {
  await buildDashboard();
  const home = await makeHome(options.bigCount ?? 10);
  const password = 'library-browser-password';
  const subsonicPassword = 'library-subsonic-secret';
  const server = await startServer(home.home, password);
  const browser = await launchBrowser();
  const context = await newContext(browser, options.viewport);
  const page = await context.newPage();

  const api = async <T = unknown>(pathname: string, body?: unknown) => {
    const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
    const headers = { 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' };
    const res = body === undefined ? await page.request.get(`${server.base}${pathname}`, { headers }) : await page.request.post(`${server.base}${pathname}`, { data: body, headers });
    return (await res.json()) as { result: boolean; message: string; code?: string; data: T };
  };
  const rest: LibraryBrowser['rest'] = async (method, params = {}) => {
    const salt = randomBytes(6).toString('hex');
    const token = createHash('md5').update(`${subsonicPassword}${salt}`).digest('hex');
    const query = new URLSearchParams({ u: 'admin', t: token, s: salt, v: '1.16.1', c: 'browser-test', f: 'json', ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
    const res = await fetch(`${server.base}/rest/${method}?${query}`);
    return ((await res.json()) as { 'subsonic-response': never })['subsonic-response'];
  };

  await page.goto(`${server.base}/login`);
  await page.fill('#ts-username', 'admin');
  await page.fill('#ts-password', password);
  await page.press('#ts-password', 'Enter');
  await page.waitForURL(`${server.base}/`);
  const role = await api('/apimt/admin/users/admin/role/', { role: 'V2' });
  if (!role.result) throw new Error(`could not make admin V2: ${role.message}`);
  const pass = await api('/apimt/admin/users/admin/subsonic_password/', { password: subsonicPassword });
  if (!pass.result) throw new Error(`could not set the Subsonic password: ${pass.message}`);

  const scan = await rest('startScan');
  if (scan.status !== 'ok') throw new Error(`startScan: ${JSON.stringify(scan)}`);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const st = (await rest<{ scanStatus?: { scanning: boolean; count?: number } }>('getScanStatus')).scanStatus;
    if (st && !st.scanning && (st.count ?? 0) > 0) break;
    if (Date.now() > deadline) throw new Error(`the library scan did not finish within 90 s: ${JSON.stringify(st)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  // The shell writes the fresh salt/hash cookies from /user/info/ on load.
  await page.goto(`${server.base}/`);
  const cookieDeadline = Date.now() + 20_000;
  while (!(await context.cookies()).some((c) => c.name === 'hash')) {
    if (Date.now() > cookieDeadline) throw new Error('the shell did not store the Subsonic cookies (username, salt, hash)');
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    home,
    server,
    browser,
    context,
    page,
    password,
    subsonicPassword,
    api,
    rest,
    async open(pathname, testId) {
      await page.goto(`${server.base}${pathname}`);
      if (testId) await page.getByTestId(testId).waitFor();
    },
    shot: (name) => screenshot(page, name),
    async close() {
      await browser.close().catch(() => undefined);
      await server.stop();
      await rm(home.home, { recursive: true, force: true });
    },
  };
}
