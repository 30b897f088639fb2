/**
 * Issue 10 item 7 over the scanned small library (its albums have featured "A feat. B" and "A/B"
 * tracks and a Various Artists compilation), plus two tracks retagged so that artists with albums of
 * their own are featured on other artists' albums (Grace Whitfield on 赵长青's, ミドリノソラ on Silver Pines'):
 * - getArtists / getArtist list and count only the albums an artist is an album artist of, and agree;
 * - a full folder walk (getIndexes → getMusicDirectory, as downsonic syncs) meets every track exactly once;
 * - an artist that only appears on others' albums stays findable by search3, with its songs.
 */
import { execFile } from 'node:child_process';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scanner } from '@tagsonic/workers/scanner';
import { asAlice, ok, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';

const run = promisify(execFile);

/** Featured artists who also have albums of their own: the case where counts used to disagree. */
const GUESTS = [
  { file: '赵长青/爱情里的青春/02 致远方.mp3', artist: '赵长青 feat. Grace Whitfield', guest: 'Grace Whitfield', own: ['Broken River'] },
  { file: 'Silver Pines/Velvet Highway/02 Endless Ocean.mp3', artist: 'Silver Pines & ミドリノソラ', guest: 'ミドリノソラ', own: ['夏の終わりに'] },
];

interface Ref {
  id: string;
  name?: string;
}

let h: SubsonicHarness;
let trackIds: string[];

beforeAll(async () => {
  h = await startSubsonic();
  for (const g of GUESTS) {
    const file = path.join(h.rt.config.mediaDir, g.file);
    const tmp = `${file}.retag.mp3`;
    await run('ffmpeg', ['-v', 'error', '-y', '-i', file, '-map', '0', '-c', 'copy', '-map_metadata', '0', '-id3v2_version', '4', '-metadata', `artist=${g.artist}`, tmp]);
    await rename(tmp, file);
  }
  await new Scanner({ roots: h.rt.roots, library: h.rt.library.store, catalog: h.rt.library.catalog, bus: h.rt.bus, readerThreads: 2 }).scan();
  trackIds = (await ok(h.app, 'search3', { query: '', songCount: 500, artistCount: 0, albumCount: 0 })).searchResult3.song.map((s: Ref) => s.id);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const allArtists = async (): Promise<Array<Ref & { albumCount: number }>> =>
  (await ok(h.app, 'getArtists', {}, { auth: asAlice })).artists.index.flatMap((i: { artist: unknown[] }) => i.artist);

describe('artists are their albums as album artist (Navidrome)', () => {
  it('getArtist lists only albums the artist is an album artist of, as many as getArtists counts', async () => {
    const artists = await allArtists();
    expect(artists.length).toBeGreaterThan(5);
    const albumsSeen = new Set<string>();
    for (const a of artists) {
      const detail = (await ok(h.app, 'getArtist', { id: a.id }, { auth: asAlice })).artist;
      const albums: Array<Ref & { artistId?: string; artists?: Ref[] }> = detail.album ?? [];
      expect(albums.length, a.name).toBeGreaterThan(0);
      expect(detail.albumCount, a.name).toBe(albums.length);
      expect(a.albumCount, a.name).toBe(albums.length);
      for (const al of albums) {
        expect(al.artistId === a.id || (al.artists ?? []).some((x) => x.id === a.id), `${a.name}: ${al.name}`).toBe(true);
        albumsSeen.add(al.id);
      }
    }
    // Every album is still reachable from some artist.
    const albums = (await ok(h.app, 'getAlbumList2', { type: 'alphabeticalByName', size: 500 })).albumList2.album;
    expect([...albumsSeen].sort()).toEqual(albums.map((x: Ref) => x.id).sort());
  });

  it('does not list or count the albums a featured artist only appears on', async () => {
    const artists = await allArtists();
    for (const g of GUESTS) {
      const entry = artists.find((a) => a.name === g.guest)!;
      expect(entry, g.guest).toBeDefined();
      expect(entry.albumCount, g.guest).toBe(g.own.length);
      const detail = (await ok(h.app, 'getArtist', { id: entry.id })).artist;
      expect(detail.album.map((a: Ref) => a.name)).toEqual(g.own);
      const dir = (await ok(h.app, 'getMusicDirectory', { id: entry.id })).directory;
      expect(dir.child.map((c: { title: string }) => c.title)).toEqual(g.own);
      // The appearance is still found: search for the artist finds the featured song.
      const found = (await ok(h.app, 'search3', { query: g.guest, artistCount: 5, albumCount: 0, songCount: 50 })).searchResult3;
      expect(found.song.map((s: { artist: string }) => s.artist)).toContain(g.artist);
    }
  });

  it('keeps artists who only appear on others\' albums out of the index but findable, with their songs', async () => {
    const listed = new Set((await allArtists()).map((a) => a.id));
    const everyone = (await ok(h.app, 'search3', { query: '', artistCount: 500, albumCount: 0, songCount: 0 })).searchResult3.artist as Array<Ref & { albumCount: number }>;
    const guests = everyone.filter((a) => !listed.has(a.id));
    expect(guests.length, 'the small library has featured-only artists').toBeGreaterThan(0);
    for (const g of guests) {
      expect(g.albumCount).toBe(0);
      const found = (await ok(h.app, 'search3', { query: g.name!, artistCount: 5, albumCount: 0, songCount: 50 })).searchResult3;
      expect(found.artist.map((x: Ref) => x.id)).toContain(g.id);
      expect(found.song.some((s: { artists?: Ref[]; artistId?: string }) => s.artistId === g.id || (s.artists ?? []).some((x) => x.id === g.id)), g.name).toBe(true);
    }
    // A featured artist who also has an album of their own counts only that album.
    for (const a of everyone.filter((x) => listed.has(x.id))) {
      expect(a.albumCount).toBe((await ok(h.app, 'getArtist', { id: a.id })).artist.album.length);
    }
  });

  it('a full folder walk meets every track exactly once', async () => {
    // Walked as a naive sync client does: every listed folder is opened, nothing is de-duplicated.
    const seen: string[] = [];
    const indexes = (await ok(h.app, 'getIndexes', {}, { auth: asAlice })).indexes;
    seen.push(...(indexes.child ?? []).map((c: Ref) => c.id));
    const walk = async (id: string, depth: number): Promise<number> => {
      expect(depth, 'folders form a tree').toBeLessThan(10);
      const dir = (await ok(h.app, 'getMusicDirectory', { id }, { auth: asAlice })).directory;
      let folders = 0;
      for (const c of dir.child ?? []) {
        if (c.isDir) folders++, await walk(c.id, depth + 1);
        else seen.push(c.id);
      }
      return folders;
    };
    for (const group of indexes.index ?? []) {
      for (const artist of group.artist as Array<Ref & { albumCount: number }>) {
        const folders = await walk(artist.id, 0);
        expect(folders, artist.name).toBe(artist.albumCount);
        expect(folders, artist.name).toBeGreaterThan(0);
      }
    }
    expect(seen.length).toBe(trackIds.length);
    expect([...seen].sort()).toEqual([...trackIds].sort());
  });
});
