import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRefusedAddress } from './address-policy.ts';
import { ANY_PUBLIC_HOST, createPluginHttp, type PluginHttpOptions, type ResolveHost } from './plugin-http.ts';

/**
 * Real sockets: a "public" server on 127.0.0.2 (the tests' stand-in for the internet; only it is let through
 * the address policy) and an "internal" one on 127.0.0.1 and [::1] that no test may reach unless granted.
 */
let pub: http.Server;
let internal: http.Server;
let internal6: http.Server;
let pubPort = 0;
let intPort = 0;
let int6Port = 0;
let internalHits = 0;

const PUBLIC = '127.0.0.2';
const NAMES: Record<string, string[]> = {
  'api.example.test': [PUBLIC],
  'cdn.example.test': [PUBLIC],
  'evil.example.test': ['127.0.0.1'],
  'mapped.example.test': ['::ffff:127.0.0.1'],
  'metadata.example.test': ['169.254.169.254'],
  'six.example.test': ['::1'],
  'private.example.test': ['10.0.0.7'],
  'mixed.example.test': [PUBLIC, '127.0.0.1'],
  'mirror.lan': ['127.0.0.1'],
};
const lookup: ResolveHost = async (name) => {
  const found = NAMES[name];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

function make(overrides: Partial<PluginHttpOptions> = {}) {
  return createPluginHttp({
    pluginId: 'test-source',
    grants: [{ host: '*.example.test', reason: 'the test service' }],
    limits: { timeoutMs: 5_000, maxBytes: 1_000, ratePerSec: 0 },
    lookup,
    isRefused: (a) => a !== PUBLIC && isRefusedAddress(a),
    ...overrides,
  });
}

const listen = (server: http.Server, host: string) =>
  new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));

beforeAll(async () => {
  pub = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const p = url.pathname;
    if (p === '/json') return void res.setHeader('content-type', 'application/json').end('{"ok":true}');
    if (p === '/cookie') return void res.setHeader('set-cookie', 'sid=1').setHeader('x-kept', 'yes').end('c');
    if (p === '/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () =>
        res.setHeader('content-type', 'application/json').end(
          JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() }),
        ),
      );
      return;
    }
    if (p === '/redirect') {
      return void res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to')! }).end();
    }
    if (p.startsWith('/chain/')) {
      const n = Number(p.slice(7));
      return void (n === 0 ? res.end('end') : res.writeHead(302, { location: `/chain/${n - 1}` }).end());
    }
    if (p === '/exact') return void res.end('x'.repeat(1_000));
    if (p === '/big-declared') return void res.setHeader('content-length', '5000').end('x'.repeat(5_000));
    if (p === '/big-streamed') {
      res.write('x'.repeat(800));
      setTimeout(() => res.end('x'.repeat(800)), 20);
      return;
    }
    if (p === '/hang') return; // never answers
    if (p === '/trickle') {
      res.write('x');
      return; // head and one byte, then nothing
    }
    res.statusCode = 404;
    res.end('no');
  });
  const secret = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    internalHits++;
    res.end('secret');
  };
  internal = http.createServer(secret);
  internal6 = http.createServer(secret);
  [pubPort, intPort, int6Port] = await Promise.all([listen(pub, PUBLIC), listen(internal, '127.0.0.1'), listen(internal6, '::1')]);
});

afterAll(() => {
  for (const s of [pub, internal, internal6]) s.closeAllConnections();
  return Promise.all([pub, internal, internal6].map((s) => new Promise((r) => s.close(r))));
});

const api = (path: string) => `http://api.example.test:${pubPort}${path}`;

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as { code: string }).code;
  }
  return 'no error';
}

