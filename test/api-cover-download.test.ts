/**
 * update_id3 with a source's cover URL as album_img, through the real server (gateway, worker, embedded store):
 * the server downloads the picture and writes it through the journaled tag engine, byte for byte. Nothing here
 * reaches the internet, and a local server is loopback, which the download refuses by design — so the picture
 * servers are reached through the administrator's rule: the origin of a source's base URL
 * (TAGSONIC_SOURCE_URL_<ID>, or a tag source's base URL setting) is trusted, as a local mirror's covers are.
 * Another loopback server, not configured, is refused before a byte is sent, directly or by a redirect.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArtwork, readTags } from '@tagsonic/core/tags';
import { USER_PASSWORD, call, expectError, expectOk, login, startHarness, type Harness, type Session } from './api-harness.ts';
import { makeAudio } from './support/audio.ts';

const run = promisify(execFile);
let h: Harness;
let s: Session;
let jpeg: Buffer;
let webp: Buffer;
/** The mirror configured by TAGSONIC_SOURCE_URL_COVERTEST: covers, a page, a 404, a redirect, a huge answer. */
let mirror: Server;
/** A mirror configured as an installed tag source's base URL setting. */
let settingMirror: Server;
/** A loopback server nobody configured: it must never be reached. */
let internal: Server;
let internalHits = 0;
let settingHits = 0;
const served: string[] = [];

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
let mirrorUrl = '';
let settingUrl = '';
let internalUrl = '';

beforeAll(async () => {
  h = await startHarness();
  s = await login(h.app, 'alice', USER_PASSWORD);
  jpeg = await picture('jpg', 'testsrc=s=640x480');
  webp = await picture('webp', 'color=c=0x883311:s=300x300');
  mirror = createServer((req, res) => {
    served.push(req.url!);
    const p = new URL(req.url!, 'http://x').pathname;
    if (p === '/covers/600.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    if (p === '/page') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Not a cover</html>');
    if (p === '/gone') return void res.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not Found</html>');
    if (p === '/to-internal') return void res.writeHead(302, { location: `${internalUrl}/secret.jpg` }).end();
    if (p === '/to-cover') return void res.writeHead(301, { location: '/covers/600.jpg' }).end();
    if (p === '/huge') {
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(17 * 1024 * 1024) });
      return void res.write(jpeg.subarray(0, 1000));
    }
    res.writeHead(500).end();
  });
  settingMirror = createServer((_req, res) => {
    settingHits++;
    res.writeHead(200, { 'content-type': 'image/webp' }).end(webp);
  });
  internal = createServer((_req, res) => {
    internalHits++;
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
  });
  [mirrorUrl, settingUrl, internalUrl] = await Promise.all([listen(mirror), listen(settingMirror), listen(internal)]);
  process.env.TAGSONIC_SOURCE_URL_COVERTEST = `${mirrorUrl}/api/v1`;
  await h.rt.plugins.install(
    {
      manifest: { id: 'lan_mirror', name: 'LAN mirror', version: '1.0.0', description: 'A self-hosted source.', kind: 'tag-source', entry: 'index.js', permissions: {} },
      code: 'module.exports = { search: async () => [] };',
    },
    'upload',
  );
  await h.rt.plugins.configure('lan_mirror', { baseUrl: settingUrl });
}, 120_000);

afterAll(async () => {
  delete process.env.TAGSONIC_SOURCE_URL_COVERTEST;
  for (const server of [mirror, settingMirror, internal]) server?.closeAllConnections();
  await Promise.all([mirror, settingMirror, internal].map((server) => new Promise((resolve) => server?.close(resolve))));
  await h?.close();
});

/** A real picture made by ffmpeg. */
async function picture(kind: 'jpg' | 'webp', source: string): Promise<Buffer> {
  const out = path.join(h.home, `cover-${Math.random().toString(36).slice(2)}.${kind}`);
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-frames:v', '1', out]);
  return readFile(out);
}

async function song(name: string): Promise<string> {
  const file = path.join(h.media, `${name}.mp3`);
  await makeAudio(file, { tags: { title: name } });
  return file;
}

const save = (infos: Record<string, unknown>[]) => call(h.app, s, 'POST', '/apimt/update_id3/', { music_id3_info: infos });

