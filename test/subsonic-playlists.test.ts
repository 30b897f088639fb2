/**
 * Playlists over /rest on the scanned small library: the Subsonic calls and the spec's extensions
 * (random, smart rules of every key family, dynamic refresh after marks and rescans, order, filter
 * lists, dedupe, m3u8 export/import round trip), ownership, entries surviving file moves, JSON/XML
 * parity with schemas, and the third-party `subsonic-api` client against a listening server.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type, type TSchema } from 'typebox';
import SubsonicAPI from 'subsonic-api';
import { fold, type TrackDoc } from '@tagsonic/core/library';
import { Scanner } from '@tagsonic/workers/scanner';
import { ADMIN, ALICE, asAlice, both, fails, ok, startSubsonic, xml, type SubsonicHarness } from './subsonic-harness.ts';
import { Child, validateResponse } from './subsonic-schemas.ts';

const strict = (props: Record<string, TSchema>) => Type.Object(props, { additionalProperties: false });
const Opt = Type.Optional;
const playlistProps = {
  id: Type.String(),
  name: Type.String(),
  comment: Opt(Type.String()),
  owner: Opt(Type.String()),
  public: Opt(Type.Boolean()),
  songCount: Type.Integer(),
  duration: Type.Integer(),
  created: Type.String({ format: 'date-time' }),
  changed: Type.String({ format: 'date-time' }),
  coverArt: Opt(Type.String()),
  allowedUser: Opt(Type.Array(Type.String())),
  readonly: Opt(Type.Boolean()),
  validUntil: Opt(Type.String({ format: 'date-time' })),
  // The spec's playlist fields beside Subsonic's.
  isSmart: Type.Boolean(),
  isDynamic: Type.Boolean(),
  privacyLevel: Type.Union([Type.Literal('public'), Type.Literal('private'), Type.Literal('exclude')]),
  conditions: Opt(Type.String()),
  limit: Opt(Type.Integer()),
  orderBy: Opt(Type.String()),
};
const Playlist = strict(playlistProps);
const PLAYLIST_ELEMENTS: Record<string, TSchema> = {
  playlists: strict({ playlist: Type.Array(Playlist) }),
  playlist: strict({ ...playlistProps, entry: Opt(Type.Array(Child)) }),
  playlistExport: strict({ url: Type.String(), fileName: Type.String(), expires: Type.String({ format: 'date-time' }) }),
  playlistImport: strict({
    matched: Type.Integer(),
    unmatchedCount: Type.Integer(),
    playlist: Playlist,
    unmatched: Opt(Type.Array(strict({ line: Type.Integer(), location: Type.String(), reason: Type.String() }))),
  }),
};

describe('subsonic playlists', () => {
  let h: SubsonicHarness;
  const tracks = (): TrackDoc[] => [...h.rt.library.catalog.tracks.values()];
  const byRel = (rel: string): TrackDoc => {
    const t = tracks().find((x) => x.relPath === rel);
    if (!t) throw new Error(`no track ${rel}`);
    return t;
  };
  const songIds = (p: { entry?: Array<{ id: string }> }) => (p.entry ?? []).map((e) => e.id);
  /** A read that must succeed, validated with the playlist schemas, and the same tree in XML. */
  const read = async (method: string, params: Record<string, string | number | boolean | ReadonlyArray<string | number> | undefined> = {}, options: Parameters<typeof ok>[3] = {}) => {
    const body = await both(h.app, method, params, options);
    validateResponse(body, PLAYLIST_ELEMENTS);
    return body;
  };
  /** A change (called once, in JSON) that must succeed, validated with the playlist schemas. */
  const write = async (method: string, params: Record<string, string | number | boolean | ReadonlyArray<string | number> | undefined> = {}, options: Parameters<typeof ok>[3] = {}) => {
    const body = await ok(h.app, method, params, options);
    validateResponse(body, PLAYLIST_ELEMENTS);
    return body;
  };
  const rescan = async () => {
    const scanner = new Scanner({ roots: h.rt.roots, library: h.rt.library.store, catalog: h.rt.library.catalog, bus: h.rt.bus, readerThreads: 1 });
    await scanner.scan();
    await h.rt.library.catalog.sync();
  };
  const smart = (name: string, conditions: unknown, extra: Record<string, string | number> = {}) =>
    write('createPlaylist', { name, conditions: JSON.stringify(conditions), limit: 500, order_by: 'title', ...extra });
  /** Ids sorted by folded title, ties in library order (what order_by=title promises). */
  const titleOrder = (ts: TrackDoc[]) => {
    const keep = new Set(ts.map((t) => t._id));
    const library = h.rt.library.catalog.view().tracks.filter((t) => keep.has(t._id));
    return library
      .map((t, i) => ({ t, i, k: fold(t.title) }))
      .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i))
      .map((x) => x.t._id);
  };

  beforeAll(async () => {
    h = await startSubsonic({ listen: true });
  });
  afterAll(() => h?.close());

  describe('plain playlists', () => {
    it('creates, reads, lists, updates, reorders and deletes, in JSON and XML', async () => {
      const a = byRel('赵长青/爱情里的青春/01 再见远方.mp3');
      const b = byRel('Silver Pines/Velvet Highway/02 Endless Ocean.mp3');
      const c = byRel('林语嫣/时光的晚风/Disc 2/01 晚风.flac');
      const created = (await write('createPlaylist', { name: 'Road trip', songId: [a._id, b._id, c._id, a._id] })).playlist;
      expect(created).toMatchObject({ name: 'Road trip', owner: ADMIN.username, public: false, songCount: 4, readonly: false, isSmart: false, isDynamic: false, privacyLevel: 'private' });
      expect(created.id).toMatch(/^pl-[0-9a-f]{24}$/);
      expect(created.duration).toBe(Math.round(a.duration * 2 + b.duration + c.duration));
      expect(created.coverArt).toBe(a.hasArt ? a._id : a.albumId);
      expect(songIds(created)).toEqual([a._id, b._id, c._id, a._id]);
      expect(created.entry[0]).toMatchObject({ id: a._id, title: a.title, isDir: false });
      const inXml = (await xml(h.app, 'createPlaylist', { name: 'xml list', songId: [a._id] })).playlist[0];
      expect(inXml).toMatchObject({ name: 'xml list', songCount: '1', isSmart: 'false', privacyLevel: 'private' });
      expect(inXml.entry[0].id).toBe(a._id);
      await ok(h.app, 'deletePlaylist', { id: inXml.id });

      await write('updatePlaylist', { playlistId: created.id, name: 'Road trip 2', comment: 'for the car', public: true, songIdToAdd: [b._id], songIndexToRemove: [0, 3] });
      const updated = (await read('getPlaylist', { id: created.id })).playlist;
      expect(updated).toMatchObject({ name: 'Road trip 2', comment: 'for the car', public: true, privacyLevel: 'public', songCount: 3 });
      expect(songIds(updated)).toEqual([b._id, c._id, b._id]);

      await write('updatePlaylistOrder', { id: created.id, oldIndex: 0, newIndex: 2 });
      expect(songIds((await ok(h.app, 'getPlaylist', { id: created.id })).playlist)).toEqual([c._id, b._id, b._id]);
      await write('updatePlaylistOrder', { id: created.id, songId: [b._id, c._id, b._id] });
      expect(songIds((await ok(h.app, 'getPlaylist', { id: created.id })).playlist)).toEqual([b._id, c._id, b._id]);
      expect((await fails(h.app, 'updatePlaylistOrder', { id: created.id, songId: [b._id, c._id] }, 0)).message).toMatch(/exactly the songs/);
      expect((await fails(h.app, 'updatePlaylistOrder', { id: created.id, oldIndex: 0, newIndex: 3 }, 0)).message).toMatch(/newIndex 3 is outside/);
      await fails(h.app, 'updatePlaylistOrder', { id: created.id, oldIndex: 0 }, 10);
      expect((await fails(h.app, 'updatePlaylist', { playlistId: created.id, songIndexToRemove: [7] }, 0)).message).toMatch(/no song at index 7/);

      // createPlaylist with playlistId replaces the songs (and keeps the name when none is given).
      const replaced = (await write('createPlaylist', { playlistId: created.id, songId: [c._id] })).playlist;
      expect(replaced).toMatchObject({ id: created.id, name: 'Road trip 2', songCount: 1 });

      const lists = (await read('getPlaylists')).playlists.playlist;
      expect(lists.map((p: { id: string }) => p.id)).toContain(created.id);
      expect(lists.every((p: { entry?: unknown }) => p.entry === undefined)).toBe(true);

      await write('deletePlaylist', { id: created.id });
      await fails(h.app, 'getPlaylist', { id: created.id }, 70);
      await fails(h.app, 'deletePlaylist', { id: created.id }, 70);
    });

    it('checks names, song ids and parameters', async () => {
      await fails(h.app, 'createPlaylist', { songId: [tracks()[0]!._id] }, 10);
      expect((await fails(h.app, 'createPlaylist', { name: 'x', songId: ['0123456789abcdef01234567'] }, 70)).message).toMatch(/No song/);
      await fails(h.app, 'createPlaylist', { name: '   ' }, 0);
      await fails(h.app, 'getPlaylist', {}, 10);
      await fails(h.app, 'getPlaylist', { id: 'pl-nope' }, 70);
      await fails(h.app, 'updatePlaylist', { name: 'x' }, 10);
      await fails(h.app, 'getPlaylists', {}, 40, { auth: { u: ADMIN.username, p: 'wrong' } });
      const x = await xml(h.app, 'getPlaylist', { id: 'pl-nope' });
      expect(x.error[0].code).toBe('70');
    });

    it('shares public playlists read-only; private ones do not exist for others', async () => {
      const t = tracks()[0]!;
      const mine = (await ok(h.app, 'createPlaylist', { name: 'private', songId: [t._id] })).playlist;
      const pub = (await ok(h.app, 'createPlaylist', { name: 'public', songId: [t._id] })).playlist;
      await ok(h.app, 'updatePlaylist', { playlistId: pub.id, public: true });
      const seen = (await read('getPlaylists', {}, { auth: asAlice })).playlists.playlist;
      expect(seen.map((p: { id: string }) => p.id)).toContain(pub.id);
      expect(seen.map((p: { id: string }) => p.id)).not.toContain(mine.id);
      expect(seen.find((p: { id: string }) => p.id === pub.id)).toMatchObject({ owner: ADMIN.username, readonly: true });
      expect((await read('getPlaylist', { id: pub.id }, { auth: asAlice })).playlist.readonly).toBe(true);
      await fails(h.app, 'getPlaylist', { id: mine.id }, 70, { auth: asAlice });
      expect((await fails(h.app, 'updatePlaylist', { playlistId: pub.id, name: 'mine now' }, 50, { auth: asAlice })).message).toMatch(/Only admin may change/);
      await fails(h.app, 'deletePlaylist', { id: pub.id }, 50, { auth: asAlice });
      await fails(h.app, 'updatePlaylistOrder', { id: pub.id, oldIndex: 0, newIndex: 0 }, 50, { auth: asAlice });
      // An admin may list another user's playlists; a user may not.
      const alicesOwn = (await ok(h.app, 'createPlaylist', { name: 'alice mix', songId: [t._id] }, { auth: asAlice })).playlist;
      const adminView = (await ok(h.app, 'getPlaylists', { username: ALICE.username })).playlists.playlist;
      expect(adminView.map((p: { id: string }) => p.id)).toEqual([alicesOwn.id]);
      await fails(h.app, 'getPlaylists', { username: ADMIN.username }, 50, { auth: asAlice });
      // Sorted a-z on request (the dashboard's tab).
      const az = (await ok(h.app, 'getPlaylists', { type: 'a-z' })).playlists.playlist.map((p: { name: string }) => p.name);
      expect(az).toEqual([...az].sort((x: string, y: string) => x.localeCompare(y)));
    });

    it('keeps entries when their file moves; drops them when it is deleted', async () => {
      const t = byRel('Unsorted/track01.mp3');
      const gone = byRel('Unsorted/录音 2019-03-17.mp3');
      const p = (await ok(h.app, 'createPlaylist', { name: 'moves', songId: [t._id, gone._id] })).playlist;
      await mkdir(path.join(h.rt.config.mediaDir, 'Moved'), { recursive: true });
      await rename(t.path, path.join(h.rt.config.mediaDir, 'Moved', 'track01.mp3'));
      await rm(gone.path);
      await rescan();
      const after = (await ok(h.app, 'getPlaylist', { id: p.id })).playlist;
      expect(songIds(after)).toEqual([t._id]);
      expect(after.entry[0].path).toBe('Moved/track01.mp3');
      // Indexes address what the client sees: removing index 0 removes the moved song.
      await ok(h.app, 'updatePlaylist', { playlistId: p.id, songIndexToRemove: [0] });
      expect(songIds((await ok(h.app, 'getPlaylist', { id: p.id })).playlist)).toEqual([]);
    });
  });

  describe('spec extensions', () => {
    it('getPlaylist id=random gives random songs, never those on the user\'s filter lists', async () => {
      const all = tracks();
      const random = (await write('getPlaylist', { id: 'random', size: 10 })).playlist;
      expect(random).toMatchObject({ id: 'random', songCount: 10, readonly: true });
      expect(new Set(songIds(random)).size).toBe(10);
      const everything = (await ok(h.app, 'getPlaylist', { id: 'random', size: 500 })).playlist;
      expect(everything.songCount).toBe(all.length);

      const excluded = all.slice(0, 5).map((t) => t._id);
      const filter = (await ok(h.app, 'createPlaylist', { name: 'never play', songId: excluded })).playlist;
      await write('updatePlaylistProps', { id: filter.id, props: 'exclude' });
      expect((await ok(h.app, 'getPlaylist', { id: filter.id })).playlist.privacyLevel).toBe('exclude');
      const without = songIds((await ok(h.app, 'getPlaylist', { id: 'random', size: 500 })).playlist);
      expect(without.length).toBe(all.length - 5);
      for (const id of excluded) expect(without).not.toContain(id);
      const randomSongs = (await ok(h.app, 'getRandomSongs', { size: 500 })).randomSongs.song.map((x: { id: string }) => x.id);
      expect(randomSongs.length).toBe(all.length - 5);
      for (const id of excluded) expect(randomSongs).not.toContain(id);
      expect((await ok(h.app, 'getRandomSongs', { size: 3 })).randomSongs.song).toHaveLength(3);
      // Another user's filter lists do not apply to alice.
      expect((await ok(h.app, 'getPlaylist', { id: 'random', size: 500 }, { auth: asAlice })).playlist.songCount).toBe(all.length);
      // Smart playlists leave filtered songs out too.
      const everySong = (await smart('every song', [[{ key: 'duration', operate: 'gte', value: 0 }]])).playlist;
      expect(everySong.songCount).toBe(all.length - 5);
      await ok(h.app, 'updatePlaylistProps', { id: filter.id, props: 'normal' });
      expect((await ok(h.app, 'getPlaylist', { id: 'random', size: 500 })).playlist.songCount).toBe(all.length);
      expect((await fails(h.app, 'updatePlaylistProps', { id: filter.id, props: 'secret' }, 0)).message).toMatch(/Unknown playlist property/);
      await fails(h.app, 'updatePlaylistProps', { id: filter.id }, 10);
    });

    it('duplicatePlaylist removes repeated entries (the menu\'s dedupe)', async () => {
      const [a, b] = tracks();
      const p = (await ok(h.app, 'createPlaylist', { name: 'dupes', songId: [a!._id, b!._id, a!._id, a!._id, b!._id] })).playlist;
      const deduped = (await write('duplicatePlaylist', { id: p.id })).playlist;
      expect(songIds(deduped)).toEqual([a!._id, b!._id]);
      // Others cannot touch it: private playlists do not exist for them, public ones are read-only.
      await fails(h.app, 'duplicatePlaylist', { id: p.id }, 70, { auth: asAlice });
      await ok(h.app, 'updatePlaylist', { playlistId: p.id, public: true });
      await fails(h.app, 'duplicatePlaylist', { id: p.id }, 50, { auth: asAlice });
    });

    it('smart playlists: bool, number and text keys, OR of AND groups, limit and order', async () => {
      const all = tracks();
      const star = byRel('별빛소년/우리의 여름/01 그리운 바다.ogg');
      await ok(h.app, 'star', { id: star._id });
      const fav = (await smart('favourites', [[{ key: 'favourite-track', operate: 'is', value: true }]])).playlist;
      expect(songIds(fav)).toEqual([star._id]);
      expect(fav).toMatchObject({ isSmart: true, isDynamic: false, limit: 500, orderBy: 'title' });
      expect(JSON.parse(fav.conditions)).toEqual([[{ key: 'favourite-track', operate: 'is', value: true }]]);

      const recent = (await smart('2010s', [[{ key: 'year', operate: 'gte', value: '2010' }]])).playlist;
      expect(songIds(recent)).toEqual(titleOrder(all.filter((t) => t.year !== null && t.year >= 2010)));

      const flacOrOgg = (
        await smart('flac or ogg', [
          [{ key: 'file-path', operate: 'endwith', value: '.FLAC' }, { key: 'title', operate: 'not_contain', value: '再' }],
          [{ key: 'file-path', operate: 'endwith', value: '.ogg' }],
        ])
      ).playlist;
      expect(songIds(flacOrOgg)).toEqual(titleOrder(all.filter((t) => (t.suffix === 'flac' && !t.title.includes('再')) || t.suffix === 'ogg')));

      const artist = all.find((t) => t.artists.length > 1)!;
      const byArtist = (await smart('artist', [[{ key: 'artist', operate: 'is', value: artist.artists[1]! }]])).playlist;
      expect(songIds(byArtist)).toContain(artist._id);

      const lyrics = (await smart('lyrics', [[{ key: 'lyrics', operate: 'contain', value: '우리의 여름' }]])).playlist;
      expect(songIds(lyrics)).toContain(byRel('별빛소년/우리의 여름/01 그리운 바다.ogg')._id);

      const limited = (await smart('short', [[{ key: 'duration', operate: 'lte', value: 6 }]], { limit: 3, order_by: 'title' })).playlist;
      expect(songIds(limited)).toEqual(titleOrder(all.filter((t) => t.duration <= 6)).slice(0, 3));
      // The spec's default limit is 25.
      const defaults = (await write('createPlaylist', { name: 'default limit', conditions: JSON.stringify([[{ key: 'bit-rate', operate: 'gte', value: 0 }]]) })).playlist;
      expect(defaults).toMatchObject({ songCount: 25, limit: 25, orderBy: 'random' });

      expect((await fails(h.app, 'createPlaylist', { name: 'bad', conditions: '[[{"key":"mood","operate":"is","value":1}]]' }, 0)).message).toMatch(/unknown key "mood"/);
      expect((await fails(h.app, 'createPlaylist', { name: 'bad', conditions: '[[{"key":"year","operate":"contain","value":1}]]' }, 0)).message).toMatch(/gte, lte, is or not/);
      expect((await fails(h.app, 'createPlaylist', { name: 'bad', conditions: '[[]]', limit: 'ten' }, 0)).message).toMatch(/empty|whole number/);
      await fails(h.app, 'createPlaylist', { conditions: '[[{"key":"year","operate":"is","value":1}]]' }, 10);
    });

    it('dynamic smart playlists re-evaluate on read: after a star, and after a rescan', async () => {
      const song = byRel('ミドリノソラ/夏の終わりに/02 東京の灯.m4a');
      const rule = [[{ key: 'favourite-album', operate: 'is', value: true }]];
      const dynamic = (await smart('starred albums (live)', rule, { is_dynamic: 1 })).playlist;
      const frozen = (await smart('starred albums (snapshot)', rule)).playlist;
      expect(dynamic).toMatchObject({ isDynamic: true, songCount: 0 });
      await ok(h.app, 'star', { albumId: song.albumId });
      const albumSongs = tracks().filter((t) => t.albumId === song.albumId);
      expect((await ok(h.app, 'getPlaylist', { id: dynamic.id })).playlist.songCount).toBe(albumSongs.length);
      expect((await ok(h.app, 'getPlaylist', { id: frozen.id })).playlist.songCount).toBe(0);
      const listed = (await ok(h.app, 'getPlaylists')).playlists.playlist.find((p: { id: string }) => p.id === dynamic.id);
      expect(listed.songCount).toBe(albumSongs.length);
      expect((await fails(h.app, 'updatePlaylist', { playlistId: dynamic.id, songIdToAdd: [song._id] }, 0)).message).toMatch(/filled by its rule/);

      const newcomers = (await smart('new folder', [[{ key: 'file-path', operate: 'contain', value: '/Fresh Arrivals/' }]], { is_dynamic: 'true' })).playlist;
      expect(newcomers.songCount).toBe(0);
      const src = byRel('Silver Pines/Velvet Highway/01 Broken Skyline.mp3');
      await mkdir(path.join(h.rt.config.mediaDir, 'Fresh Arrivals'), { recursive: true });
      await cp(src.path, path.join(h.rt.config.mediaDir, 'Fresh Arrivals', 'copy.mp3'));
      await rescan();
      const refreshed = (await ok(h.app, 'getPlaylist', { id: newcomers.id })).playlist;
      expect(refreshed.songCount).toBe(1);
      expect(refreshed.entry[0].path).toBe('Fresh Arrivals/copy.mp3');
    });

    it('exports an m3u8 through a signed link and imports it back (round trip)', async () => {
      const picks = [byRel('赵长青/爱情里的青春/03 星空与故事.mp3'), byRel('城市漫遊者/致故事/01 再見青春.flac'), byRel('별빛소년/우리의 여름/02 봄날의 기억.ogg')];
      const p = (await ok(h.app, 'createPlaylist', { name: '出口 / export', songId: picks.map((t) => t._id) })).playlist;
      const exported = (await write('exportPlaylist', { id: p.id })).playlistExport;
      expect(exported.fileName).toBe('出口 _ export.m3u8');
      // The link is built from the Host the client used (inject says localhost): point it at the listening port.
      const given = new URL(exported.url);
      expect(given.pathname).toBe('/rest/downloadPlaylist');
      const link = new URL(given.pathname + given.search, h.url).toString();
      const file = await fetch(link);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('audio/x-mpegurl; charset=utf-8');
      expect(file.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('出口 _ export.m3u8')}`);
      const text = await file.text();
      expect(text.split('\n').filter((l) => l && !l.startsWith('#'))).toEqual(picks.map((t) => t.path));
      expect(text).toContain(`#EXTINF:${Math.round(picks[0]!.duration)},${picks[0]!.artist} - ${picks[0]!.title}`);

      // Tampered or expired links are refused (no credentials needed, none accepted).
      const tampered = new URL(link);
      tampered.searchParams.set('id', 'pl-other');
      tampered.searchParams.set('f', 'json');
      const bad = await (await fetch(tampered)).json();
      expect(bad['subsonic-response'].error).toMatchObject({ code: 40 });
      expect(bad['subsonic-response'].error.message).toMatch(/not valid/);
      // A correctly signed link past its time (signed here the way the server signs).
      const expired = new URL(link);
      const key = Buffer.from(hkdfSync('sha256', Buffer.from(h.rt.secrets.jwtKey), Buffer.alloc(0), 'tagsonic playlist export links v1', 32));
      const userId = expired.searchParams.get('u')!;
      expired.searchParams.set('expires', '1000');
      expired.searchParams.set('signature', createHmac('sha256', key).update(`${p.id}\u0000${userId}\u00001000`).digest('base64url'));
      expired.searchParams.set('f', 'json');
      const late = (await (await fetch(expired)).json())['subsonic-response'].error;
      expect(late).toMatchObject({ code: 40, message: 'This export link has expired; export the playlist again.' });

      const imported = (await write('importPlaylist', { playlist: text, name: 'back again' }, { post: true })).playlistImport;
      expect(imported).toMatchObject({ matched: 3, unmatchedCount: 0 });
      expect(songIds((await ok(h.app, 'getPlaylist', { id: imported.playlist.id })).playlist)).toEqual(picks.map((t) => t._id));
      // Without a name, the file's #PLAYLIST line names it.
      expect((await ok(h.app, 'importPlaylist', { playlist: text }, { post: true })).playlistImport.playlist.name).toBe('出口 / export');
    });

    it('imports an uploaded m3u (multipart): BOM, CRLF, relative, Windows and foreign paths; reports what did not match', async () => {
      const rel = byRel('赵长青/爱情里的青春/04 雨季之歌.mp3');
      const win = byRel('Silver Pines/Velvet Highway/03 Silent Ocean.mp3');
      const foreign = byRel('林语嫣/时光的晚风/Disc 2/02 海洋与电台.flac');
      const m3u = [
        '\uFEFF#EXTM3U',
        '#EXTINF:5,whatever',
        rel.relPath,
        'C:\\Users\\me\\Music\\Silver Pines\\Velvet Highway\\03 Silent Ocean.mp3',
        `/home/someone/Music/${foreign.relPath}`,
        'http://radio.example/stream',
        'Missing Artist/missing.mp3',
        '',
      ].join('\r\n');
      const boundary = '----tagsonic-test-boundary';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="Weekend Mix.m3u"\r\nContent-Type: audio/x-mpegurl\r\n\r\n`),
        Buffer.from(m3u),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const q = new URLSearchParams({ u: ADMIN.username, p: ADMIN.subsonic, v: '1.16.1', c: 'vitest', f: 'json' });
      const res = await h.app.inject({ method: 'POST', url: `/rest/importPlaylist?${q}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body });
      const out = res.json()['subsonic-response'];
      expect(out.status, res.body).toBe('ok');
      validateResponse(out, PLAYLIST_ELEMENTS);
      const report = out.playlistImport;
      expect(report).toMatchObject({ matched: 3, unmatchedCount: 2, playlist: { name: 'Weekend Mix', songCount: 3 } });
      expect(report.unmatched).toEqual([
        { line: 6, location: 'http://radio.example/stream', reason: 'remote URL' },
        { line: 7, location: 'Missing Artist/missing.mp3', reason: 'no library file at this path' },
      ]);
      expect(songIds((await ok(h.app, 'getPlaylist', { id: report.playlist.id })).playlist)).toEqual([rel._id, win._id, foreign._id]);

      expect((await fails(h.app, 'importPlaylist', { playlist: '#EXTM3U\nnowhere/x.mp3\n' }, 0, { post: true })).message).toMatch(/None of the 1 entries/);
      expect((await fails(h.app, 'importPlaylist', {}, 0, { post: true })).message).toMatch(/multipart field "file"/);
    });
  });

  describe('third-party client (subsonic-api)', () => {
    it('every playlist and media call the client offers succeeds against a running server', async () => {
      const api = new SubsonicAPI({ url: h.url, auth: { username: ALICE.username, password: ALICE.subsonic } });
      const apiKeyClient = new SubsonicAPI({ url: h.url, auth: { apiKey: h.aliceKey }, post: true });
      const song = byRel('城市漫遊者/致故事/02 春天與回憶.flac');
      for (const client of [api, apiKeyClient]) {
        const created = await client.createPlaylist({ name: 'client list', songId: [song._id] });
        expect(created.status).toBe('ok');
        expect(created.playlist.entry?.[0]?.id).toBe(song._id);
        expect((await client.updatePlaylist({ playlistId: created.playlist.id, comment: 'from the client', songIdToAdd: [song._id], songIndexToRemove: [0] })).status).toBe('ok');
        const got = await client.getPlaylist({ id: created.playlist.id });
        expect(got.playlist).toMatchObject({ comment: 'from the client', songCount: 1 });
        expect((await client.getPlaylists()).playlists.playlist?.some((p) => p.id === created.playlist.id)).toBe(true);
        expect((await client.deletePlaylist({ id: created.playlist.id })).status).toBe('ok');

        const stream = await client.stream({ id: song._id, format: 'mp3', maxBitRate: 128 });
        expect(stream.status).toBe(200);
        expect(stream.headers.get('content-type')).toBe('audio/mpeg');
        expect((await stream.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
        const raw = await client.download({ id: song._id });
        expect(raw.status).toBe(200);
        expect((await raw.arrayBuffer()).byteLength).toBe(song.size);
        const cover = await client.getCoverArt({ id: song.albumId, size: 64 });
        expect(cover.headers.get('content-type')).toBe('image/jpeg');
        await cover.arrayBuffer();
        const avatar = await client.getAvatar({ username: ALICE.username });
        expect(avatar.headers.get('content-type')).toBe('image/png');
        await avatar.arrayBuffer();
        const lyrics = await client.getLyricsBySongId({ id: song._id });
        // subsonic-api types lyricsList as the array itself; the wire (and OpenSubsonic) nest it under structuredLyrics.
        const list = lyrics.lyricsList as unknown as { structuredLyrics?: Array<{ synced: boolean }> };
        expect(list.structuredLyrics?.[0]?.synced).toBe(true);
        expect((await client.getLyrics({ artist: song.artist, title: song.title })).lyrics.value?.length).toBeGreaterThan(0);
      }
    });
  });

});