describe('plugin http: granted hosts', () => {
  it('fetches from a granted host, with query, headers, JSON body and the response types', async () => {
    const h = make();
    const json = await h.fetch(api('/json'), { responseType: 'json' });
    expect(json).toMatchObject({ status: 200, body: { ok: true } });
    const echo = await h.fetch(api('/echo?a=1'), {
      method: 'post',
      query: { q: 'Jay Chou 周杰伦', tag: ['a', 'b'], skip: null },
      headers: { 'X-Token': 'abc', Host: 'evil', 'Accept-Encoding': 'gzip' },
      body: { title: '晴天' },
      responseType: 'json',
    });
    const seen = echo.body as { method: string; url: string; headers: Record<string, string>; body: string };
    expect(seen.method).toBe('POST');
    expect(new URL(seen.url, 'http://x').searchParams.getAll('tag')).toEqual(['a', 'b']);
    expect(new URL(seen.url, 'http://x').searchParams.get('q')).toBe('Jay Chou 周杰伦');
    expect(new URL(seen.url, 'http://x').searchParams.has('skip')).toBe(false);
    expect(seen.headers['x-token']).toBe('abc');
    expect(seen.headers.host).toBe(`api.example.test:${pubPort}`);
    expect(seen.headers['accept-encoding']).toBe('identity');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers['user-agent']).toContain('test-source');
    expect(JSON.parse(seen.body)).toEqual({ title: '晴天' });
    const bytes = await h.fetch(api('/json'), { responseType: 'bytes' });
    expect(bytes.body).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(bytes.body as Uint8Array).toString()).toBe('{"ok":true}');
    const missing = await h.fetch(api('/nope'));
    expect(missing).toMatchObject({ status: 404, body: 'no' });
  });

  it("takes the SDK's one-object form too, and checks what plugin code passes whatever its type", async () => {
    const h = make();
    expect(await h.fetch({ url: api('/json'), responseType: 'json' })).toMatchObject({ status: 200, body: { ok: true } });
    const untyped = h.fetch as (...args: unknown[]) => Promise<unknown>;
    for (const args of [
      [42],
      [{ url: 42 }],
      [api('/json'), 'GET'],
      [api('/json'), { method: 7 }],
      [api('/json'), { headers: { 'x-n': 1 } }],
      [api('/json'), { query: { q: { nested: true } } }],
      [api('/json'), { responseType: 'stream' }],
      [api('/json'), { timeoutMs: -1 }],
      [api('/json'), { body: 'x'.repeat(1_001) }],
    ]) {
      expect(await code(untyped(...args)), JSON.stringify(args)).toBe('TAGSONIC_ERR_PLUGIN_HTTP_BAD_REQUEST');
    }
  });

  it('passes no cookies on: Set-Cookie is dropped from the answer', async () => {
    const res = await make().fetch(api('/cookie'));
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['x-kept']).toBe('yes');
  });

  it('refuses hosts not granted, exact grants do not cover subdomains, wildcards do not cover the bare domain', async () => {
    const exact = make({ grants: [{ host: 'api.example.test', reason: 'r' }] });
    expect((await exact.fetch(api('/json'))).status).toBe(200);
    expect(await code(exact.fetch(`http://cdn.example.test:${pubPort}/json`))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED');
    expect(await code(make().fetch(`http://example.test:${pubPort}/json`))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED');
    expect(await code(make().fetch(`http://api.example.test.evil.org/`))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED');
  });

  it('only http and https, no credentials in URLs, no odd methods, bad JSON is a clear error', async () => {
    const h = make();
    expect(await code(h.fetch('file:///etc/passwd'))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_BAD_URL');
    expect(await code(h.fetch(`ftp://api.example.test/`))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_BAD_URL');
    expect(await code(h.fetch(`http://user:pw@api.example.test:${pubPort}/json`))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_BAD_URL');
    expect(await code(h.fetch('/relative'))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_BAD_URL');
    expect(await code(h.fetch(api('/json'), { method: 'CONNECT' }))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_BAD_REQUEST');
    expect(await code(h.fetch(api('/json'), { headers: { 'x-bad': 'a\r\nb' } }))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_BAD_REQUEST');
    expect(await code(h.fetch(api('/cookie'), { responseType: 'json' }))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_NOT_JSON');
    expect(await code(h.fetch(`http://gone.example.test:${pubPort}/`))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_NETWORK');
  });
});

describe('plugin http: SSRF', () => {
  it('refuses literal loopback, mapped and metadata addresses that are not granted', async () => {
    const h = make();
    for (const url of [
      `http://127.0.0.1:${intPort}/`,
      `http://[::1]:${int6Port}/`,
      `http://[::ffff:127.0.0.1]:${intPort}/`,
      'http://169.254.169.254/latest/meta-data/',
      `http://0.0.0.0:${intPort}/`,
      `http://2130706433:${intPort}/`, // 127.0.0.1 as a number
    ]) {
      expect(await code(h.fetch(url)), url).toBe('TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED');
    }
    expect(internalHits).toBe(0);
  });

  it('refuses a granted name that resolves to loopback, private, link-local, metadata or mapped addresses', async () => {
    const h = make();
    for (const name of ['evil', 'mapped', 'metadata', 'six', 'private', 'mixed']) {
      const port = name === 'six' ? int6Port : intPort;
      expect(await code(h.fetch(`http://${name}.example.test:${port}/`)), name).toBe('TAGSONIC_ERR_PLUGIN_HTTP_ADDRESS_REFUSED');
    }
    expect(internalHits).toBe(0);
  });

  it('re-checks every redirect: to loopback by name or address, or to a host not granted, is refused', async () => {
    const h = make();
    const via = (to: string) => api(`/redirect?to=${encodeURIComponent(to)}`);
    expect(await code(h.fetch(via(`http://evil.example.test:${intPort}/`)))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_ADDRESS_REFUSED');
    expect(await code(h.fetch(via(`http://127.0.0.1:${intPort}/`)))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED');
    expect(await code(h.fetch(via(`http://[::1]:${int6Port}/`)))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED');
    expect(await code(h.fetch(via('http://169.254.169.254/')))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED');
    expect(await code(h.fetch(via('file:///etc/passwd')))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_BAD_URL');
    expect(internalHits).toBe(0);
  });

  it('follows up to 5 redirects, not more', async () => {
    const h = make();
    expect(await h.fetch(api('/chain/5'))).toMatchObject({ status: 200, body: 'end', url: api('/chain/0') });
    expect(await code(h.fetch(api('/chain/6')))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_TOO_MANY_REDIRECTS');
  });

  it('drops Authorization and Cookie when a redirect leaves the origin; 303 turns a POST into a GET', async () => {
    const h = make();
    const headers = { authorization: 'Bearer s3cret', cookie: 'a=b', 'x-other': 'kept' };
    const same = await h.fetch(api(`/redirect?to=${encodeURIComponent('/echo')}`), { headers, responseType: 'json' });
    expect((same.body as { headers: Record<string, string> }).headers.authorization).toBe('Bearer s3cret');
    const cross = await h.fetch(api(`/redirect?to=${encodeURIComponent(`http://cdn.example.test:${pubPort}/echo`)}`), { headers, responseType: 'json' });
    const seen = (cross.body as { headers: Record<string, string> }).headers;
    expect(seen.authorization).toBeUndefined();
    expect(seen.cookie).toBeUndefined();
    expect(seen['x-other']).toBe('kept');
    const post = await h.fetch(api(`/redirect?status=303&to=${encodeURIComponent('/echo')}`), { method: 'POST', body: 'x', responseType: 'json' });
    expect(post.body).toMatchObject({ method: 'GET', body: '' });
    const keep = await h.fetch(api(`/redirect?status=307&to=${encodeURIComponent('/echo')}`), { method: 'POST', body: 'x', responseType: 'json' });
    expect(keep.body).toMatchObject({ method: 'POST', body: 'x' });
  });

  it("reaches the administrator's base URL on loopback, and only that origin", async () => {
    const h = make({ grants: [], overrides: { baseUrl: `http://127.0.0.1:${intPort}/mb` } });
    expect(h.baseUrl).toBe(`http://127.0.0.1:${intPort}/mb`);
    const before = internalHits;
    expect(await h.fetch(`http://127.0.0.1:${intPort}/mb/ws/2/recording`)).toMatchObject({ status: 200, body: 'secret' });
    expect(internalHits).toBe(before + 1);
    expect(await code(h.fetch(`http://127.0.0.1:${int6Port}/`))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED');
    const byName = make({ grants: [], overrides: { baseUrl: `http://mirror.lan:${intPort}` } });
    expect((await byName.fetch(`http://mirror.lan:${intPort}/x`)).body).toBe('secret');
  });
});

describe("Tagsonic's own downloads: any public host", () => {
  it('reaches any host whose addresses are public, with its own user agent, and no other', async () => {
    const h = make({ grants: ANY_PUBLIC_HOST, userAgent: 'Tagsonic/covers' });
    const before = internalHits;
    const echo = await h.fetch(`http://cdn.elsewhere.test:${pubPort}/echo`, { responseType: 'json' }).catch((e: unknown) => e);
    // Not in the test's names: a DNS failure, not a refusal (any public name is tried).
    expect((echo as { code: string }).code).toBe('TAGSONIC_ERR_PLUGIN_HTTP_NETWORK');
    const seen = (await h.fetch(`http://cdn.example.test:${pubPort}/echo`, { responseType: 'json' })).body as { headers: Record<string, string> };
    expect(seen.headers['user-agent']).toBe('Tagsonic/covers');
    expect((await h.fetch(`http://${PUBLIC}:${pubPort}/json`, { responseType: 'json' })).body).toEqual({ ok: true });
    for (const name of ['evil', 'mapped', 'metadata', 'six', 'private', 'mixed']) {
      const port = name === 'six' ? int6Port : intPort;
      expect(await code(h.fetch(`http://${name}.example.test:${port}/`)), name).toBe('TAGSONIC_ERR_PLUGIN_HTTP_ADDRESS_REFUSED');
    }
    for (const url of [`http://127.0.0.1:${intPort}/`, `http://[::1]:${int6Port}/`, `http://[::ffff:127.0.0.1]:${intPort}/`, 'http://169.254.169.254/', `http://2130706433:${intPort}/`]) {
      expect(await code(h.fetch(url)), url).toBe('TAGSONIC_ERR_PLUGIN_HTTP_ADDRESS_REFUSED');
    }
    const via = (to: string) => `http://cdn.example.test:${pubPort}/redirect?to=${encodeURIComponent(to)}`;
    expect(await code(h.fetch(via(`http://127.0.0.1:${intPort}/`)))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_ADDRESS_REFUSED');
    expect(await code(h.fetch(via(`http://evil.example.test:${intPort}/`)))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_ADDRESS_REFUSED');
    expect(internalHits).toBe(before);
  });

  it('reaches the trusted origins (the sources\' base URLs) on loopback, and only those origins', async () => {
    const h = make({ grants: ANY_PUBLIC_HOST, trustedOrigins: [`http://127.0.0.1:${intPort}/mirror`, `http://mirror.lan:${intPort}`] });
    const before = internalHits;
    expect((await h.fetch(`http://127.0.0.1:${intPort}/covers/1.jpg`)).body).toBe('secret');
    expect((await h.fetch(`http://mirror.lan:${intPort}/x`)).body).toBe('secret');
    expect(internalHits).toBe(before + 2);
    expect(await code(h.fetch(`http://[::1]:${int6Port}/`))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_ADDRESS_REFUSED');
    expect(internalHits).toBe(before + 2);
  });
});

describe('plugin http: limits', () => {
  it('caps the response size, declared or streamed', async () => {
    const h = make();
    expect(((await h.fetch(api('/exact'))).body as string).length).toBe(1_000);
    expect(await code(h.fetch(api('/big-declared')))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_TOO_LARGE');
    expect(await code(h.fetch(api('/big-streamed')))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_TOO_LARGE');
  });

  it('times out a server that does not answer, or stops half way', async () => {
    const h = make({ limits: { timeoutMs: 300, maxBytes: 1_000, ratePerSec: 0 } });
    for (const path of ['/hang', '/trickle']) {
      const t0 = performance.now();
      expect(await code(h.fetch(api(path))), path).toBe('TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT');
      expect(performance.now() - t0).toBeLessThan(2_000);
    }
    // A call may ask for less time than the plugin's limit.
    const t0 = performance.now();
    expect(await code(make().fetch(api('/hang'), { timeoutMs: 200 }))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT');
    expect(performance.now() - t0).toBeLessThan(2_000);
  });

  it('gives up on a connection (name resolution included) after the connect timeout', async () => {
    const h = make({
      limits: { timeoutMs: 5_000, connectTimeoutMs: 200, maxBytes: 1_000, ratePerSec: 0 },
      lookup: () => new Promise(() => {}),
    });
    const t0 = performance.now();
    expect(await code(h.fetch(api('/json')))).toBe('TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT');
    expect(performance.now() - t0).toBeLessThan(1_500);
  });

  it('spaces requests to the plugin rate (5/s: the 4th of 4 quick calls starts 600 ms after the 1st)', async () => {
    const h = make({ limits: { timeoutMs: 5_000, maxBytes: 1_000, ratePerSec: 5 } });
    const t0 = performance.now();
    await Promise.all([1, 2, 3, 4].map(() => h.fetch(api('/json'))));
    const elapsed = performance.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(580);
    expect(elapsed).toBeLessThan(2_000);
  });
  it('with a time budget, a request whose turn would leave less than 1 s of it fails at once as BUSY, saying the pacing and the wait', async () => {
    const h = make({ displayName: 'Test Source', limits: { timeoutMs: 5_000, maxBytes: 1_000, ratePerSec: 1 / 3 } });
    const events: unknown[] = [];
    const context = { budgetMs: 3_500, onPacing: (e: unknown) => events.push(e) };
    const t0 = performance.now();
    const [first, second] = await Promise.allSettled([h.fetch(api('/json'), {}, context), h.fetch(api('/json'), {}, context)]);
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(first.status).toBe('fulfilled');
    const error = (second as PromiseRejectedResult).reason as Error & { code: string; details: Record<string, unknown> };
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_HTTP_BUSY', kind: 'unavailable', details: { pluginId: 'test-source', retryAfterSec: 3 } });
    expect(error.message).toBe('Test Source is rate-limited to one request every 3 s; try again in 3 s.');
    expect(events).toEqual([{ waitedMs: 0 }, { busy: true, retryAfterMs: expect.closeTo(3_000, -2) }]);
  });
});
