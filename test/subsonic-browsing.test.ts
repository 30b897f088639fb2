/**
 * Browsing, lists and search over the scanned small library, in JSON and XML (same tree), every
 * answer validated against the OpenSubsonic schemas: folders, indexes, directories, genres, ID3
 * artists/albums/songs, info, similar/top songs, every album-list type, random songs, songs by
 * genre/artist, starred, search2/3 (CJK, empty query, paging edges), getDiscover, not-found ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fold, searchFold } from '@tagsonic/core/library';
import { Type } from 'typebox';
import { asAlice, both, fails, ok, rest, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';
import { AlbumID3, ArtistID3, Child, check } from './subsonic-schemas.ts';

const ids = (xs: Array<{ id: string }> | undefined) => (xs ?? []).map((x) => x.id);

describe('subsonic browsing, lists and search', () => {
  let h: SubsonicHarness;
  let tracks: number;
  let albums: number;
  let artists: number;
  beforeAll(async () => {
    h = await startSubsonic();
    tracks = h.rt.library.catalog.tracks.size;
    albums = h.rt.library.catalog.albums.size;
    // Album artists: those who only appear on others' albums are not indexed (test/subsonic-artists.test.ts).
    artists = new Set([...h.rt.library.catalog.albums.values()].flatMap((a) => a.artistIds)).size;
    expect(tracks).toBeGreaterThan(30);
  });
  afterAll(() => h?.close());

  const catalog = () => h.rt.library.catalog;
  const anAlbum = () => [...catalog().albums.values()].sort((a, b) => b.songCount - a.songCount)[0]!;
  const anArtist = () => [...catalog().artists.values()].sort((a, b) => b.albumCount - a.albumCount || b.songCount - a.songCount)[0]!;

  describe('folders and indexes', () => {
    it('lists the music folders', async () => {
      const r = await both(h.app, 'getMusicFolders');
      expect(r.musicFolders.musicFolder).toEqual([
        { id: 1, name: 'media' },
        { id: 2, name: 'download' },
        { id: 3, name: 'webdav' },
      ]);
    });

    it('indexes every artist under its letter, with lastModified and ifModifiedSince', async () => {
      const r = await both(h.app, 'getIndexes');
      const all = r.indexes.index.flatMap((g: any) => g.artist);
      expect(all).toHaveLength(artists);
      expect(r.indexes.ignoredArticles).toBe('The An A Die Das Ein Eine Les Le La');
      expect(r.indexes.lastModified).toBeGreaterThan(0);
      const unchanged = await ok(h.app, 'getIndexes', { ifModifiedSince: r.indexes.lastModified });
      expect(unchanged.indexes.index).toEqual([]);
      expect(unchanged.indexes.lastModified).toBe(r.indexes.lastModified);
      const changed = await ok(h.app, 'getIndexes', { ifModifiedSince: r.indexes.lastModified - 1 });
      expect(changed.indexes.index.flatMap((g: any) => g.artist)).toHaveLength(artists);
      const media = await ok(h.app, 'getIndexes', { musicFolderId: 1 });
      expect(media.indexes.index.flatMap((g: any) => g.artist)).toHaveLength(artists);
      const download = await ok(h.app, 'getIndexes', { musicFolderId: 2 });
      expect(download.indexes.index).toEqual([]);
      await fails(h.app, 'getIndexes', { musicFolderId: 9 }, 70);
      await fails(h.app, 'getIndexes', { musicFolderId: 'x' }, 0);
    });

    it('walks the folder tree from a music folder down to songs', async () => {
      const top = await both(h.app, 'getMusicDirectory', { id: 1 });
      expect(top.directory.name).toBe('media');
      const folders = top.directory.child.filter((c: any) => c.isDir);
      expect(folders.length).toBeGreaterThan(0);
      let seen = 0;
      const walk = async (id: string, depth: number): Promise<void> => {
        const d = (await ok(h.app, 'getMusicDirectory', { id })).directory;
        expect(d.id).toBe(id);
        for (const c of d.child) {
          if (c.isDir) {
            expect(c.parent).toBe(id);
            if (depth < 4) await walk(c.id, depth + 1);
          } else {
            seen++;
            expect(c.parent).toBe(id);
          }
        }
      };
      for (const f of folders) await walk(f.id, 1);
      expect(seen + top.directory.child.filter((c: any) => !c.isDir).length).toBe(tracks);
    });

    it('browses an artist as a folder of albums and an album as a folder of songs', async () => {
      const artist = anArtist();
      const d = await both(h.app, 'getMusicDirectory', { id: artist._id });
      expect(d.directory.name).toBe(artist.name);
      expect(d.directory.child.every((c: any) => c.isDir)).toBe(true);
      const album = await ok(h.app, 'getMusicDirectory', { id: d.directory.child[0].id });
      expect(album.directory.child.length).toBeGreaterThan(0);
      expect(album.directory.child.every((c: any) => !c.isDir && c.parent === d.directory.child[0].id)).toBe(true);
    });

    it('answers 70 for unknown directory ids and 10 without an id', async () => {
      await fails(h.app, 'getMusicDirectory', { id: 'fo-00000000000000000000' }, 70);
      await fails(h.app, 'getMusicDirectory', { id: 'nonsense' }, 70);
      await fails(h.app, 'getMusicDirectory', {}, 10);
      const x = await rest(h.app, 'getMusicDirectory', { id: 'nonsense' });
      expect(x.body).toMatch(/<error code="70" message="[^"]+"\/>/);
    });
  });

  describe('genres', () => {
    it('lists genres with counts in the three orders', async () => {
      const az = (await both(h.app, 'getGenres')).genres.genre;
      expect(az.length).toBe(catalog().genres.size);
      expect(az.map((g: any) => fold(g.value))).toEqual([...az.map((g: any) => fold(g.value))].sort());
      const byAlbums = (await ok(h.app, 'getGenres', { type: 'most-albums' })).genres.genre;
      expect(byAlbums.map((g: any) => g.albumCount)).toEqual([...byAlbums.map((g: any) => g.albumCount)].sort((a: number, b: number) => b - a));
      const byTracks = (await ok(h.app, 'getGenres', { type: 'most_tracks' })).genres.genre;
      expect(byTracks.map((g: any) => g.songCount)).toEqual([...byTracks.map((g: any) => g.songCount)].sort((a: number, b: number) => b - a));
      await fails(h.app, 'getGenres', { type: 'loudest' }, 0);
    });
  });

  describe('ID3 browsing', () => {
    it('getArtists groups every artist; the spec type/size/offset/search page them', async () => {
      const all = (await both(h.app, 'getArtists')).artists;
      const flat = all.index.flatMap((g: any) => g.artist);
      expect(flat).toHaveLength(artists);
      const pages: any[] = [];
      for (let offset = 0; ; offset += 7) {
        const page = (await ok(h.app, 'getArtists', { type: 'a-z', size: 7, offset })).artists.index.flatMap((g: any) => g.artist);
        if (page.length === 0) break;
        pages.push(...page);
      }
      expect(ids(pages)).toEqual(ids(flat));
      const most = (await ok(h.app, 'getArtists', { type: 'most-albums', size: 500 })).artists.index.flatMap((g: any) => g.artist);
      expect(most.map((a: any) => a.albumCount)).toEqual([...most.map((a: any) => a.albumCount)].sort((a: number, b: number) => b - a));
      const lessCover = (await ok(h.app, 'getArtists', { type: 'less_cover', size: 500 })).artists.index.flatMap((g: any) => g.artist);
      expect(lessCover).toHaveLength(artists);
      const name = anArtist().name;
      const found = (await ok(h.app, 'getArtists', { search: name.slice(0, 2) })).artists.index.flatMap((g: any) => g.artist);
      expect(found.map((a: any) => a.name)).toContain(name);
      const past = (await ok(h.app, 'getArtists', { size: 10, offset: 10_000 })).artists.index;
      expect(past).toEqual([]);
      await fails(h.app, 'getArtists', { type: 'by-mood' }, 0);
    });

    it('getArtist lists albums newest first; getAlbum lists songs in disc/track order', async () => {
      const artist = anArtist();
      const a = (await both(h.app, 'getArtist', { id: artist._id })).artist;
      expect(a.name).toBe(artist.name);
      expect(a.album.length).toBe(artist.albumCount);
      const years = a.album.map((x: any) => x.year ?? 0);
      expect(years).toEqual([...years].sort((x: number, y: number) => y - x));
      const album = anAlbum();
      const b = (await both(h.app, 'getAlbum', { id: album._id })).album;
      expect(b.name).toBe(album.name);
      expect(b.songCount).toBe(album.songCount);
      expect(b.song).toHaveLength(album.songCount);
      const order = b.song.map((s: any) => (s.discNumber ?? 1) * 1000 + (s.track ?? 0));
      expect(order).toEqual([...order].sort((x: number, y: number) => x - y));
      expect(b.song.every((s: any) => s.albumId === album._id && s.mediaType === 'song' && s.type === 'music')).toBe(true);
      await fails(h.app, 'getArtist', { id: 'ar-00000000000000000000' }, 70);
      await fails(h.app, 'getAlbum', { id: 'al-00000000000000000000' }, 70);
      await fails(h.app, 'getArtist', {}, 10);
      await fails(h.app, 'getAlbum', {}, 10);
    });

    it('getSong shows the OpenSubsonic fields and integer durations', async () => {
      const track = [...catalog().tracks.values()].find((t) => t.genres.length > 0 && t.artists.length > 0)!;
      const s = (await both(h.app, 'getSong', { id: track._id })).song;
      expect(s.id).toBe(track._id);
      expect(s.title).toBe(track.title);
      expect(Number.isInteger(s.duration)).toBe(true);
      expect(s.duration).toBe(Math.round(track.duration));
      expect(s.genres).toEqual(track.genres.map((name) => ({ name })));
      expect(s.artists.map((a: any) => a.name)).toEqual(track.artists);
      expect(s.displayArtist).toBe(track.artist);
      expect(typeof s.comment).toBe('string');
      expect(s.path).toBe(track.relPath);
      await fails(h.app, 'getSong', { id: '0123456789abcdef01234567' }, 70);
    });

    it('artist and album info carry image URLs, notes and similar artists from the library', async () => {
      const artist = anArtist();
      const info2 = (await both(h.app, 'getArtistInfo2', { id: artist._id })).artistInfo2;
      expect(info2.largeImageUrl).toMatch(new RegExp(`/rest/getCoverArt\\.view\\?id=${artist._id}&size=600$`));
      for (const s of info2.similarArtist ?? []) expect(s.id).not.toBe(artist._id);
      const info = (await both(h.app, 'getArtistInfo', { id: artist._id, count: 1 })).artistInfo;
      expect((info.similarArtist ?? []).length).toBeLessThanOrEqual(1);
      const x = await rest(h.app, 'getArtistInfo2', { id: artist._id });
      expect(x.body).toMatch(/<artistInfo2><smallImageUrl>http:\/\/[^<]+<\/smallImageUrl><mediumImageUrl>/);
      const album = [...catalog().albums.values()].find((a) => a.comment) ?? anAlbum();
      const ai = (await both(h.app, 'getAlbumInfo2', { id: album._id })).albumInfo;
      if (album.comment) expect(ai.notes).toBe(album.comment);
      expect(ai.smallImageUrl).toContain(`id=${album._id}`);
      await both(h.app, 'getAlbumInfo', { id: album._id });
      await fails(h.app, 'getArtistInfo2', { id: 'ar-00000000000000000000' }, 70);
      await fails(h.app, 'getAlbumInfo', { id: 'al-00000000000000000000' }, 70);
    });

    it('similar songs leave the seed out; top songs belong to the artist', async () => {
      const album = anAlbum();
      const own = new Set([...catalog().tracks.values()].filter((t) => t.albumId === album._id).map((t) => t._id));
      const sim = (await ok(h.app, 'getSimilarSongs2', { id: album._id, count: 5 })).similarSongs2.song;
      expect(sim.length).toBeLessThanOrEqual(5);
      for (const s of sim) expect(own.has(s.id)).toBe(false);
      const song = [...own][0]!;
      const sim1 = (await ok(h.app, 'getSimilarSongs', { id: song })).similarSongs.song;
      expect(ids(sim1)).not.toContain(song);
      const artist = anArtist();
      const top = (await both(h.app, 'getTopSongs', { artist: artist.name, count: 3 })).topSongs.song;
      expect(top.length).toBe(Math.min(3, artist.songCount));
      const byId = (await ok(h.app, 'getTopSongs', { artist: artist._id, count: 3 })).topSongs.song;
      expect(ids(byId)).toEqual(ids(top));
      expect((await ok(h.app, 'getTopSongs', { artist: 'Nobody At All 123' })).topSongs.song).toEqual([]);
      await fails(h.app, 'getTopSongs', {}, 10);
      await fails(h.app, 'getSimilarSongs', { id: 'nonsense' }, 70);
    });
  });

  describe('album lists', () => {
    it('pages alphabeticalByName over every album without gaps or repeats', async () => {
      const seen: string[] = [];
      for (let offset = 0; ; offset += 4) {
        const page = (await ok(h.app, 'getAlbumList2', { type: 'alphabeticalByName', size: 4, offset })).albumList2.album;
        if (page.length === 0) break;
        seen.push(...ids(page));
      }
      expect(seen).toHaveLength(albums);
      expect(new Set(seen).size).toBe(albums);
    });

    it('answers every standard type and the spec extensions, in both APIs', async () => {
      const album = anAlbum();
      const artist = anArtist();
      const genre = [...catalog().genres.values()][0]!.name;
      const years = [...catalog().albums.values()].map((a) => a.year).filter((y): y is number => y !== null);
      const cases: Array<[string, Record<string, string | number>]> = [
        ['random', {}],
        ['newest', {}],
        ['highest', {}],
        ['frequent', {}],
        ['recent', {}],
        ['alphabeticalByName', {}],
        ['alphabeticalByArtist', {}],
        ['starred', {}],
        ['byYear', { fromYear: Math.max(...years), toYear: Math.min(...years) }],
        ['byGenre', { genre }],
        ['less_cover', {}],
        ['search', { search: album.name }],
        ['byArtist', { artist_id: artist._id }],
      ];
      for (const [type, extra] of cases) {
        const two = (await ok(h.app, 'getAlbumList2', { type, size: 500, ...extra })).albumList2.album;
        const one = (await ok(h.app, 'getAlbumList', { type, size: 500, ...extra })).albumList.album;
        expect(one.length, type).toBe(two.length);
        if (type !== 'random') expect(ids(one), type).toEqual(ids(two));
        if (type === 'byYear') {
          const ys = two.map((a: any) => a.year);
          expect(ys).toEqual([...ys].sort((a: number, b: number) => b - a));
        }
        if (type === 'search') expect(ids(two)).toContain(album._id);
        if (type === 'byArtist') expect(two).toHaveLength(artist.albumCount);
        if (type === 'byGenre') expect(two.every((a: any) => a.genres.some((g: any) => fold(g.name) === fold(genre)))).toBe(true);
        if (['newest', 'alphabeticalByName', 'alphabeticalByArtist', 'less_cover', 'random'].includes(type)) expect(two, type).toHaveLength(albums);
        if (['highest', 'frequent', 'recent', 'starred'].includes(type)) expect(two, type).toEqual([]);
        for (const a of one) expect(a.isDir).toBe(true);
      }
      expect((await ok(h.app, 'getAlbumList2', { type: 'newest' })).albumList2.album).toHaveLength(Math.min(10, albums));
      await both(h.app, 'getAlbumList2', { type: 'alphabeticalByArtist', size: 3, offset: 2 });
      await both(h.app, 'getAlbumList', { type: 'newest', size: 2 });
    });

    it('refuses bad or incomplete album-list requests', async () => {
      await fails(h.app, 'getAlbumList2', {}, 10);
      await fails(h.app, 'getAlbumList2', { type: 'loudest' }, 0);
      await fails(h.app, 'getAlbumList2', { type: 'byYear', fromYear: 1990 }, 10);
      await fails(h.app, 'getAlbumList2', { type: 'byGenre' }, 10);
      await fails(h.app, 'getAlbumList2', { type: 'byArtist' }, 10);
      await fails(h.app, 'getAlbumList2', { type: 'byArtist', artist_id: 'ar-00000000000000000000' }, 70);
      await fails(h.app, 'getAlbumList2', { type: 'newest', size: 'ten' }, 0);
      expect((await ok(h.app, 'getAlbumList2', { type: 'newest', size: 0 })).albumList2.album).toEqual([]);
      expect((await ok(h.app, 'getAlbumList2', { type: 'newest', offset: 100_000 })).albumList2.album).toEqual([]);
      expect((await ok(h.app, 'getAlbumList2', { type: 'newest', size: 100_000 })).albumList2.album).toHaveLength(albums);
    });
  });

  describe('songs', () => {
    it('random songs default to 200 (the spec) and honour size, genre and years', async () => {
      const all = (await ok(h.app, 'getRandomSongs')).randomSongs.song;
      expect(all).toHaveLength(Math.min(200, tracks));
      expect(new Set(ids(all)).size).toBe(all.length);
      expect((await ok(h.app, 'getRandomSongs', { size: 8 })).randomSongs.song).toHaveLength(8);
      const genre = [...catalog().genres.values()].sort((a, b) => b.songCount - a.songCount)[0]!;
      const g = (await ok(h.app, 'getRandomSongs', { size: 500, genre: genre.name })).randomSongs.song;
      expect(g).toHaveLength(genre.songCount);
      const y = (await ok(h.app, 'getRandomSongs', { size: 500, fromYear: 2000, toYear: 2010 })).randomSongs.song;
      for (const s of y) expect(s.year >= 2000 && s.year <= 2010).toBe(true);
    });

    it('songs by genre page; the spec artist_id and search narrow them', async () => {
      const genre = [...catalog().genres.values()].sort((a, b) => b.songCount - a.songCount)[0]!;
      const first = (await both(h.app, 'getSongsByGenre', { genre: genre.name, count: 2 })).songsByGenre.song;
      const second = (await ok(h.app, 'getSongsByGenre', { genre: genre.name, count: 2, offset: 2 })).songsByGenre.song;
      expect(first).toHaveLength(Math.min(2, genre.songCount));
      for (const s of second) expect(ids(first)).not.toContain(s.id);
      const artist = anArtist();
      const byArtist = (await ok(h.app, 'getSongsByGenre', { artist_id: artist._id, count: 500 })).songsByGenre.song;
      expect(byArtist).toHaveLength(artist.songCount);
      const title = byArtist[0].title as string;
      const searched = (await ok(h.app, 'getSongsByGenre', { artist_id: artist._id, search: title, count: 500 })).songsByGenre.song;
      expect(searched.map((s: any) => s.title)).toContain(title);
      expect(searched.length).toBeLessThanOrEqual(byArtist.length);
      expect((await ok(h.app, 'getSongsByGenre', { genre: 'No Such Genre' })).songsByGenre.song).toEqual([]);
      await fails(h.app, 'getSongsByGenre', {}, 10);
      await fails(h.app, 'getSongsByGenre', { artist_id: 'ar-00000000000000000000' }, 70);
    });
  });

  describe('search', () => {
    it('an empty query pages the whole library (search3 and search2)', async () => {
      const seen = new Set<string>();
      for (let offset = 0; ; offset += 9) {
        const r = (await ok(h.app, 'search3', { query: '', songCount: 9, songOffset: offset, artistCount: 0, albumCount: 0 })).searchResult3;
        if (!r.song.length) break;
        for (const s of r.song) seen.add(s.id);
      }
      expect(seen.size).toBe(tracks);
      const quoted = (await ok(h.app, 'search3', { query: '""', artistCount: 500, albumCount: 500, songCount: 500 })).searchResult3;
      // Search finds every artist, featured-only ones included.
      expect(quoted.artist).toHaveLength(h.rt.library.catalog.artists.size);
      expect(quoted.album).toHaveLength(albums);
      expect(quoted.song).toHaveLength(tracks);
      const absent = (await ok(h.app, 'search2', { songCount: 500, artistCount: 500, albumCount: 500 })).searchResult2;
      expect(absent.song).toHaveLength(tracks);
      expect(absent.album.every((a: any) => a.isDir)).toBe(true);
    });

    it('finds CJK titles by a substring, case- and width-insensitively, in both APIs', async () => {
      const cjk = [...catalog().tracks.values()].find((t) => /[\u4e00-\u9fff]{3,}/.test(t.title))!;
      expect(cjk).toBeDefined();
      const part = /[\u4e00-\u9fff]{2}/.exec(cjk.title)![0];
      const r3 = (await both(h.app, 'search3', { query: part, songCount: 500 })).searchResult3;
      expect(ids(r3.song)).toContain(cjk._id);
      // Search folds simplified and traditional Chinese too: "再见" finds "再見青春".
      for (const s of r3.song) expect(searchFold(`${s.title} ${s.artist} ${s.album} ${s.displayAlbumArtist}`)).toContain(searchFold(part));
      const r2 = (await both(h.app, 'search2', { query: part, songCount: 500 })).searchResult2;
      expect(ids(r2.song)).toEqual(ids(r3.song));
      const latin = [...catalog().tracks.values()].find((t) => /^[A-Za-z ]{6,}$/.test(t.title))!;
      const wide = latin.title.slice(0, 4).toUpperCase().replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
      const r = (await ok(h.app, 'search3', { query: wide, songCount: 500 })).searchResult3;
      expect(ids(r.song)).toContain(latin._id);
    });

    it('pages each kind separately and stops past the end', async () => {
      const a = (await ok(h.app, 'search3', { query: '', artistCount: 2, artistOffset: 1, albumCount: 1, songCount: 0 })).searchResult3;
      expect(a.artist).toHaveLength(2);
      expect(a.album).toHaveLength(1);
      expect(a.song).toEqual([]);
      const past = (await ok(h.app, 'search3', { query: '', artistOffset: 10_000, albumOffset: 10_000, songOffset: 10_000 })).searchResult3;
      expect(past).toEqual({ artist: [], album: [], song: [] });
      expect((await ok(h.app, 'search3', { query: 'zzqqxxnothing' })).searchResult3).toEqual({ artist: [], album: [], song: [] });
      await fails(h.app, 'search3', { query: '', songCount: -1.5 }, 0);
      await fails(h.app, 'search3', { query: '', musicFolderId: 42 }, 70);
    });

    it('the Subsonic 1.0 search is listed as not implemented (HTTP 501, error body)', async () => {
      const res = await rest(h.app, 'search', { any: 'x' }, { format: 'json' });
      expect(res.statusCode).toBe(501);
      const body = res.json()['subsonic-response'];
      expect(body.status).toBe('failed');
      expect(body.error.message).toMatch(/search3/);
    });
  });

  describe('discover', () => {
    it('returns the spec payload with Subsonic-shaped songs and albums', async () => {
      const d = (await ok(h.app, 'getDiscover')).discover;
      expect(Object.keys(d).sort()).toEqual(['album', 'hot_artists', 'hot_track', 'new_albums', 'random_songs', 'recent_plays', 'recommend_albums', 'similar_artists'].sort());
      expect(d.random_songs).toHaveLength(8);
      expect(d.new_albums.length).toBe(Math.min(12, albums));
      check('random_songs', Type.Array(Child), d.random_songs);
      check('recommend_albums', Type.Array(AlbumID3), d.recommend_albums);
      check('similar_artists', Type.Array(ArtistID3), d.similar_artists);
      const NewAlbum = Type.Object(
        {
          ...AlbumID3.properties,
          type: Type.String(),
          created_at: Type.String({ format: 'date-time' }),
          comment: Type.String(),
          rating: Type.Integer({ minimum: 0, maximum: 5 }),
          rating_count: Type.Integer({ minimum: 0 }),
          favourite: Type.Boolean(),
        },
        { additionalProperties: false },
      );
      check('new_albums', Type.Array(NewAlbum), d.new_albums);
      expect(d.hot_track).toBeNull();
      expect(d.hot_artists).toEqual([]);
      expect(d.recent_plays).toEqual([]);
      expect(d.album === null || (typeof d.album.name === 'string' && typeof d.album.cover === 'string')).toBe(true);
    });

    it('after plays, shows the hot track, hot artists and the user’s recent plays', async () => {
      const track = [...catalog().tracks.values()][0]!;
      await ok(h.app, 'scrobble', { id: [track._id, track._id] }, { auth: asAlice });
      const d = (await ok(h.app, 'getDiscover', {}, { auth: asAlice })).discover;
      expect(d.hot_track.id).toBe(track._id);
      expect(d.hot_track.play_count).toBe(2);
      expect(d.hot_artists.map((a: any) => a.id)).toContain(track.artistIds[0]);
      expect(d.recent_plays.map((s: any) => s.id)).toEqual([track._id]);
      expect(d.recent_plays[0].played_at).toMatch(/^\d{4}-/);
      const other = (await ok(h.app, 'getDiscover')).discover;
      expect(other.recent_plays).toEqual([]);
    });
  });
});
