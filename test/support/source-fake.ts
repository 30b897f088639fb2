/**
 * Shared by the built-in tag-source tests: a local HTTP server that replays a service's answers and records
 * every request (so each test asserts the request shape too; the server itself is ./replay-server.ts, which the
 * benches use outside vitest), and a loader that bundles `plugins/<id>` and
 * points it at that server through `TAGSONIC_SOURCE_URL_<ID>`, through the real loadPlugin, sandbox and
 * guarded http. Call `sourceFake` at a test file's top level: it registers the server's and the plugins'
 * set-up and tear-down hooks.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { loadPlugin, type LoadedPlugin, type LoadPluginOptions, type PluginSettings } from '@tagsonic/workers/plugin-runtime';
import { builtinPlugin } from '../../workers/src/plugin-runtime/builtin.ts';
import { startReplayServer, type FakeAnswer, type ReplayServer, type SeenRequest } from './replay-server.ts';

export type { FakeAnswer, SeenRequest } from './replay-server.ts';

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
  let server: ReplayServer | undefined;
  const seen: SeenRequest[] = [];
  const loaded: LoadedPlugin[] = [];
  const baseUrl = () => server?.baseUrl ?? 'http://127.0.0.1:0';

  beforeAll(async () => {
    server = await startReplayServer(answer, seen);
  });
  afterEach(() => {
    for (const plugin of loaded.splice(0)) plugin.close();
  });
  afterAll(async () => {
    await server?.close();
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
