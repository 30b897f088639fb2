import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompress } from '../dashboard/build.ts';
import { USER_PASSWORD, call, expectError, expectOk, login, sharedLibrary, startHarness, type Harness, type Session } from './api-harness.ts';

let h: Harness;
let s: Session;
let dist: string;
const BIG_CHUNK = Array.from({ length: 400 }, (_, i) => `export const value${i} = () => 'the same words again and again ${i}';`).join('\n');
beforeAll(async () => {
  const lib = await sharedLibrary();
  // A built dashboard as esbuild lays it out: index.html and hashed assets.
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  dist = await mkdtemp(path.join(tmpdir(), 'tagsonic-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Tagsonic</title><script src="/assets/main-AB12CD34.js"></script>');
  await writeFile(path.join(dist, 'assets/main-AB12CD34.js'), 'console.log(1)');
  // A chunk big enough to compress, with the build's own brotli and gzip copies.
  await writeFile(path.join(dist, 'assets/chunk-ZX98YW76.js'), BIG_CHUNK);
  expect(await precompress(path.join(dist, 'assets'), ['chunk-ZX98YW76.js', 'main-AB12CD34.js', 'chunk-ZX98YW76.js.map'])).toBe(1);
  await writeFile(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  h = await startHarness({ dashboardDir: dist });
  await mkdir(path.join(h.media, 'a'));
  await copyFile(path.join(lib.root, 'Unsorted/corrupt.mp3'), path.join(h.media, 'a/corrupt.mp3'));
  s = await login(h.app, 'alice', USER_PASSWORD);
});
afterAll(async () => h?.close());

describe('POST /apimt/preview_regex/', () => {
  const preview = (body: Record<string, unknown>, auth: Parameters<typeof call>[1] = s) => call(h.app, auth, 'POST', '/apimt/preview_regex/', body);

  it('splits a file name with the first matching rule; groups are tag fields', async () => {
    const res = expectOk(await preview({ preview_text: '03. 周杰伦 - 晴天', mode: 'split_filename', rule_list: ['^(?<tracknumber>\\d+)\\. (?<artist>.+?) - (?<title>.+)$', '(?<title>.+)'] }));
    expect(res.data).toMatchObject({ matched_rule: 0, fields: { tracknumber: '03', artist: '周杰伦', title: '晴天' } });
    expect(res.message).toBe('预览成功！');
    const none = expectOk(await preview({ preview_text: 'abc', mode: 'split_filename', rule_list: ['^(?<title>\\d+)$'] }));
    expect(none.data).toMatchObject({ matched_rule: -1, fields: {} });
    expectError(await preview({ preview_text: 'a', mode: 'split_filename', rule_list: ['(?<colour>.+)'] }), 400, 'TAGSONIC_ERR_REGEX_BAD_GROUP');
  });

  it('replaces text literally or by regex, rules in order', async () => {
    const lit = expectOk(await preview({ preview_text: 'a.b.c (Live)', mode: 'replace_text', rule_list: [{ before: '.', after: '-' }, { before: ' (Live)', after: '' }] }));
    expect(lit.data).toMatchObject({ text: 'a-b-c', count: 3 });
    const re = expectOk(await preview({ preview_text: 'Track 01 - Song', mode: 'replace_text', replace_mode: 'regex', rule_list: [{ before: '^Track (\\d+) - (.+)$', after: '$2 ($1)' }] }));
    expect(re.data.text).toBe('Song (01)');
  });

  it('cannot be made to hang: catastrophic patterns run in linear time; look-arounds are refused clearly', async () => {
    const t = performance.now();
    const res = expectOk(await preview({ preview_text: `${'a'.repeat(50_000)}!`, mode: 'replace_text', replace_mode: 'regex', rule_list: [{ before: '(a+)+$', after: 'x' }] }));
    expect(performance.now() - t).toBeLessThan(2000);
    expect(res.data.count).toBe(0);
    const e = expectError(await preview({ preview_text: 'ab', mode: 'replace_text', replace_mode: 'regex', rule_list: [{ before: '(?<=a)b', after: 'x' }] }), 400, 'TAGSONIC_ERR_REGEX_INVALID');
    expect(e.message).toMatch(/look-arounds and back-references are not supported/);
    expectError(await preview({ preview_text: 'ab', mode: 'replace_text', replace_mode: 'regex', rule_list: [{ before: '(a)\\1', after: 'x' }] }), 400, 'TAGSONIC_ERR_REGEX_INVALID');
    expectError(await preview({ preview_text: 'x'.repeat(100_001), mode: 'replace_text', rule_list: [{ before: 'x', after: 'y' }] }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await preview({ preview_text: 'x', mode: 'other', rule_list: ['x'] }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await preview({ preview_text: 'x', mode: 'split_filename', rule_list: [{ before: 'x', after: 'y' }] }), 400, 'TAGSONIC_ERR_REGEX_BAD_RULES');
    expectError(await preview({ preview_text: 'x', mode: 'split_filename', rule_list: ['x'] }, 'none'), 401);
    expectError(await preview({ preview_text: 'x', mode: 'split_filename', rule_list: ['x'] }, { cookieOnly: s }), 403);
  });
});

describe('records (the bell) and folder states', () => {
  it('lists the user\'s failed tasks with unread_count, and marks them read', async () => {
    const empty = expectOk(await call(h.app, s, 'GET', '/apimt/record/?state=failed&page_size=20'));
    expect(empty.data).toEqual({ items: [], unread_count: 0 });
    const bad = path.join(h.media, 'a/corrupt.mp3');
    expectError(await call(h.app, s, 'POST', '/apimt/update_id3/', { music_id3_info: [{ file_full_path: bad, title: 'x' }] }), 400);
    const res = expectOk(await call(h.app, s, 'GET', '/apimt/record/?state=failed&page_size=20'));
    expect(res.data.unread_count).toBe(1);
    expect(res.data.items[0]).toMatchObject({ title: '手动修改 失败', version: '20250516', read: false });
    expect(res.data.items[0].content).toMatch(/1 个文件失败.*corrupt\.mp3/);
    expect(Date.parse(res.data.items[0].update_at)).toBeGreaterThan(0);
    // Another user's bell stays empty.
    const admin = await login(h.app);
    expect(expectOk(await call(h.app, admin, 'GET', '/apimt/record/')).data.unread_count).toBe(0);
    expect(expectOk(await call(h.app, s, 'POST', '/apimt/record/', { message_list: res.data.items })).data.unread_count).toBe(0);
    const after = expectOk(await call(h.app, s, 'GET', '/apimt/record/'));
    expect(after.data.unread_count).toBe(0);
    expect(after.data.items[0].read).toBe(true);
    expectError(await call(h.app, s, 'GET', '/apimt/record/?page_size=1000'), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await call(h.app, s, 'GET', '/apimt/record/?state=success'), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await call(h.app, 'none', 'GET', '/apimt/record/'), 401);
    expectError(await call(h.app, { cookieOnly: s }, 'POST', '/apimt/record/', {}), 403);
  });

  it('update_folder_state marks a folder success (标记成功！), shown by file_list', async () => {
    const res = expectOk(await call(h.app, s, 'POST', '/apimt/update_folder_state/', { full_path: path.join(h.media, 'a') }));
    expect(res.message).toBe('标记成功！');
    const list = expectOk(await call(h.app, s, 'POST', '/apimt/file_list/', { file_path: h.media })).data.file_list_data;
    expect(list.find((n: any) => n.name === 'a').state).toBe('success');
    expectOk(await call(h.app, s, 'POST', '/apimt/update_folder_state/', { full_path: path.join(h.media, 'a'), state: null }));
    expect(expectOk(await call(h.app, s, 'POST', '/apimt/file_list/', { file_path: h.media })).data.file_list_data.find((n: any) => n.name === 'a').state).toBeNull();
    expectError(await call(h.app, s, 'POST', '/apimt/update_folder_state/', { full_path: '/etc' }), 403);
    expectError(await call(h.app, s, 'POST', '/apimt/update_folder_state/', { full_path: path.join(h.media, 'a'), state: 'done' }), 400);
    expectError(await call(h.app, s, 'POST', '/apimt/update_folder_state/', {}), 400, 'TAGSONIC_ERR_HTTP_INVALID');
  });
});

describe('static dashboard and unknown paths', () => {
  it('serves index.html for client routes (no-cache) and hashed assets for a year', async () => {
    for (const url of ['/', '/detail?path=/app/media', '/admin/', '/albums/recently-added/', '/login']) {
      const res = await h.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<title>Tagsonic</title>');
      expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    const asset = await h.app.inject({ method: 'GET', url: '/assets/main-AB12CD34.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The build's compressed copies go to browsers that accept them, with the same long cache; others get the file.
    const chunk = (encoding?: string) => h.app.inject({ method: 'GET', url: '/assets/chunk-ZX98YW76.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const br = await chunk('gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(BIG_CHUNK.length / 5);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_CHUNK);
    const gz = await chunk('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_CHUNK);
    const plain = await chunk();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_CHUNK);
    // Too small to gain: the build wrote no copies (a file without one may still be compressed on the fly).
    const small = await h.app.inject({ method: 'GET', url: '/assets/main-AB12CD34.js', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding'] === 'br' ? brotliDecompressSync(small.rawPayload).toString() : small.body).toBe('console.log(1)');
    const sw = await h.app.inject({ method: 'GET', url: '/sw.js' });
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect((await h.app.inject({ method: 'GET', url: '/assets/../../../etc/passwd' })).body).not.toMatch(/root:/);
  });

  it('API paths never fall back to the page: JSON 404 envelopes', async () => {
    for (const url of ['/apimt/nope/', '/user/nope/', '/api/open/x', '/healthz/extra', '/logout/x']) {
      const res = await h.app.inject({ method: 'GET', url });
      expectError(res, 404, 'TAGSONIC_ERR_HTTP_NO_ROUTE');
    }
    expectError(await h.app.inject({ method: 'POST', url: '/somewhere' }), 404);
  });

  it('answers 503 with a clear page when the dashboard is not built', async () => {
    const bare = await startHarness();
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toMatch(/The dashboard is not built/);
      expect((await bare.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
