/**
 * Shared set-up for the Subsonic tests (test/subsonic-*.test.ts): a temp home with the real runtime
 * (embedded store, in-process bus), the generated small library copied into the media folder and
 * scanned once with the real scanner, two accounts with Subsonic passwords (admin and alice) and an
 * API key for alice, the gateway built with `buildApp` and called with `inject()` (or listening on a
 * port when asked), and helpers that call /rest in JSON or XML with any authentication mechanism.
 * `ok()` and `both()` validate every element they know against test/subsonic-schemas.ts.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '@tagsonic/core/config';
import { SubsonicCredentials } from '@tagsonic/core/users';
import { buildApp } from '@tagsonic/gateway';
import { validateResponse } from './subsonic-schemas.ts';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import { Scanner } from '@tagsonic/workers/scanner';
import { generateLibrary, GENERATOR_VERSION, type LibraryManifest } from '@tagsonic/test/library';

export const ADMIN = { username: 'admin', password: 'admin-login-password', subsonic: 'admin-sub-pässword' };
export const ALICE = { username: 'alice', password: 'alice-login-password', subsonic: 'alice&sub=pw' };

export interface SubsonicHarness {
  rt: Runtime;
  app: FastifyInstance;
  home: string;
  manifest: LibraryManifest;
  /** alice's API key (OpenSubsonic apiKey). */
  aliceKey: string;
  /** Base URL when started with `listen: true`. */
  url: string;
  close(): Promise<void>;
}

/** The small generated library, made once per machine. */
export const smallLibrary = (): Promise<LibraryManifest> =>
  generateLibrary({ root: path.join(tmpdir(), `tagsonic-test-small-library-v${GENERATOR_VERSION}`), size: 'small' });

export async function startSubsonic(options: { listen?: boolean; scan?: boolean; logLines?: string[] } = {}): Promise<SubsonicHarness> {
  const manifest = await smallLibrary();
  const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-subsonic-'));
  const rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  await rt.users.ensureAdmin(ADMIN.password);
  await rt.users.create({ username: ALICE.username, password: ALICE.password });
  const credentials = new SubsonicCredentials(rt.store, rt.users, rt.secrets.subsonicKey);
  await credentials.init();
  await credentials.setPassword(ADMIN.username, ADMIN.subsonic);
  await credentials.setPassword(ALICE.username, ALICE.subsonic);
  const { key } = await credentials.createApiKey(ALICE.username, 'phone');
  await cp(manifest.root, rt.config.mediaDir, { recursive: true, preserveTimestamps: true, filter: (src) => !path.basename(src).startsWith('.tagsonic-library') });
  if (options.scan !== false) {
    const scanner = new Scanner({ roots: rt.roots, library: rt.library.store, catalog: rt.library.catalog, bus: rt.bus, readerThreads: 2 });
    await scanner.scan();
  }
  const app = await buildApp(gatewayDeps(rt, {
    buildId: 'test',
    dashboardDir: path.join(home, 'no-dashboard'),
  }), options.logLines ? { logger: { level: 'debug', stream: { write: (line: string) => void options.logLines!.push(line) } } } : {});
  let url = '';
  if (options.listen) url = await app.listen({ port: 0, host: '127.0.0.1' });
  else await app.ready();
  return {
    rt,
    app,
    home,
    manifest,
    aliceKey: key,
    url,
    async close() {
      await app.close();
      await rt.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

export type Auth =
  | { u: string; p: string }
  | { u: string; t: string; s: string }
  | { apiKey: string }
  | 'none'
  | Record<string, string>;

export const asAdmin: Auth = { u: ADMIN.username, p: ADMIN.subsonic };
export const asAlice: Auth = { u: ALICE.username, p: ALICE.subsonic };

export type ParamValue = string | number | boolean | ReadonlyArray<string | number>;

/** The query string for a call: the client's own parameters (v, c) + credentials + the method's. */
export function query(params: Record<string, ParamValue | undefined>, auth: Auth = asAdmin, base: Record<string, string> = { v: '1.16.1', c: 'vitest' }): string {
  const q = new URLSearchParams(base);
  if (auth !== 'none') for (const [k, v] of Object.entries(auth)) q.append(k, v);
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) q.append(k, String(x));
    else q.append(k, String(v));
  }
  return q.toString();
}

export interface CallOptions {
  auth?: Auth;
  format?: 'json' | 'xml';
  post?: boolean;
  base?: Record<string, string>;
  path?: string;
}

/** Calls a /rest method and returns the raw response. */
export async function rest(app: FastifyInstance, method: string, params: Record<string, ParamValue | undefined> = {}, options: CallOptions = {}): Promise<LightMyRequestResponse> {
  const all = { ...params, ...(options.format === 'json' ? { f: 'json' } : {}) };
  const qs = query(all, options.auth ?? asAdmin, options.base);
  const url = options.path ?? `/rest/${method}`;
  if (options.post) {
    return app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: qs });
  }
  return app.inject({ method: 'GET', url: `${url}?${qs}` });
}

