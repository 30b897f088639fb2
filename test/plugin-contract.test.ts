/**
 * The plugin contract end to end: a tag source written in TypeScript against @tagsonic/sdk, bundled by esbuild
 * the way a plugin author bundles it (format cjs, platform neutral, `export default`), loaded through
 * loadPlugin with its manifest, and run in the real sandbox against a local HTTP server speaking a tiny JSON API.
 * Nothing here is mocked: the manifest validator, the sandbox, the guarded http.fetch and the address checks
 * are the ones the server runs.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isPluginError, PLUGIN_ERROR_CODES, type Manifest } from '@tagsonic/sdk';
import * as pluginHttp from '@tagsonic/workers/plugin-http';
import { loadPlugin, type LoadedPlugin, type LoadPluginOptions } from '@tagsonic/workers/plugin-runtime';
import { failure } from './support/source-fake.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The plugin's source, as its author writes it. */
const PLUGIN_SOURCE = `
import { defineManifest, defineTagSource, isPluginError, PluginError, type SearchResultSong } from '@tagsonic/sdk';

declare const DEFAULT_BASE: string; // the public service's URL, fixed at bundle time

const manifest = defineManifest({
  id: 'tinysongs', name: 'Tiny songs', version: '1.0.0', description: 'Songs from the tiny JSON API.',
  kind: 'tag-source', entry: 'index.js',
  permissions: { http: { hosts: [{ host: 'localhost', reason: 'The songs API' }] } },
});

interface ApiSong { id: number; title: string; singer: string; record: string; cover: string; track: number; year: number; seconds: number }

export default defineTagSource<typeof manifest>({
  async search({ title, artist, limit }, caps) {
    const base = caps.http.baseUrl ?? DEFAULT_BASE;
    const { market, token } = await caps.config.get();
    caps.log.info('search ' + title, { token: token ?? null });
    const { status, body } = await caps.http.fetch({ url: base + '/api/songs', query: { q: title, artist, market }, responseType: 'json' });
    if (status !== 200) throw new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', 'the songs API answered HTTP ' + status, { status });
    const songs = (body as { songs?: unknown }).songs;
    if (!Array.isArray(songs)) throw new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', 'response shape changed: songs');
    return (songs as ApiSong[]).slice(0, limit).map((s): SearchResultSong => ({
      id: String(s.id), name: s.title, artist: s.singer, album: s.record, album_img: s.cover, year: String(s.year),
      tracknumber: s.track, totaltracks: null, discnumber: null, totaldiscs: null, duration: s.seconds, resource: 'tinysongs',
    }));
  },
  async lyrics({ id }, caps) {
    try {
      const { body } = await caps.http.fetch({ url: 'https://lyrics.elsewhere.test/' + id });
      return body;
    } catch (error) {
      if (isPluginError(error) && error.code === 'TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED') {
        throw new PluginError(error.code, 'lyrics mirror: ' + error.message);
      }
      throw error;
    }
  },
});

/** What the plugin sees of a refused call and of its capabilities (a named export beside the default one). */
export async function probe(_options: unknown, caps: any) {
  const granted = Object.keys(caps).sort();
  try {
    await caps.http.fetch({ url: 'https://lyrics.elsewhere.test/1' });
    return { granted };
  } catch (error: any) {
    return { granted, name: error.name, code: error.code, message: error.message, isPluginError: isPluginError(error), stack: String(error.stack) };
  }
}
`;

const MANIFEST: Manifest = {
  id: 'tinysongs',
  name: 'Tiny songs',
  version: '1.0.0',
  description: 'Songs from the tiny JSON API.',
  kind: 'tag-source',
  entry: 'index.js',
  config: {
    type: 'object',
    properties: {
      market: { type: 'string', title: 'Market', enum: ['cn', 'tw'], default: 'cn' },
      token: { type: 'string', title: 'Token', secret: true },
    },
  },
  permissions: { http: { hosts: [{ host: 'localhost', reason: 'The songs API' }] } },
};