/** The picture as ffprobe (an independent reader) sees it. */
async function probePicture(file: string): Promise<{ codec_name: string; width: number; height: number } | undefined> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', file]);
  return (JSON.parse(stdout) as { streams: Array<{ codec_type: string; codec_name: string; width: number; height: number }> }).streams.find((st) => st.codec_type === 'video');
}

describe('update_id3 with a cover URL', () => {
  it("downloads the cover from the administrator's source base URL (env) and writes its exact bytes, undoably", async () => {
    const file = await song('from-env-mirror');
    const res = expectOk(await save([{ file_full_path: file, title: 'with a source cover', album_img: `${mirrorUrl}/covers/600.jpg?param=600y600` }]));
    expect(res.message).toBe('修改成功！');
    const art = await readArtwork(file);
    expect(art?.mime).toBe('image/jpeg');
    expect(Buffer.from(art!.data).equals(jpeg)).toBe(true);
    expect(await probePicture(file)).toMatchObject({ codec_name: 'mjpeg', width: 640, height: 480 });
    expect((await readTags(file)).tags.fields.title).toBe('with a source cover');
    // One journaled write: undoing the task takes the cover out again.
    expectOk(await call(h.app, s, 'POST', '/apimt/undo/', { task_id: res.data.task_id }));
    expect(await readArtwork(file)).toBeNull();
  });

  it("downloads from a tag source's base URL setting, follows a redirect within the mirror, and downloads a URL once for several files", async () => {
    const a = await song('setting-a');
    const b = await song('setting-b');
    const url = `${settingUrl}/art/cover.webp`;
    expectOk(await save([{ file_full_path: a, album_img: url }, { file_full_path: b, album_img: url }]));
    for (const f of [a, b]) expect(Buffer.from((await readArtwork(f))!.data).equals(webp)).toBe(true);
    expect(settingHits).toBe(1);

    const c = await song('redirected');
    const before = served.length;
    expectOk(await save([{ file_full_path: c, album_img: `${mirrorUrl}/to-cover` }]));
    expect(served.slice(before)).toEqual(['/to-cover', '/covers/600.jpg']);
    expect(Buffer.from((await readArtwork(c))!.data).equals(jpeg)).toBe(true);
  });

  it('refuses a loopback server nobody configured, directly or through a redirect, before a byte is sent', async () => {
    const file = await song('refused');
    for (const url of [`${internalUrl}/secret.jpg`, `http://localhost:${new URL(internalUrl).port}/secret.jpg`, `${mirrorUrl}/to-internal`]) {
      const body = expectError(await save([{ file_full_path: file, album_img: url }]), 400, 'TAGSONIC_ERR_TAGS_COVER_FETCH');
      expect(body.message, url).toMatch(/^The cover could not be downloaded from .*loopback, private, link-local or reserved address.*only from public addresses and the sources' configured base URLs/);
    }
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[::1]/x.jpg', 'http://10.0.0.1/x.jpg']) {
      expectError(await save([{ file_full_path: file, album_img: url }]), 400, 'TAGSONIC_ERR_TAGS_COVER_FETCH');
    }
    expect(internalHits).toBe(0);
    // Nothing was written: the file keeps no cover and its title.
    expect(await readArtwork(file)).toBeNull();
  });

  it('refuses what is not a picture, an HTTP error and a picture beyond the cover bound, each saying so', async () => {
    const file = await song('bad-answers');
    const page = expectError(await save([{ file_full_path: file, album_img: `${mirrorUrl}/page` }]), 400, 'TAGSONIC_ERR_TAGS_COVER_FETCH');
    expect(page.message).toBe(`The cover could not be downloaded from ${new URL(mirrorUrl).host}: what it sent (text/html) is not a JPEG, PNG or WebP picture.`);
    const gone = expectError(await save([{ file_full_path: file, album_img: `${mirrorUrl}/gone` }]), 400, 'TAGSONIC_ERR_TAGS_COVER_FETCH');
    expect(gone.message).toMatch(/answered HTTP 404\.$/);
    const huge = expectError(await save([{ file_full_path: file, album_img: `${mirrorUrl}/huge` }]), 400, 'TAGSONIC_ERR_TAGS_COVER_FETCH');
    expect(huge.message).toMatch(/larger than 16 MiB, more than fits in a tag\.$/);
    expectError(await save([{ file_full_path: file, album_img: 'ftp://example.com/cover.jpg' }]), 400, 'TAGSONIC_ERR_TAGS_BAD_COVER');
    expect(await readArtwork(file)).toBeNull();
  });
});
