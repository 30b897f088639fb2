/**
 * Marks over /rest: star/unstar (repeated ids of every kind, form POST), setRating, scrobble (several
 * ids with times, submission=false as now playing), getNowPlaying, getStarred/getStarred2 (+ the
 * spec's type/size/offset), album lists by the user's marks, bookmarks and play queues (by id and by
 * index). Marks are per user; unknown ids are 70, missing ones 10.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, asAdmin, asAlice, both, fails, ok, rest, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';

const ids = (xs: Array<{ id: string }> | undefined) => (xs ?? []).map((x) => x.id);

describe('subsonic annotations, bookmarks and play queues', () => {
  let h: SubsonicHarness;
  let songIds: string[];
  let albumIds: string[];
  let artistIds: string[];
  beforeAll(async () => {
    h = await startSubsonic();
    const c = h.rt.library.catalog;
    songIds = [...c.tracks.keys()].slice(0, 6);
    albumIds = [...c.albums.keys()].slice(0, 3);
    artistIds = [...c.artists.keys()].slice(0, 3);
  });
  afterAll(() => h?.close());

  describe('stars', () => {
    it('stars songs, albums and artists given as repeated parameters, by form POST too', async () => {
      await ok(h.app, 'star', { id: [songIds[0]!, songIds[1]!, albumIds[0]!], albumId: albumIds[1]!, artistId: [artistIds[0]!, artistIds[1]!] }, { auth: asAlice });
      await ok(h.app, 'star', { id: songIds[2]! }, { auth: asAlice, post: true });
      const s2 = (await both(h.app, 'getStarred2', {}, { auth: asAlice })).starred2;
      expect(ids(s2.song).sort()).toEqual([songIds[0], songIds[1], songIds[2]].sort());
      expect(ids(s2.album).sort()).toEqual([albumIds[0], albumIds[1]].sort());
      expect(ids(s2.artist).sort()).toEqual([artistIds[0], artistIds[1]].sort());
      for (const s of s2.song) expect(s.starred).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      const s1 = (await both(h.app, 'getStarred', {}, { auth: asAlice })).starred;
      expect(ids(s1.song).sort()).toEqual(ids(s2.song).sort());
      expect(s1.album.every((a: any) => a.isDir)).toBe(true);
      // Marks are per user.
      const admin = (await ok(h.app, 'getStarred2', {}, { auth: asAdmin })).starred2;
      expect(admin).toEqual({ artist: [], album: [], song: [] });
      // The starred flag shows on the items themselves.
      const song = (await ok(h.app, 'getSong', { id: songIds[0]! }, { auth: asAlice })).song;
      expect(song.starred).toBeDefined();
      expect((await ok(h.app, 'getSong', { id: songIds[0]! }, { auth: asAdmin })).song.starred).toBeUndefined();
      const starredAlbums = (await ok(h.app, 'getAlbumList2', { type: 'starred' }, { auth: asAlice })).albumList2.album;
      expect(ids(starredAlbums).sort()).toEqual([albumIds[0], albumIds[1]].sort());
    });

    it('pages the starred lists by the spec type, size and offset', async () => {
      const songs = (await ok(h.app, 'getStarred2', { type: 'track' }, { auth: asAlice })).starred2;
      expect(songs.album).toEqual([]);
      expect(songs.artist).toEqual([]);
      expect(songs.song).toHaveLength(3);
      const first = (await ok(h.app, 'getStarred2', { type: 'track', size: 2 }, { auth: asAlice })).starred2.song;
      const rest_ = (await ok(h.app, 'getStarred2', { type: 'track', size: 2, offset: 2 }, { auth: asAlice })).starred2.song;
      expect([...ids(first), ...ids(rest_)]).toEqual(ids(songs.song));
      const albums = (await ok(h.app, 'getStarred2', { type: 'album' }, { auth: asAlice })).starred2;
      expect(albums.album).toHaveLength(2);
      expect(albums.song).toEqual([]);
      const artists = (await ok(h.app, 'getStarred', { type: 'artist' }, { auth: asAlice })).starred;
      expect(artists.artist).toHaveLength(2);
      await fails(h.app, 'getStarred2', { type: 'playlist' }, 0, { auth: asAlice });
    });

    it('unstars, refuses unknown ids (70) and calls without any id (10)', async () => {
      await ok(h.app, 'unstar', { id: songIds[0]!, albumId: albumIds[1]!, artistId: artistIds[1]! }, { auth: asAlice });
      const s2 = (await ok(h.app, 'getStarred2', {}, { auth: asAlice })).starred2;
      expect(ids(s2.song)).not.toContain(songIds[0]);
      expect(ids(s2.album)).toEqual([albumIds[0]]);
      expect(ids(s2.artist)).toEqual([artistIds[0]]);
      await fails(h.app, 'star', { id: '0123456789abcdef01234567' }, 70, { auth: asAlice });
      await fails(h.app, 'star', { albumId: artistIds[0]! }, 70, { auth: asAlice });
      await fails(h.app, 'star', {}, 10, { auth: asAlice });
      await fails(h.app, 'unstar', {}, 10, { auth: asAlice });
    });
  });

  describe('ratings', () => {
    it('sets and clears ratings; refuses bad values', async () => {
      await both(h.app, 'setRating', { id: albumIds[2]!, rating: 4 }, { auth: asAlice });
      await ok(h.app, 'setRating', { id: songIds[3]!, rating: 5 }, { auth: asAlice });
      expect((await ok(h.app, 'getAlbum', { id: albumIds[2]! }, { auth: asAlice })).album.userRating).toBe(4);
      expect((await ok(h.app, 'getSong', { id: songIds[3]! }, { auth: asAlice })).song.userRating).toBe(5);
      const highest = (await ok(h.app, 'getAlbumList2', { type: 'highest' }, { auth: asAlice })).albumList2.album;
      expect(ids(highest)).toEqual([albumIds[2]]);
      await ok(h.app, 'setRating', { id: songIds[3]!, rating: 0 }, { auth: asAlice });
      expect((await ok(h.app, 'getSong', { id: songIds[3]! }, { auth: asAlice })).song.userRating).toBeUndefined();
      await fails(h.app, 'setRating', { id: songIds[3]!, rating: 6 }, 0, { auth: asAlice });
      await fails(h.app, 'setRating', { id: songIds[3]!, rating: 'five' }, 0, { auth: asAlice });
      await fails(h.app, 'setRating', { id: songIds[3]! }, 10, { auth: asAlice });
      await fails(h.app, 'setRating', { rating: 3 }, 10, { auth: asAlice });
      await fails(h.app, 'setRating', { id: 'al-00000000000000000000', rating: 3 }, 70, { auth: asAlice });
    });
  });

  describe('scrobbles and now playing', () => {
    it('records several plays with their times; counts show per user and in frequent/recent lists', async () => {
      const t1 = Date.UTC(2024, 0, 2, 3, 4, 5);
      const t2 = t1 + 60_000;
      await ok(h.app, 'scrobble', { id: [songIds[4]!, songIds[5]!], time: [t1, t2], submission: true }, { auth: asAlice });
      await ok(h.app, 'scrobble', { id: songIds[4]! }, { auth: asAlice });
      const s4 = (await ok(h.app, 'getSong', { id: songIds[4]! }, { auth: asAlice })).song;
      expect(s4.playCount).toBe(2);
      expect(new Date(s4.played).getTime()).toBeGreaterThan(t2);
      const s5 = (await ok(h.app, 'getSong', { id: songIds[5]! }, { auth: asAlice })).song;
      expect(s5.played).toBe(new Date(t2).toISOString());
      expect((await ok(h.app, 'getSong', { id: songIds[4]! }, { auth: asAdmin })).song.playCount).toBe(0);
      const frequent = (await ok(h.app, 'getAlbumList2', { type: 'frequent' }, { auth: asAlice })).albumList2.album;
      expect(frequent.length).toBeGreaterThan(0);
      const recent = (await ok(h.app, 'getAlbumList2', { type: 'recent' }, { auth: asAlice })).albumList2.album;
      expect(ids(recent)).toEqual(expect.arrayContaining([h.rt.library.catalog.tracks.get(songIds[4]!)!.albumId]));
      const logged = await h.rt.store.collection('play_log').countDocuments({ trackId: { $in: [songIds[4]!, songIds[5]!] } });
      expect(logged).toBe(3);
    });

    it('submission=false sets now playing (with the client name) and counts no play', async () => {
      await ok(h.app, 'scrobble', { id: songIds[0]!, submission: false }, { auth: asAlice, base: { v: '1.16.1', c: 'Phone Player' } });
      const np = (await both(h.app, 'getNowPlaying', {}, { auth: asAdmin })).nowPlaying.entry;
      expect(np).toHaveLength(1);
      expect(np[0]).toMatchObject({ id: songIds[0], username: ALICE.username, minutesAgo: 0, playerName: 'Phone Player' });
      expect(Number.isInteger(np[0].playerId)).toBe(true);
      expect((await ok(h.app, 'getSong', { id: songIds[0]! }, { auth: asAlice })).song.playCount).toBe(0);
    });

    it('refuses a scrobble with an unknown id before recording any, mismatched times, or no id', async () => {
      const before = await h.rt.store.collection('play_log').countDocuments({});
      await fails(h.app, 'scrobble', { id: [songIds[1]!, '0123456789abcdef01234567'] }, 70, { auth: asAlice });
      expect(await h.rt.store.collection('play_log').countDocuments({})).toBe(before);
      await fails(h.app, 'scrobble', { id: [songIds[1]!, songIds[2]!], time: [1] }, 0, { auth: asAlice });
      await fails(h.app, 'scrobble', {}, 10, { auth: asAlice });
      await fails(h.app, 'scrobble', { id: songIds[1]!, submission: 'perhaps' }, 0, { auth: asAlice });
    });
  });

  describe('bookmarks', () => {
    it('creates, lists, updates and deletes bookmarks per user', async () => {
      await ok(h.app, 'createBookmark', { id: songIds[1]!, position: 12_345, comment: '第二章 — chapter 2' }, { auth: asAlice });
      await ok(h.app, 'createBookmark', { id: songIds[2]!, position: 0 }, { auth: asAlice });
      const list = (await both(h.app, 'getBookmarks', {}, { auth: asAlice })).bookmarks.bookmark;
      expect(list).toHaveLength(2);
      const b1 = list.find((b: any) => b.entry.id === songIds[1])!;
      expect(b1).toMatchObject({ position: 12_345, username: ALICE.username, comment: '第二章 — chapter 2' });
      await ok(h.app, 'createBookmark', { id: songIds[1]!, position: 99 }, { auth: asAlice });
      const updated = (await ok(h.app, 'getBookmarks', {}, { auth: asAlice })).bookmarks.bookmark;
      expect(updated).toHaveLength(2);
      expect(updated.find((b: any) => b.entry.id === songIds[1]).position).toBe(99);
      expect((await ok(h.app, 'getBookmarks', {}, { auth: asAdmin })).bookmarks.bookmark).toEqual([]);
      await ok(h.app, 'deleteBookmark', { id: songIds[1]! }, { auth: asAlice });
      expect(ids((await ok(h.app, 'getBookmarks', {}, { auth: asAlice })).bookmarks.bookmark.map((b: any) => b.entry))).toEqual([songIds[2]]);
      await fails(h.app, 'deleteBookmark', { id: songIds[1]! }, 70, { auth: asAlice });
      await fails(h.app, 'createBookmark', { id: '0123456789abcdef01234567', position: 1 }, 70, { auth: asAlice });
      await fails(h.app, 'createBookmark', { id: songIds[1]! }, 10, { auth: asAlice });
      await fails(h.app, 'createBookmark', { id: songIds[1]!, position: -5 }, 0, { auth: asAlice });
    });
  });

  describe('play queues', () => {
    it('saves and restores a queue by song id, per user; an empty save clears it', async () => {
      expect((await ok(h.app, 'getPlayQueue', {}, { auth: asAlice })).playQueue).toBeUndefined();
      const queue = [songIds[3]!, songIds[1]!, songIds[2]!];
      await ok(h.app, 'savePlayQueue', { id: queue, current: songIds[1]!, position: 4200 }, { auth: asAlice, base: { v: '1.16.1', c: 'Car' } });
      const q = (await both(h.app, 'getPlayQueue', {}, { auth: asAlice })).playQueue;
      expect(ids(q.entry)).toEqual(queue);
      expect(q).toMatchObject({ current: songIds[1], position: 4200, username: ALICE.username, changedBy: 'Car' });
      const byIndex = (await both(h.app, 'getPlayQueueByIndex', {}, { auth: asAlice })).playQueueByIndex;
      expect(byIndex).toMatchObject({ currentIndex: 1, position: 4200, username: ALICE.username });
      expect(ids(byIndex.entry)).toEqual(queue);
      expect((await ok(h.app, 'getPlayQueue', {}, { auth: asAdmin })).playQueue).toBeUndefined();
      await fails(h.app, 'savePlayQueue', { id: queue, current: songIds[5]! }, 0, { auth: asAlice });
      await fails(h.app, 'savePlayQueue', { id: ['0123456789abcdef01234567'] }, 70, { auth: asAlice });
      await ok(h.app, 'savePlayQueue', {}, { auth: asAlice });
      expect((await ok(h.app, 'getPlayQueue', {}, { auth: asAlice })).playQueue).toBeUndefined();
    });

    it('saves by index (OpenSubsonic indexBasedQueue): 10 for a missing or out-of-range index', async () => {
      const queue = [songIds[0]!, songIds[4]!, songIds[5]!];
      await ok(h.app, 'savePlayQueueByIndex', { id: queue, currentIndex: 2, position: 10 }, { auth: asAlice, post: true });
      const q = (await ok(h.app, 'getPlayQueueByIndex', {}, { auth: asAlice })).playQueueByIndex;
      expect(q).toMatchObject({ currentIndex: 2, position: 10 });
      expect((await ok(h.app, 'getPlayQueue', {}, { auth: asAlice })).playQueue.current).toBe(songIds[5]);
      await fails(h.app, 'savePlayQueueByIndex', { id: queue, currentIndex: 3 }, 10, { auth: asAlice });
      await fails(h.app, 'savePlayQueueByIndex', { id: queue, currentIndex: -1 }, 10, { auth: asAlice });
      await fails(h.app, 'savePlayQueueByIndex', { id: queue }, 10, { auth: asAlice });
      await ok(h.app, 'savePlayQueueByIndex', {}, { auth: asAlice });
      expect((await ok(h.app, 'getPlayQueueByIndex', {}, { auth: asAlice })).playQueueByIndex).toBeUndefined();
      const r = await rest(h.app, 'getPlayQueueByIndex', {}, { auth: asAlice });
      expect(r.body).toMatch(/openSubsonic="true"\/>$/);
    });
  });
});