/** A JSON call that must succeed: the `subsonic-response` object. */
export async function ok(app: FastifyInstance, method: string, params: Record<string, ParamValue | undefined> = {}, options: CallOptions = {}): Promise<any> {
  const res = await rest(app, method, params, { ...options, format: 'json' });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = res.json()['subsonic-response'];
  expect(body.status, res.body).toBe('ok');
  expect(body.error).toBeUndefined();
  validateResponse(body, {}, true);
  return body;
}

/** A JSON call that must fail with the given Subsonic error code: the error object. */
export async function fails(app: FastifyInstance, method: string, params: Record<string, ParamValue | undefined>, code: number, options: CallOptions = {}): Promise<{ code: number; message: string }> {
  const res = await rest(app, method, params, { ...options, format: 'json' });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json()['subsonic-response'];
  expect(body.status, res.body).toBe('failed');
  expect(body.error.code, res.body).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(5);
  validateResponse(body);
  expect(res.body).not.toMatch(/at \S+ \(|node:internal|\.ts:\d+/);
  return body.error;
}

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: 'value',
  alwaysCreateTextNode: true,
  parseTagValue: false,
  parseAttributeValue: false,
  jPath: true,
  // Every element below the root is a list, so one child and many look alike.
  isArray: (_name, jpath, _leaf, isAttribute) => !isAttribute && String(jpath).includes('.'),
});

/** Parses an XML answer (strictly) into `{ 'subsonic-response': { …attributes, child: [ … ] } }` with every child element an array. */
export function parseXml(body: string): any {
  return xmlParser.parse(body, true);
}

/** An XML call: the parsed `subsonic-response` element. */
export async function xml(app: FastifyInstance, method: string, params: Record<string, ParamValue | undefined> = {}, options: CallOptions = {}): Promise<any> {
  const res = await rest(app, method, params, { ...options, format: 'xml' });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
  return parseXml(res.body)['subsonic-response'];
}

/** Subsonic's text-child fields (from its XSD): `<biography>…</biography>`, not attributes. */
const INFO_TEXT = ['biography', 'musicBrainzId', 'lastFmUrl', 'smallImageUrl', 'mediumImageUrl', 'largeImageUrl'];
const TEXT_ELEMENTS: Record<string, ReadonlySet<string>> = {
  artistInfo: new Set(INFO_TEXT),
  artistInfo2: new Set(INFO_TEXT),
  albumInfo: new Set(['notes', ...INFO_TEXT.slice(1)]),
};

const scalarString = (v: unknown): string => (typeof v === 'string' ? v : String(v));
const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** A JSON element in the shape XML gives it: strings for attributes, lists of elements, `value` texts. */
function canonicalJson(name: string, obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(obj)) {
    if (v === null || v === undefined) continue;
    if (key === 'value' && isScalar(v)) out.value = scalarString(v);
    else if (Array.isArray(v)) {
      const items = v.map((item) => (isScalar(item) ? { value: scalarString(item) } : canonicalJson(key, item as Record<string, unknown>)));
      if (items.length) out[key] = items;
    } else if (isScalar(v)) out[key] = TEXT_ELEMENTS[name]?.has(key) ? [{ value: scalarString(v) }] : scalarString(v);
    else out[key] = [canonicalJson(key, v as Record<string, unknown>)];
  }
  return out;
}

function canonicalXml(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(obj)) {
    if (key === 'value' && v === '') continue;
    out[key] = Array.isArray(v) ? v.map((item) => canonicalXml(item as Record<string, unknown>)) : v;
  }
  return out;
}

/**
 * Calls a method in JSON and in XML and checks both carry the same tree (XML attributes and
 * elements vs JSON values and arrays). Returns the JSON `subsonic-response`.
 */
export async function both(app: FastifyInstance, method: string, params: Record<string, ParamValue | undefined> = {}, options: CallOptions = {}): Promise<any> {
  const json = await rest(app, method, params, { ...options, format: 'json' });
  const xmlRes = await rest(app, method, params, { ...options, format: 'xml' });
  expect(json.statusCode, json.body).toBe(200);
  expect(xmlRes.statusCode, xmlRes.body).toBe(200);
  const body = json.json()['subsonic-response'];
  const { xmlns, ...root } = parseXml(xmlRes.body)['subsonic-response'];
  expect(xmlns).toBe('http://subsonic.org/restapi');
  expect(canonicalXml(root)).toEqual(canonicalJson('subsonic-response', body));
  validateResponse(body, {}, true);
  return body;
}
