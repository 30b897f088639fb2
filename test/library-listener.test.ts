/**
 * What the library shows a listener (issue 10, items 12 and 13), through a real scan of generated
 * files and the real gateway: albums whose tracks add guests keep their artist, files that are not
 * audio stay out of the library and are reported (scan result, file browser), and Chinese search
 * finds simplified and traditional spellings alike.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARIOUS_ARTISTS } from '@tagsonic/core/library';
import { readTags, safeWriteTags, type TagValues } from '@tagsonic/core/tags';
import { Scanner, type ScanResult } from '@tagsonic/workers/scanner';
import { audioFiles } from './library-env.ts';
import { ADMIN, ok, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';
import { call, expectOk, login, type Session } from './api-harness.ts';

/** Deterministic junk (xorshift32): 64 KiB in which a stray 0xFF… happens to look like an MPEG frame header. */
function junk(seed: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

describe('what the library shows a listener', () => {
  let h: SubsonicHarness;
  let media: string;
  let result: ScanResult;
  let session: Session;

  beforeAll(async () => {
    h = await startSubsonic({ scan: false });
    media = h.rt.config.mediaDir;
    const flacs = audioFiles(h.manifest).filter((f) => f.format === 'flac' && !f.cue && f.tags?.album);
    const source = path.join(media, ...flacs[0]!.path.split('/'));
    const tagged = async (rel: string, fields: TagValues) => {
      const p = path.join(media, ...rel.split('/'));
      await mkdir(path.dirname(p), { recursive: true });
      await copyFile(source, p);
      await safeWriteTags(p, { fields: { albumartist: null, ...fields } }, { journal: h.rt.journal, actor: 'test' });
    };
    // 12a: one folder, one album, no album artist tag; guests on some tracks, one track without an artist.
    await tagged('Guest Night/01.flac', { album: 'Guest Night', artist: 'Aster Vale', title: 'One' });
    await tagged('Guest Night/02.flac', { album: 'Guest Night', artist: 'Aster Vale feat. Birch', title: 'Two' });
    await tagged('Guest Night/03.flac', { album: 'Guest Night', artist: 'Aster Vale & Cedar', title: 'Three' });
    await tagged('Guest Night/04.flac', { album: 'Guest Night', artist: null, title: 'Four' });
    // 13: one artist written in traditional characters, one in simplified.
    await tagged('許麗佳/夜車/01.flac', { album: '夜車', artist: '許麗佳', title: '長夜' });
    await tagged('刘静佳/晚风集/01.flac', { album: '晚风集', artist: '刘静佳', title: '远方' });
    // 12b: random bytes named .mp3, and a FLAC cut after its first 42 bytes (header and STREAMINFO).
    await mkdir(path.join(media, 'Not Songs'));
    await writeFile(path.join(media, 'Not Songs', 'random.mp3'), junk(10, 64 * 1024));
    await writeFile(path.join(media, 'Not Songs', 'cut.flac'), (await readFile(source)).subarray(0, 42));
    const scanner = new Scanner({ roots: h.rt.roots, library: h.rt.library.store, catalog: h.rt.library.catalog, bus: h.rt.bus, readerThreads: 2 });
    result = await scanner.scan();
    session = await login(h.app, ADMIN.username, ADMIN.password);
  }, 60_000);
  afterAll(() => h?.close());

  it('files the album of one artist with guests under that artist, not Various Artists', async () => {
    const list = (await ok(h.app, 'getAlbumList2', { type: 'alphabeticalByName', size: 500 })).albumList2.album as Array<{ id: string; name: string; artist: string }>;
    const albums = list.filter((a) => a.name === 'Guest Night');
    expect(albums.map((a) => a.artist)).toEqual(['Aster Vale']);
    const album = (await ok(h.app, 'getAlbum', { id: albums[0]!.id })).album;
    expect(album.songCount).toBe(4);
    expect(album.isCompilation ?? false).toBe(false);
    expect(list.some((a) => a.artist === VARIOUS_ARTISTS && a.name === 'Guest Night')).toBe(false);
  });

  it('keeps files that are not audio out of the library and reports why', async () => {
    // The tag reader alone takes the junk for audio (an MPEG frame header, a STREAMINFO): the scan must not.
    for (const name of ['random.mp3', 'cut.flac']) await expect(readTags(path.join(media, 'Not Songs', name))).resolves.toBeTruthy();
    const failed = result.failed.filter((f) => f.path.includes(`${path.sep}Not Songs${path.sep}`));
    expect(failed.map((f) => path.basename(f.path)).sort()).toEqual(['cut.flac', 'random.mp3']);
    for (const f of failed) {
      expect(f.code).toBe('TAGSONIC_ERR_LIBRARY_NOT_AUDIO');
      expect(f.message).toContain('is not a song');
    }
    const songs = (await ok(h.app, 'search3', { query: '', songCount: 500, artistCount: 0, albumCount: 0 })).searchResult3.song as Array<{ path: string; album: string }>;
    expect(songs.some((s) => s.path.startsWith('Not Songs/'))).toBe(false);
    expect(songs.length).toBe(h.rt.library.catalog.tracks.size);
    // The real files of the library are all still songs (the check leaves ordinary files alone).
    expect(result.added).toBe(audioFiles(h.manifest).length + 1 + 6);
  });

  it('shows the file browser which files are not songs, with the reason', async () => {
    const body = expectOk(await call(h.app, session, 'POST', '/apimt/file_list/', { file_path: path.join(media, 'Not Songs') }));
    const nodes = body.data.file_list_data as Array<{ name: string; scan_problem?: { code: string; message: string } }>;
    expect(nodes.map((n) => n.name).sort()).toEqual(['cut.flac', 'random.mp3']);
    for (const n of nodes) {
      expect(n.scan_problem?.code).toBe('TAGSONIC_ERR_LIBRARY_NOT_AUDIO');
      expect(n.scan_problem?.message).toContain(n.name);
    }
    const songs = expectOk(await call(h.app, session, 'POST', '/apimt/file_list/', { file_path: path.join(media, 'Guest Night') })).data.file_list_data;
    expect(songs.every((n: { scan_problem?: unknown }) => n.scan_problem === undefined)).toBe(true);
  });

  it('finds traditional names by their simplified spelling and the other way round (search2, search3)', async () => {
    for (const method of ['search3', 'search2'] as const) {
      const key = method === 'search3' ? 'searchResult3' : 'searchResult2';
      const a = (await ok(h.app, method, { query: '许丽佳' }))[key];
      expect(a.artist.map((x: { name: string }) => x.name)).toEqual(['許麗佳']);
      expect(a.song.map((x: { title: string }) => x.title)).toEqual(['長夜']);
      const b = (await ok(h.app, method, { query: '劉靜佳' }))[key];
      expect(b.artist.map((x: { name: string }) => x.name)).toEqual(['刘静佳']);
      // search2 answers albums as directories (title), search3 as albums (name).
      expect(b.album.map((x: { name?: string; title?: string }) => x.name ?? x.title)).toEqual(['晚风集']);
      // Mixed scripts in one query, and the original spellings still match.
      expect((await ok(h.app, method, { query: '许麗佳 长夜' }))[key].song.map((x: { title: string }) => x.title)).toEqual(['長夜']);
      expect((await ok(h.app, method, { query: '許麗佳' }))[key].artist.map((x: { name: string }) => x.name)).toEqual(['許麗佳']);
    }
  });

  it('folds both scripts in the dashboard searches and filters', async () => {
    const q = h.rt.library.queries;
    expect((await q.artists({ search: '许丽佳' })).items.map((a) => a.name)).toEqual(['許麗佳']);
    expect((await q.albumList({ type: 'search', search: '夜车' })).map((a) => a.name)).toEqual(['夜車']);
    const titles = async (search: string) => (await q.songList({ sort: 'a-z', search, size: 500 })).map((s) => s.title);
    expect(await titles('遠方')).toContain('远方');
    expect(await titles('遠方')).toEqual(await titles('远方'));
    const artistId = (await q.artists({ search: '刘静佳' })).items[0]!.id;
    expect((await q.songsByGenre({ artistId, search: '晚風集', count: 10 })).map((s) => s.title)).toEqual(['远方']);
  });
});