let dir: string;
let server: Server;
let port: number;
let code: string;
const requests: URL[] = [];
const loaded: LoadedPlugin[] = [];

const load = (options: Partial<LoadPluginOptions> = {}) => {
  const plugin = loadPlugin({ manifest: MANIFEST, code, env: { TAGSONIC_SOURCE_URL_TINYSONGS: `http://127.0.0.1:${port}` }, ...options });
  loaded.push(plugin);
  return plugin;
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    if (url.pathname !== '/api/songs') {
      res.writeHead(404).end();
      return;
    }
    const q = url.searchParams.get('q') ?? '';
    const body = q === 'broken'
      ? { songs: 'moved to result.items' }
      : { songs: [{ id: 7, title: q, singer: url.searchParams.get('artist'), record: 'Help!', cover: `http://127.0.0.1:${port}/c/7.jpg`, track: 13, year: 1965, seconds: 125 }] };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;

  dir = mkdtempSync(path.join(tmpdir(), 'tagsonic-plugin-contract-'));
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src', 'index.ts'), PLUGIN_SOURCE);
  const bundled = await build({
    entryPoints: [path.join(dir, 'src', 'index.ts')],
    absWorkingDir: dir,
    nodePaths: [path.join(ROOT, 'node_modules')], // where a plugin project finds @tagsonic/sdk
    bundle: true,
    format: 'cjs',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
    define: { DEFAULT_BASE: JSON.stringify(`http://localhost:${port}`) },
  });
  code = bundled.outputFiles[0]!.text;
});

