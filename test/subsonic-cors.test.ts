/**
 * CORS on /rest (issue 10 item 9): any origin may call the Subsonic API (preflight answered, Range
 * allowed, Content-Range/Content-Length exposed, no credentials), errors included; the cookie-based
 * dashboard API stays same-origin. The browser side is test/browser/subsonic-web-client.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, query, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';

const ORIGIN = 'http://web-client.example:8080';

let h: SubsonicHarness;
let songId: string;

beforeAll(async () => {
  h = await startSubsonic();
  songId = (await ok(h.app, 'search3', { query: '', songCount: 1, artistCount: 0, albumCount: 0 })).searchResult3.song[0].id;
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const exposed = (value: unknown) => String(value).split(/,\s*/).map((s) => s.toLowerCase());

describe('CORS on /rest', () => {
  it('answers a preflight for any method path with 204, the methods, Range among the headers and a max-age', async () => {
    for (const url of ['/rest/ping.view', '/rest/stream', '/rest/noSuchMethod.view']) {
      const res = await h.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'range, content-type' },
      });
      expect(res.statusCode, url).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(exposed(res.headers['access-control-allow-methods'])).toEqual(expect.arrayContaining(['get', 'post', 'options', 'head']));
      expect(exposed(res.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining(['range', 'content-type', 'authorization']));
      expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
    }
  });

  it('adds the origin and exposed headers to answers, failures and unknown methods', async () => {
    const cases = [
      { url: `/rest/ping.view?${query({ f: 'json' })}`, status: 200 },
      { url: `/rest/ping.view?${query({ f: 'json' }, { u: 'admin', p: 'wrong' })}`, status: 200 },
      { url: `/rest/getVideos.view?${query({})}`, status: 501 },
      { url: `/rest/noSuchMethod.view?${query({})}`, status: 404 },
    ];
    for (const c of cases) {
      const res = await h.app.inject({ method: 'GET', url: c.url, headers: { origin: ORIGIN } });
      expect(res.statusCode, c.url).toBe(c.status);
      expect(res.headers['access-control-allow-origin'], c.url).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(exposed(res.headers['access-control-expose-headers'])).toEqual(
        expect.arrayContaining(['content-range', 'content-length', 'accept-ranges', 'content-type']),
      );
    }
  });

  it('lets a cross-origin player read a ranged stream', async () => {
    const res = await h.app.inject({ method: 'GET', url: `/rest/stream.view?${query({ id: songId })}`, headers: { origin: ORIGIN, range: 'bytes=100-199' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toMatch(/^bytes 100-199\/\d+$/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(exposed(res.headers['access-control-expose-headers'])).toContain('content-range');
    const head = await h.app.inject({ method: 'HEAD', url: `/rest/stream.view?${query({ id: songId })}`, headers: { origin: ORIGIN } });
    expect(head.headers['access-control-allow-origin']).toBe('*');
  });

  it('keeps the dashboard API same-origin', async () => {
    const get = await h.app.inject({ method: 'GET', url: '/apimt/admin/users/', headers: { origin: ORIGIN } });
    expect(get.statusCode).toBe(401);
    const preflight = await h.app.inject({
      method: 'OPTIONS',
      url: '/apimt/admin/users/',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    });
    for (const res of [get, preflight]) {
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-methods']).toBeUndefined();
    }
  });
});
