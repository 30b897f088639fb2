/**
 * Issue 10 item 10 over the scanned small library: internet radio stations (everyone lists them,
 * administrators manage them, URLs validated, listed in the admin backend) and download.view of an
 * album, artist or playlist as a streamed zip of the original files.
 */
import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { albumsPlan, contentDisposition, safePart } from '../gateway/src/subsonic/media-zip.ts';
import { call, login } from './api-harness.ts';
import { ADMIN, asAlice, both, fails, ok, query, rest, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';

const run = promisify(execFile);

let h: SubsonicHarness;
let scratch: string;

beforeAll(async () => {
  h = await startSubsonic({ listen: true });
  scratch = await mkdtemp(path.join(tmpdir(), 'tagsonic-zip-'));
}, 120_000);

afterAll(async () => {
  await h?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const stations = async () => (await ok(h.app, 'getInternetRadioStations', {}, { auth: asAlice })).internetRadioStations.internetRadioStation;

describe('internet radio stations', () => {
  it('starts empty for every user, in JSON and XML', async () => {
    const body = await both(h.app, 'getInternetRadioStations', {}, { auth: asAlice });
    expect(body.internetRadioStations).toEqual({ internetRadioStation: [] });
  });

  it('lets administrators create, update and delete stations that every user lists', async () => {
    await ok(h.app, 'createInternetRadioStation', { name: 'Zeta FM', streamUrl: 'http://zeta.example.org/live.mp3' });
    await ok(h.app, 'createInternetRadioStation', { name: '  Alpha Radio ', streamUrl: 'https://alpha.example.org/stream', homepageUrl: 'https://alpha.example.org/' }, { post: true });
    const list = await stations();
    expect(list).toEqual([
      { id: expect.stringMatching(/^ra-[0-9a-f]{16}$/), name: 'Alpha Radio', streamUrl: 'https://alpha.example.org/stream', homePageUrl: 'https://alpha.example.org/' },
      { id: expect.stringMatching(/^ra-[0-9a-f]{16}$/), name: 'Zeta FM', streamUrl: 'http://zeta.example.org/live.mp3' },
    ]);
    const xmlList = (await both(h.app, 'getInternetRadioStations', {})).internetRadioStations.internetRadioStation;
    expect(xmlList).toEqual(list);

    const [alpha, zeta] = list;
    await ok(h.app, 'updateInternetRadioStation', { id: alpha.id, name: 'Alpha Radio 2', streamUrl: 'https://alpha.example.org/hq' });
    expect((await stations())[0]).toEqual({ id: alpha.id, name: 'Alpha Radio 2', streamUrl: 'https://alpha.example.org/hq' });

    await ok(h.app, 'deleteInternetRadioStation', { id: zeta.id });
    expect((await stations()).map((s: { id: string }) => s.id)).toEqual([alpha.id]);
    expect((await fails(h.app, 'deleteInternetRadioStation', { id: zeta.id }, 70)).message).toMatch(/No internet radio station/);
    await fails(h.app, 'updateInternetRadioStation', { id: 'ra-0000000000000000', name: 'x', streamUrl: 'http://x.example/' }, 70);
  });

  it('refuses other users with error 50', async () => {
    const [first] = await stations();
    for (const [method, params] of [
      ['createInternetRadioStation', { name: 'Mine', streamUrl: 'http://mine.example/' }],
      ['updateInternetRadioStation', { id: first.id, name: 'Mine', streamUrl: 'http://mine.example/' }],
      ['deleteInternetRadioStation', { id: first.id }],
    ] as const) {
      expect((await fails(h.app, method, params, 50, { auth: asAlice })).message).toMatch(/administrators only/);
    }
    expect((await stations())[0]).toEqual(first);
  });

  it('validates names and URLs with clear messages', async () => {
    const before = await stations();
    expect((await fails(h.app, 'createInternetRadioStation', { streamUrl: 'http://a.example/' }, 10)).message).toMatch(/"name"/);
    expect((await fails(h.app, 'createInternetRadioStation', { name: 'A' }, 10)).message).toMatch(/"streamUrl"/);
    expect((await fails(h.app, 'createInternetRadioStation', { name: '   ', streamUrl: 'http://a.example/' }, 10)).message).toMatch(/needs a name/);
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'ftp://a.example/x', 'not a url', 'http://']) {
      expect((await fails(h.app, 'createInternetRadioStation', { name: 'A', streamUrl: bad }, 0)).message).toMatch(/streamUrl must be an http:\/\/ or https:\/\/ address/);
    }
    expect((await fails(h.app, 'createInternetRadioStation', { name: 'A', streamUrl: 'http://a.example/', homepageUrl: 'javascript:x' }, 0)).message).toMatch(/homepageUrl/);
    expect((await fails(h.app, 'createInternetRadioStation', { name: 'A\u0007', streamUrl: 'http://a.example/' }, 0)).message).toMatch(/control characters/);
    expect(await stations()).toEqual(before);
  });

  it('lists the stations in the admin backend (administrators only)', async () => {
    const admin = await login(h.app, ADMIN.username, ADMIN.password);
    const res = await call(h.app, admin, 'GET', '/apimt/admin/radio_stations/');
    expect(res.statusCode, res.body).toBe(200);
    const [station] = await stations();
    expect(res.json().data.stations).toEqual([
      { id: station.id, name: station.name, stream_url: station.streamUrl, home_page_url: '', created_at: expect.any(String), updated_at: expect.any(String) },
    ]);
    const alice = await login(h.app, 'alice', 'alice-login-password');
    expect((await call(h.app, alice, 'GET', '/apimt/admin/radio_stations/')).statusCode).toBe(403);
  });
});

interface ZipItem {
  name: string;
  method: number;
  data: Buffer;
}

/** A small zip reader (central directory → local headers), independent of the writer under test. */
function readZip(zip: Buffer): ZipItem[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThanOrEqual(0);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const items: ZipItem[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    expect(flags & 0x800, 'UTF-8 name flag').toBe(0x800);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    items.push({ name, method, data: method === 0 ? Buffer.from(raw) : inflateRawSync(raw) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return items;
}

interface Song {
  id: string;
  title: string;
  track?: number;
  suffix: string;
}

async function download(id: string, auth = asAlice) {
  const res = await rest(h.app, 'download', { id }, { auth });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  const body = res.rawPayload;
  expect(Number(res.headers['content-length'])).toBe(body.length);
  // An independent implementation agrees the archive is sound.
  const file = path.join(scratch, `${Math.random().toString(36).slice(2)}.zip`);
  await writeFile(file, body);
  const { stdout } = await run('unzip', ['-tq', file]);
  expect(stdout).toMatch(/No errors detected/);
  return { res, items: readZip(body) };
}

const original = async (songId: string) => readFile(await h.rt.library.queries.songPath(songId));

describe('download of albums, artists and playlists', () => {
  it('zips every album as stored originals named "NN - Title.ext" in an "Artist - Album/" folder', async () => {
    const albums = (await ok(h.app, 'getAlbumList2', { type: 'alphabeticalByName', size: 500 })).albumList2.album;
    expect(albums.length).toBeGreaterThan(3);
    for (const album of albums) {
      const songs: Song[] = (await ok(h.app, 'getAlbum', { id: album.id })).album.song;
      const { res, items } = await download(album.id);
      const folder = safePart(`${album.artist} - ${album.name}`);
      expect(res.headers['content-disposition']).toBe(contentDisposition(`${folder}.zip`));
      expect(items.map((i) => i.name)).toHaveLength(songs.length);
      for (const [i, song] of songs.entries()) {
        const item = items[i]!;
        expect(item.name.startsWith(`${folder}/`), item.name).toBe(true);
        expect(item.name.slice(folder.length + 1)).toMatch(new RegExp(`^(\\d+-)?\\d{2,} - .+\\.${song.suffix}$`));
        expect(item.name).not.toMatch(/[\u0000-\u001f\\\\:*?"<>|]/);
        expect(item.method, 'stored, not compressed').toBe(0);
        expect(item.data.equals(await original(song.id)), item.name).toBe(true);
      }
    }
  });

  it('names the download with an ASCII fallback and the exact UTF-8 name (RFC 5987)', async () => {
    const albums = (await ok(h.app, 'getAlbumList2', { type: 'alphabeticalByName', size: 500 })).albumList2.album;
    const cjk = albums.find((a: { name: string }) => /[^\x00-\x7f]/.test(a.name));
    const { res } = await download(cjk.id);
    const header = String(res.headers['content-disposition']);
    const name = `${safePart(`${cjk.artist} - ${cjk.name}`)}.zip`;
    expect(header).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    expect(header).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
    expect(contentDisposition(`it's (a) "test" 100%.zip`)).toBe(`attachment; filename="it's (a) _test_ 100_.zip"; filename*=UTF-8''it%27s%20%28a%29%20%22test%22%20100%25.zip`);
  });

  it("zips an artist's own albums (where it is the album artist), each in its folder", async () => {
    const artists = (await ok(h.app, 'getArtists')).artists.index.flatMap((i: { artist: unknown[] }) => i.artist);
    const artist = artists.find((a: { albumCount: number }) => a.albumCount > 0);
    const detail = (await ok(h.app, 'getArtist', { id: artist.id })).artist;
    const own = detail.album.filter((a: { artistId: string }) => a.artistId === artist.id);
    const expected: string[] = [];
    for (const album of own) expected.push(...(await ok(h.app, 'getAlbum', { id: album.id })).album.song.map((s: Song) => s.id));
    const { res, items } = await download(artist.id);
    expect(res.headers['content-disposition']).toBe(contentDisposition(`${safePart(artist.name)}.zip`));
    expect(items).toHaveLength(expected.length);
    for (const [i, id] of expected.entries()) expect(items[i]!.data.equals(await original(id))).toBe(true);
  });

  it('zips a playlist in its order, one folder, each file once', async () => {
    const songs: Song[] = (await ok(h.app, 'search3', { query: '', songCount: 3, artistCount: 0, albumCount: 0 })).searchResult3.song;
    const ids = [songs[0]!.id, songs[1]!.id, songs[0]!.id];
    const list = (await ok(h.app, 'createPlaylist', { name: 'Road / Trip: "2026"', songId: ids }, { auth: asAlice })).playlist;
    const { res, items } = await download(list.id);
    expect(res.headers['content-disposition']).toBe(contentDisposition('Road _ Trip_ _2026_.zip'));
    expect(items.map((i) => i.name.split('/')[0])).toEqual(['Road _ Trip_ _2026_', 'Road _ Trip_ _2026_']);
    expect(items.map((i) => i.name.split('/')[1]!.slice(0, 5))).toEqual(['01 - ', '02 - ']);
    for (const [i, id] of ids.slice(0, 2).entries()) expect(items[i]!.data.equals(await original(id))).toBe(true);
    const empty = (await ok(h.app, 'createPlaylist', { name: 'Empty' }, { auth: asAlice })).playlist;
    expect((await fails(h.app, 'download', { id: empty.id }, 70, { auth: asAlice })).message).toMatch(/Nothing to download/);
  });

  it('sanitises names and keeps them unique', () => {
    expect(safePart('a/b\\c:d*e?f"g<h>i|j\u0001k\u007f')).toBe('a_b_c_d_e_f_g_h_i_jk');
    expect(safePart(' .. ')).toBe('Unknown');
    expect(safePart('..')).toBe('Unknown');
    expect(safePart('.hidden. ')).toBe('hidden');
    expect(safePart('長'.repeat(300))).toBe('長'.repeat(60));
    expect(Buffer.byteLength(safePart('a'.repeat(300)))).toBe(180);
    expect(safePart('CON')).toBe('CON_');
    expect(safePart('lpt1.txt')).toBe('lpt1.txt_');
    expect(safePart('Console')).toBe('Console');
    const song = (id: string, title: string, track: number | null, disc = 1) =>
      ({ id, title, track, discNumber: disc, suffix: 'FLAC', album: 'A/B', albumArtist: 'X', artist: 'X' }) as never;
    const plan = albumsPlan('X - A/B', [[song('1', 'Same', 1), song('2', 'Same', 1), song('3', 'Other', null, 2)]]);
    expect(plan.fileName).toBe('X - A_B.zip');
    expect(plan.entries.map((e) => `${e.folder}/${e.file}`)).toEqual(['X - A_B/1-01 - Same.flac', 'X - A_B/1-01 - Same.flac', 'X - A_B/2-03 - Other.flac']);
  });

  it('still downloads one song as its file, and refuses ids that name nothing downloadable', async () => {
    const [song] = (await ok(h.app, 'search3', { query: '', songCount: 1, artistCount: 0, albumCount: 0 })).searchResult3.song;
    const res = await rest(h.app, 'download', { id: song.id }, { auth: asAlice });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(await original(song.id))).toBe(true);
    expect((await fails(h.app, 'download', { id: 'nonsense' }, 70)).message).toMatch(/No song, album, artist or playlist/);
    expect((await fails(h.app, 'download', { id: 'al-00000000000000000000' }, 70)).message).toMatch(/No album/);
    const folder = (await ok(h.app, 'getMusicDirectory', { id: '1' })).directory.child.find((c: { isDir: boolean }) => c.isDir);
    expect((await fails(h.app, 'download', { id: folder.id }, 0)).message).toMatch(/Only songs, albums, artists and playlists/);
  });

  it('closes the file of a download the client abandons mid-way', async () => {
    const albums = (await ok(h.app, 'getAlbumList2', { type: 'alphabeticalByName', size: 500 })).albumList2.album;
    const album = albums.find((a: { songCount: number }) => a.songCount >= 2);
    const [first] = (await ok(h.app, 'getAlbum', { id: album.id })).album.song;
    // Make the first file large enough that the zip cannot sit whole in the socket buffers.
    const file = await h.rt.library.queries.songPath(first.id);
    await appendFile(file, Buffer.alloc(64 * 1024 * 1024));
    const openMedia = async () => {
      let n = 0;
      for (const fd of await readdir('/proc/self/fd')) {
        const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
        if (target.startsWith(h.rt.config.mediaDir)) n++;
      }
      return n;
    };
    const abort = new AbortController();
    const res = await fetch(`${h.url}/rest/download.view?${query({ id: album.id })}`, { signal: abort.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    expect(await openMedia()).toBe(1);
    abort.abort();
    await expect.poll(openMedia).toBe(0);
    await ok(h.app, 'ping');
  });
});