afterEach(() => {
  for (const plugin of loaded.splice(0)) plugin.close();
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('plugin contract: a TypeScript tag source bundled with esbuild, run through loadPlugin', () => {
  it('searches through caps.http.fetch at the administrator\'s base URL and returns SearchResultSong candidates', async () => {
    const plugin = load({ settings: { config: { token: 's3cret-token' } } });
    expect(plugin.baseUrl).toBe(`http://127.0.0.1:${port}`);
    await expect(plugin.invoke('search', { title: 'Yesterday', artist: 'The Beatles', album: '', limit: 15 })).resolves.toEqual([{
      id: '7', name: 'Yesterday', artist: 'The Beatles', album: 'Help!', album_img: `http://127.0.0.1:${port}/c/7.jpg`, year: '1965',
      tracknumber: 13, totaltracks: null, discnumber: null, totaldiscs: null, duration: 125, resource: 'tinysongs',
    }]);
    // The settings arrive through caps.config.get() with the schema's defaults applied.
    expect(requests.at(-1)?.searchParams.get('market')).toBe('cn');
    // The log keeps the entry, with the secret setting masked.
    expect(plugin.logs()).toEqual([expect.objectContaining({ level: 'info', message: 'search Yesterday', fields: { token: '********' } })]);
  });

  it('brings the plugin\'s upstream error code and message out to the host', async () => {
    const plugin = load();
    const error = await failure(plugin.invoke('search', { title: 'broken', artist: '', album: '', limit: 5 }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'response shape changed: songs' });
    expect(isPluginError(error)).toBe(true);
    expect(plugin.sandbox.stats().lastError).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'response shape changed: songs' });
  });

  it('refuses a host the manifest does not grant: the plugin sees a PluginError it can catch and rethrow, and so does the host', async () => {
    const plugin = load();
    const seen = (await plugin.invoke('probe', {})) as Record<string, unknown>;
    expect(seen).toMatchObject({
      granted: ['config', 'http', 'log', 'match', 'progress', 'text'],
      name: 'PluginError',
      code: 'TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED',
      message: 'Plugin tinysongs has no permission to reach lyrics.elsewhere.test.',
      isPluginError: true,
    });
    expect(seen.stack).not.toMatch(/workers\/src|node:internal|\/work\//);
    const error = await failure(plugin.invoke('lyrics', { id: '7' }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED', message: 'lyrics mirror: Plugin tinysongs has no permission to reach lyrics.elsewhere.test.' });
    expect(isPluginError(error)).toBe(true);
  });

  it('reaches 127.0.0.1 through TAGSONIC_SOURCE_URL_<ID>, and refuses the loopback URL without that override', async () => {
    const before = requests.length;
    const refused = await failure(load({ env: {} }).invoke('search', { title: 'Yesterday', artist: '', album: '', limit: 5 }));
    expect(refused.code).toBe('TAGSONIC_ERR_PLUGIN_HTTP_ADDRESS_REFUSED');
    expect(refused.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
    expect(requests.length).toBe(before); // not a byte reached the server
    await expect(load().invoke('search', { title: 'Yesterday', artist: '', album: '', limit: 5 })).resolves.toHaveLength(1);
    // The settings key works the same way when the environment does not set one.
    const fromSettings = load({ env: {}, settings: { baseUrl: `http://127.0.0.1:${port}/` } });
    expect(fromSettings.baseUrl).toBe(`http://127.0.0.1:${port}`);
    await expect(fromSettings.invoke('search', { title: 'x', artist: '', album: '', limit: 5 })).resolves.toHaveLength(1);
  });

  it('builds capabilities from the grants only: no http permission, no caps.http', async () => {
    const { http: _http, ...noHttp } = MANIFEST.permissions;
    const plugin = load({ manifest: { ...MANIFEST, permissions: noHttp } });
    expect(plugin.baseUrl).toBeNull();
    const seen = (await plugin.invoke('probe', {})) as Record<string, unknown>;
    expect(seen).toMatchObject({ granted: ['config', 'log', 'match', 'progress', 'text'], name: 'TypeError' });
  });

  it('refuses a manifest with an unknown key, and settings that do not fit the config form, with the validator\'s errors', () => {
    let error = catchError(() => load({ manifest: { ...MANIFEST, permision: {} } }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_MANIFEST_INVALID', kind: 'invalid' });
    expect(error.details).toEqual({ errors: [{ path: 'permision', message: expect.stringMatching(/^unknown key "permision"/) }] });
    expect(error.message).toMatch(/permision unknown key/);

    error = catchError(() => load({ settings: { config: { market: 'us', extra: 1 } } }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_CONFIG_INVALID', kind: 'invalid' });
    expect((error.details as { errors: unknown[] }).errors).toEqual([
      { path: 'config.extra', message: expect.stringMatching(/is not a setting/) },
      { path: 'config.market', message: 'must be one of "cn", "tw"' },
    ]);
    expect(loaded).toHaveLength(0); // nothing was started
  });

  it('paces requests by the source\'s rate: musicbrainz 1/s, any other id 5/s', async () => {
    const timed = async (id: string) => {
      const plugin = load({ manifest: { ...MANIFEST, id }, env: { [`TAGSONIC_SOURCE_URL_${id.toUpperCase()}`]: `http://127.0.0.1:${port}` } });
      const started = performance.now();
      for (let i = 0; i < 3; i++) await plugin.invoke('search', { title: 'x', artist: '', album: '', limit: 1 });
      return performance.now() - started;
    };
    // Three requests: the first goes at once, the next two wait for their slots.
    expect(await timed('musicbrainz')).toBeGreaterThanOrEqual(1900);
    const other = await timed('tinysongs');
    expect(other).toBeGreaterThanOrEqual(350);
    expect(other).toBeLessThan(1500);
  });

  it('uses one list of http.fetch codes: plugin-http throws exactly the SDK\'s TAGSONIC_ERR_PLUGIN_HTTP_* codes', () => {
    const hostCodes = (Object.values(pluginHttp) as unknown[]).filter((v): v is string => typeof v === 'string' && v.startsWith('TAGSONIC_ERR_')).sort();
    expect(hostCodes).toEqual(PLUGIN_ERROR_CODES.filter((c) => c.startsWith('TAGSONIC_ERR_PLUGIN_HTTP_')).sort());
  });
});

function catchError(fn: () => unknown): Error & { code: string; kind: string; details: unknown } {
  try {
    fn();
  } catch (error) {
    return error as Error & { code: string; kind: string; details: unknown };
  }
  throw new Error('expected an error');
}
