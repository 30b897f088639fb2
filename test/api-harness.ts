/**
 * Shared set-up for the dashboard API tests (test/api-*.test.ts): a temp home with a real embedded
 * store, the in-process bus, a real worker, the gateway built with `buildApp` and called with
 * `inject()`, and helpers for the three ways a client authenticates (cookie + CSRF, header, none).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '@tagsonic/core/config';
import { buildApp, type GatewayDeps } from '@tagsonic/gateway';
import { startWorker, type Worker } from '@tagsonic/workers';
import { Scanner } from '@tagsonic/workers/scanner';
import { SubsonicCredentials } from '@tagsonic/core/users';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import type { Manifest } from '@tagsonic/sdk';
import { builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import { generateLibrary, type LibraryManifest } from '@tagsonic/test/library';

export const ADMIN_PASSWORD = 'api-admin-password';
export const USER_PASSWORD = 'api-alice-password';

export interface Harness {
  rt: Runtime;
  app: FastifyInstance;
  home: string;
  media: string;
  worker: Worker;
  close(): Promise<void>;
}

/** A small generated library, made once per machine and copied into each test's media folder. */
export async function sharedLibrary(): Promise<LibraryManifest> {
  return generateLibrary({ root: path.join(tmpdir(), 'tagsonic-api-test-library') });
}

export async function startHarness(options: { library?: boolean; env?: Record<string, string>; loginLimits?: GatewayDeps['loginLimits']; dashboardDir?: string; beforeReady?: (app: FastifyInstance) => Promise<void> } = {}): Promise<Harness> {
  const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-api-'));
  const rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home, ...options.env }));
  await rt.users.ensureAdmin(ADMIN_PASSWORD);
  await rt.users.create({ username: 'alice', password: USER_PASSWORD });
  if (options.library) {
    const lib = await sharedLibrary();
    await cp(lib.root, path.join(rt.config.mediaDir, 'lib'), { recursive: true, filter: (src) => !path.basename(src).startsWith('.tagsonic-library') });
  }
  const worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 2 });
  const app = await buildApp(gatewayDeps(rt, {
    buildId: 'test',
    loginLimits: options.loginLimits,
    dashboardDir: options.dashboardDir ?? path.join(home, 'no-dashboard'),
  }));
  await options.beforeReady?.(app);
  await app.ready();
  return {
    rt,
    app,
    home,
    media: rt.roots.root('media').dir,
    worker,
    async close() {
      await app.close();
      await worker.close();
      await rt.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** What the batch-action route tests share: a runtime with the named built-in plugins, a worker that runs them, the app. */
export interface ActionHarness {
  home: string;
  rt: Runtime;
  worker: Worker;
  app: FastifyInstance;
  admin: Session;
  media: string;
  /** With `scanner: true`: the library scanner the worker follows edits with (the test runs its first scan). */
  scanner?: Scanner;
  close: () => Promise<void>;
}

/**
 * The set-up every batch-action route test repeated: a temp home (`tagsonic-<name>-…`) with the embedded store, the
 * administrator, the named built-in plugins synced, a worker with the plugin pool (2 items at a time), the gateway
 * (`inject()`), and the administrator signed in. `setup` runs on the runtime before the worker starts (roles, users,
 * media files). `subsonicPassword` gives the administrator that Subsonic password (for /rest calls); `scanner` gives the
 * worker a library scanner, so the library follows the tasks' edits.
 */
export async function startActionHarness(options: {
  name: string;
  plugins: readonly string[];
  concurrency?: number;
  setup?: (rt: Runtime) => Promise<void>;
  subsonicPassword?: string;
  scanner?: boolean;
}): Promise<ActionHarness> {
  const home = await mkdtemp(path.join(tmpdir(), `tagsonic-${options.name}-`));
  const rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  await rt.users.ensureAdmin(ADMIN_PASSWORD);
  if (options.subsonicPassword) {
    const credentials = new SubsonicCredentials(rt.store, rt.users, rt.secrets.subsonicKey);
    await credentials.init();
    await credentials.setPassword('admin', options.subsonicPassword);
  }
  await options.setup?.(rt);
  for (const id of options.plugins) {
    const { manifest, code } = await builtinPlugin(id);
    await rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
  }
  const scanner = options.scanner ? new Scanner({ roots: rt.roots, library: rt.library.store, catalog: rt.library.catalog, bus: rt.bus, readerThreads: 1 }) : undefined;
  const worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: options.concurrency ?? 2, ...(scanner && { scanner }), plugins: { registry: rt.plugins, store: rt.store } });
  const app = await buildApp(gatewayDeps(rt, { buildId: 'test', dashboardDir: path.join(home, 'no-dashboard') }));
  await app.ready();
  const admin = await login(app);
  return {
    home,
    rt,
    worker,
    app,
    admin,
    media: rt.roots.root('media').dir,
    ...(scanner && { scanner }),
    async close() {
      await app.close();
      await worker.close();
      await rt.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** A signed-in browser: the cookies the login set, echoing the CSRF cookie in X-CSRFToken. */
export interface Session {
  username: string;
  token: string;
  csrf: string;
  cookie: string;
}

export async function login(app: FastifyInstance, username = 'admin', password = ADMIN_PASSWORD, extra: Record<string, unknown> = {}): Promise<Session> {
  const res = await app.inject({ method: 'POST', url: '/apimt/token/', payload: { username, password, ...extra } });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  const jar = Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
  expect(jar.AUTHORIZATION).toBe(`jwt ${body.token}`);
  return {
    username,
    token: body.token,
    csrf: jar.csrftoken,
    cookie: res.cookies.map((c) => `${c.name}=${encodeURIComponent(c.value)}`).join('; '),
  };
}

export type Auth = Session | 'none' | { header: string } | { cookieOnly: Session } | { csrf: string; session: Session };

/** Calls the API as a browser with cookies + CSRF (a Session), a header client, or anonymously. */
export async function call(
  app: FastifyInstance,
  auth: Auth,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const h: Record<string, string> = { ...headers };
  if (auth !== 'none') {
    if ('header' in auth) h.authorization = auth.header;
    else if ('cookieOnly' in auth) h.cookie = auth.cookieOnly.cookie;
    else if ('session' in auth) {
      h.cookie = auth.session.cookie;
      h['x-csrftoken'] = auth.csrf;
    } else {
      h.cookie = auth.cookie;
      h['x-csrftoken'] = auth.csrf;
    }
  }
  return app.inject({ method, url, headers: h, ...(payload === undefined ? {} : typeof payload === 'string' || Buffer.isBuffer(payload) ? { payload } : { payload: payload as object }) });
}

/** Asserts an envelope error: HTTP status, result false, the numeric code and the machine code. */
export function expectError(res: LightMyRequestResponse, status: number, error?: string, code?: number): any {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body.result).toBe(false);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.msg).toBe(body.message);
  expect(body.code).toBe(code ?? status * 100);
  if (error) expect(body.data?.error).toBe(error);
  expect(res.body).not.toMatch(/at \S+ \(|node:internal|\.ts:\d+/);
  return body;
}

export function expectOk(res: LightMyRequestResponse): any {
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body.result, res.body).toBe(true);
  expect(body.code).toBe(0);
  return body;
}
