/**
 * Shared by the built-in tag-source tests: a local HTTP server that replays a service's answers and records
 * every request (so each test asserts the request shape too), and a loader that bundles `plugins/<id>` and
 * points it at that server through `TAGSONIC_SOURCE_URL_<ID>`, through the real loadPlugin, sandbox and
 * guarded http. Call `sourceFake` at a test file's top level: it registers the server's and the plugins'
 * set-up and tear-down hooks.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { loadPlugin, type LoadedPlugin, type LoadPluginOptions, type PluginSettings } from '@tagsonic/workers/plugin-runtime';
import { builtinPlugin } from '../../workers/src/plugin-runtime/builtin.ts';

/** One request the fake received. */
export interface SeenRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** `GET`, `POST`, … */
  method: string;
  /** The request body as UTF-8 text (`''` without one): a form or JSON a source POSTs. */
  body: string;
}

/**
 * The fake's answer: status, content type, a body (a string is sent as is, anything else as JSON), and extra
 * response headers if any (`retry-after` on a 429).
 */
export type FakeAnswer = [status: number, contentType: string, body: unknown, headers?: Record<string, string>];

export interface SourceFake {
  /** Every request so far, oldest first. */
  readonly seen: SeenRequest[];
  /** The fake's base URL (what the plugin's `baseUrl` becomes). */
  baseUrl(): string;
  /**
   * Builds and loads the built-in plugin against the fake; closed after each test. `options` are passed on to
   * loadPlugin (e.g. `httpLimits: { timeoutMs }` for a source's timeout test).
   */
  load(settings?: PluginSettings, options?: Pick<LoadPluginOptions, 'httpLimits' | 'sandbox' | 'host'>): Promise<LoadedPlugin>;
}

/**
 * `answer` gets the path and query, and the whole request (method, headers, body) for a source whose answer
 * depends on them (a token endpoint checking its Basic credentials); it may return a promise (a slow answer).
 */
export function sourceFake(
  id: string,
  answer: (path: string, query: URLSearchParams, request: SeenRequest) => FakeAnswer | Promise<FakeAnswer>,
): SourceFake {
  let server: Server;
  let port = 0;
  const seen: SeenRequest[] = [];
  const loaded: LoadedPlugin[] = [];
  const baseUrl = () => `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request: SeenRequest = { path: url.pathname, query: url.searchParams, headers: req.headers, method: req.method ?? 'GET', body: Buffer.concat(chunks).toString('utf8') };
        seen.push(request);
        void Promise.resolve(answer(url.pathname, url.searchParams, request)).then(([status, type, body, headers]) => {
          if (!res.destroyed) res.writeHead(status, { ...headers, 'content-type': type }).end(typeof body === 'string' ? body : JSON.stringify(body));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(() => {
    for (const plugin of loaded.splice(0)) plugin.close();
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  return {
    seen,
    baseUrl,
    load: async (settings, options) => {
      const { manifest, code } = await builtinPlugin(id);
      const env = { [`TAGSONIC_SOURCE_URL_${id.toUpperCase().replace(/-/g, '_')}`]: baseUrl() };
      const plugin = loadPlugin({ ...options, manifest, code, settings, env });
      loaded.push(plugin);
      return plugin;
    },
  };
}

/** The error a promise rejects with (failing the test when it resolves). */
export async function failure(promise: Promise<unknown>): Promise<Error & { code: string; details?: Record<string, unknown> }> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error & { code: string; details?: Record<string, unknown> };
}
