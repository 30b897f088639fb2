/**
 * Answers compressed on the wire (gateway/src/app.ts, @fastify/compress): over a real socket, a client that accepts
 * br or gzip gets Subsonic JSON and XML lists, the dashboard's JSON API and the page compressed, and they decode to
 * exactly what an uncompressed request gets; audio (whole and ranged), cover pictures and small answers go as they
 * are.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';

let h: SubsonicHarness;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET over the socket as a client sends it, the body exactly as it arrived (not decoded). */
function get(pathAndQuery: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${h.url}${pathAndQuery}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (r: Raw): Buffer => (r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body);

beforeAll(async () => {
  h = await startSubsonic({ listen: true });
}, 120_000);
afterAll(async () => h?.close());

describe('compressed answers', () => {
  it('Subsonic lists in JSON and XML: br or gzip as the client accepts, decoding to the plain answer', async () => {
    for (const f of ['json', 'xml']) {
      const url = `/rest/getAlbumList2?${query({ type: 'alphabeticalByName', size: 500, f })}`;
      const plain = await get(url);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.length).toBeGreaterThan(4096);
      for (const [accept, encoding] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip'], ['identity', undefined]] as const) {
        const res = await get(url, { 'accept-encoding': accept });
        expect(res.headers['content-encoding'], `${f} ${accept}`).toBe(encoding);
        expect(decode(res).toString()).toBe(plain.body.toString());
        if (encoding) {
          // A shared cache must not hand a compressed copy to a client that did not ask for it.
          expect(res.headers.vary).toMatch(/accept-encoding/i);
          expect(res.body.length).toBeLessThan(plain.body.length / 3);
        }
      }
    }
  });

  it('audio, ranges, pictures and small answers are sent as they are', async () => {
    const list = JSON.parse((await get(`/rest/getAlbumList2?${query({ type: 'alphabeticalByName', size: 1, f: 'json' })}`)).body.toString());
    const album = list['subsonic-response'].albumList2.album[0];
    const songs = JSON.parse((await get(`/rest/getAlbum?${query({ id: album.id, f: 'json' })}`)).body.toString())['subsonic-response'].album.song;
    const accept = { 'accept-encoding': 'gzip, br' };
    const whole = await get(`/rest/stream?${query({ id: songs[0].id })}`, accept);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toMatch(/^audio\//);
    expect(whole.headers['content-encoding']).toBeUndefined();
    const ranged = await get(`/rest/stream?${query({ id: songs[0].id })}`, { ...accept, range: 'bytes=0-99' });
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-encoding']).toBeUndefined();
    expect(ranged.body.length).toBe(100);
    const cover = await get(`/rest/getCoverArt?${query({ id: album.coverArt, size: 300 })}`, accept);
    expect(cover.status).toBe(200);
    expect(cover.headers['content-type']).toMatch(/^image\//);
    expect(cover.headers['content-encoding']).toBeUndefined();
    const ping = await get(`/rest/ping?${query({ f: 'json' })}`, accept);
    expect(ping.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(ping.body.toString())['subsonic-response'].status).toBe('ok');
  });
});
