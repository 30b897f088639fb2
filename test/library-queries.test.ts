/**
 * The library query service and annotations over the scanned small library: every query the Subsonic
 * API and the dashboard need, paging edges, CJK and empty searches, per-user marks.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALBUM_LIST_TYPES,
  Catalog,
  LibraryStore,
  VARIOUS_ARTISTS,
  albumIdFor,
  artistIdFor,
  fold,
  orderKey,
  type AlbumView,
  type SongView,
} from '@tagsonic/core/library';
import { audioFiles, libraryEnv, type LibraryEnv } from './library-env.ts';

const ids = (xs: Array<{ id: string }>) => xs.map((x) => x.id);

describe('library queries', () => {
  let env: LibraryEnv;
  let tracks: number;
  const u1 = 'user-1';
  const u2 = 'user-2';

  beforeAll(async () => {
    env = await libraryEnv();
    await env.scanner.scan();
    tracks = env.library.catalog.tracks.size;
  });
  afterAll(() => env?.close());

  const q = () => env.library.queries;
  const a = () => env.library.annotations;
  const albumNamed = (name: string) => [...env.library.catalog.albums.values()].find((x) => x.name === name)!;
  const trackFile = (rel: string) => [...env.library.catalog.tracks.values()].find((t) => t.relPath === rel)!;

  describe('browsing', () => {
    it('lists the music folders in a fixed order', async () => {
      expect(await q().musicFolders()).toEqual([
        { id: 1, name: 'media', path: env.media },
        { id: 2, name: 'download', path: env.download },
      ]);
    });

    it('groups artists by index letter with articles ignored and Chinese by pinyin', async () => {
      const idx = await q().indexes();
      expect(idx.ignoredArticles).toBe('The An A Die Das Ein Eine Les Le La');
      expect(idx.lastModified).toBeGreaterThan(0);
      const letterOf = (name: string) => idx.index.find((g) => g.artists.some((x) => x.name === name))?.name;
      expect(letterOf('Les Étoiles Perdues')).toBe('E');
      expect(letterOf('林语嫣')).toBe('L');
      expect(letterOf('赵长青')).toBe('Z');
      expect(letterOf('王听风')).toBe('W');
      expect(letterOf('별빛소년')).toBe('#');
      expect(letterOf(VARIOUS_ARTISTS)).toBe('V');
      expect(idx.index.reduce((n, g) => n + g.artists.length, 0)).toBe(env.library.catalog.artists.size);
      expect(idx.index.map((g) => g.name)).toEqual([...idx.index.map((g) => g.name)].sort());
      // No songs sit directly in the root folders of this library.
      expect(idx.songs).toEqual([]);
      // The download folder is empty.
      expect((await q().indexes({ musicFolderId: 2 })).index).toEqual([]);
      await expect(q().indexes({ musicFolderId: 9 })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_LIBRARY_NO_MUSIC_FOLDER' });
    });

    it('browses folders from the music folder down to songs, and by artist and album ids', async () => {
      const root = await q().directory('1');
      expect(root.parent).toBeNull();
      const top = root.folders.map((f) => f.title);
      expect(top).toContain('Unsorted');
      expect(top).toContain('林语嫣');
      const artistDir = await q().directory(root.folders.find((f) => f.title === '林语嫣')!.id);
      const albumDir = await q().directory(artistDir.folders[0]!.id);
      expect(albumDir.parent).toBe(artistDir.id);
      expect(albumDir.folders.map((f) => f.title)).toEqual(['Disc 1', 'Disc 2']);
      const disc2 = await q().directory(albumDir.folders[1]!.id);
      expect(disc2.songs.map((s) => s.track)).toEqual([1, 2]);
      expect(disc2.songs.every((s) => s.parent === disc2.id)).toBe(true);
      const byArtist = await q().directory(artistIdFor('赵长青'));
      expect(byArtist.folders.map((f) => f.title)).toContain(albumNamed(trackFile(audioFiles(env.manifest).find((f) => f.tags?.artist === '赵长青')!.path).album).name);
      const album = albumNamed(byArtist.folders[0]!.title);
      const byAlbum = await q().directory(album._id);
      expect(byAlbum.songs.length).toBe(album.songCount);
      expect(byAlbum.songs.every((s) => s.parent === album._id)).toBe(true);
      await expect(q().directory('fo-0000000000aaaaaaaaaa')).rejects.toMatchObject({ kind: 'not_found' });
      await expect(q().directory('nonsense')).rejects.toMatchObject({ kind: 'not_found' });
    });

    it('lists genres in three orders with counts', async () => {
      const az = await q().genres();
      expect(az.map((g) => fold(g.name))).toEqual([...az.map((g) => fold(g.name))].sort());
      const byAlbums = await q().genres('most_albums');
      expect(byAlbums[0]!.albumCount).toBe(Math.max(...az.map((g) => g.albumCount)));
      const byTracks = await q().genres('most_tracks');
      for (let i = 1; i < byTracks.length; i++) expect(byTracks[i - 1]!.songCount).toBeGreaterThanOrEqual(byTracks[i]!.songCount);
      await expect(q().genres('nope' as 'a-z')).rejects.toMatchObject({ kind: 'invalid' });
    });

    it('pages artists a-z, by album count, missing covers first, and searches them', async () => {
      const all = await q().artists({ size: 500 });
      expect(all.total).toBe(env.library.catalog.artists.size);
      expect(all.items.map((x) => orderKey(x.name))).toEqual([...all.items.map((x) => orderKey(x.name))].sort());
      const page = await q().artists({ offset: 3, size: 4 });
      expect(ids(page.items)).toEqual(ids(all.items.slice(3, 7)));
      expect((await q().artists({ offset: all.total, size: 10 })).items).toEqual([]);
      expect((await q().artists({ size: 0 })).items).toEqual([]);
      expect((await q().artists({ size: -5 })).items).toEqual([]);
      const most = await q().artists({ sort: 'most_albums', size: 500 });
      for (let i = 1; i < most.items.length; i++) expect(most.items[i - 1]!.albumCount).toBeGreaterThanOrEqual(most.items[i]!.albumCount);
      const less = await q().artists({ sort: 'less_cover', size: 500 });
      const firstWithCover = less.items.findIndex((x) => x.hasCover);
      expect(less.items.slice(firstWithCover).every((x) => x.hasCover)).toBe(true);
      expect(less.items[0]!.hasCover).toBe(false);
      const found = await q().artists({ search: '长青' });
      expect(found.items.map((x) => x.name)).toEqual(['赵长青']);
      expect(found.total).toBe(1);
    });

    it('gives an artist with albums newest first, and an album with songs in disc/track order', async () => {
      const artist = await q().artistDetail(artistIdFor('林语嫣'), u1);
      expect(artist.albums.length).toBe(artist.albumCount);
      for (let i = 1; i < artist.albums.length; i++) expect(artist.albums[i - 1]!.year ?? 0).toBeGreaterThanOrEqual(artist.albums[i]!.year ?? 0);
      const album = await q().albumDetail(artist.albums[0]!.id, u1);
      expect(album.songs.map((s) => [s.discNumber, s.track])).toEqual([[1, 1], [1, 2], [2, 1], [2, 2]]);
      expect(album.duration).toBeCloseTo(album.songs.reduce((s, x) => s + x.duration, 0), 5);
      expect(album.coverArt).toBe(album.id);
      const song = await q().song(album.songs[0]!.id);
      expect(song).toMatchObject({ album: album.name, albumId: album.id, suffix: 'flac', contentType: 'audio/flac', root: 'media' });
      await expect(q().song('0123456789abcdef01234567')).rejects.toMatchObject({ kind: 'not_found', code: 'TAGSONIC_ERR_LIBRARY_NOT_FOUND' });
      await expect(q().artistDetail('ar-0000000000aaaaaaaaaa')).rejects.toMatchObject({ kind: 'not_found' });
    });

    it('tells what it knows about artists and albums, with similar artists by shared genres', async () => {
      const hipHop = [...env.library.catalog.artists.values()].filter((x) => x.genres.includes('Hip-Hop'));
      expect(hipHop.length).toBeGreaterThan(2);
      const seed = hipHop.find((x) => x.name === VARIOUS_ARTISTS)!;
      const info = await q().artistInfo(seed._id);
      expect(info.albumCount).toBe(seed.albumCount);
      expect(info.similarArtists.length).toBeGreaterThan(0);
      for (const s of info.similarArtists) {
        expect(s.id).not.toBe(seed._id);
        expect(s.genres.some((g) => seed.genres.includes(g))).toBe(true);
      }
      // The ranking is kept with the catalogue: any count gives the same order.
      const few = (await q().artistInfo(seed._id, { count: 1 })).similarArtists.map((s) => s.id);
      const many = (await q().artistInfo(seed._id, { count: 100 })).similarArtists.map((s) => s.id);
      expect(few).toEqual(info.similarArtists.slice(0, 1).map((s) => s.id));
      expect(many.slice(0, info.similarArtists.length)).toEqual(info.similarArtists.map((s) => s.id));
      const album = albumNamed(audioFiles(env.manifest).find((f) => f.tags?.genre === 'Folk')!.tags!.album!);
      expect(await q().albumInfo(album._id)).toMatchObject({ id: album._id, songCount: album.songCount, genres: ['Folk'], coverArt: album._id });
    });

    it('finds similar songs without the seed', async () => {
      const seed = trackFile(audioFiles(env.manifest).find((f) => f.tags?.compilation)!.path);
      const similar = await q().similarSongs(seed._id, { count: 100 });
      expect(similar.length).toBeGreaterThan(0);
      expect(ids(similar)).not.toContain(seed._id);
      expect(new Set(ids(similar)).size).toBe(similar.length);
      const byAlbum = await q().similarSongs(seed.albumId, { count: 100 });
      expect(byAlbum.some((s) => s.albumId === seed.albumId)).toBe(false);
      expect(await q().similarSongs(seed._id, { count: 0 })).toEqual([]);
    });
  });

  describe('album lists', () => {
    const list = (type: (typeof ALBUM_LIST_TYPES)[number], extra: Record<string, unknown> = {}) =>
      q().albumList({ type, size: 500, userId: u1, ...extra });
    let total: number;
    beforeAll(() => {
      total = env.library.catalog.albums.size;
    });

    it('alphabeticalByName and alphabeticalByArtist are ordered and paged', async () => {
      const byName = await list('alphabeticalByName');
      expect(byName.length).toBe(total);
      expect(byName.map((x) => orderKey(x.name))).toEqual([...byName.map((x) => orderKey(x.name))].sort());
      const byArtist = await list('alphabeticalByArtist');
      expect(byArtist.map((x) => orderKey(x.artist))).toEqual([...byArtist.map((x) => orderKey(x.artist))].sort());
      expect(ids(await q().albumList({ type: 'alphabeticalByName', size: 3, offset: 2 }))).toEqual(ids(byName.slice(2, 5)));
      expect(await q().albumList({ type: 'alphabeticalByName', offset: total })).toEqual([]);
      // Subsonic's default page is 10, the maximum 500.
      expect((await q().albumList({ type: 'alphabeticalByName' })).length).toBe(10);
      expect((await q().albumList({ type: 'alphabeticalByName', size: 100_000 })).length).toBe(total);
    });

    it('random gives distinct albums', async () => {
      const r = await q().albumList({ type: 'random', size: 5 });
      expect(r.length).toBe(5);
      expect(new Set(ids(r)).size).toBe(5);
      expect((await list('random')).length).toBe(total);
    });

    it('newest puts the latest first', async () => {
      const n = await list('newest');
      for (let i = 1; i < n.length; i++) expect(n[i - 1]!.created.getTime()).toBeGreaterThanOrEqual(n[i]!.created.getTime());
    });

    it('byYear ascending and, with fromYear > toYear, descending', async () => {
      const years = [...env.library.catalog.albums.values()].map((x) => x.year).filter((y): y is number => y !== null).sort();
      const from = years[1]!;
      const to = years.at(-2)!;
      const up = await list('byYear', { fromYear: from, toYear: to });
      expect(up.length).toBe(years.filter((y) => y >= from && y <= to).length);
      expect(up.map((x) => x.year)).toEqual([...up.map((x) => x.year)].sort());
      const down = await list('byYear', { fromYear: to, toYear: from });
      expect(down.map((x) => x.year)).toEqual([...up.map((x) => x.year)].reverse());
      await expect(q().albumList({ type: 'byYear' })).rejects.toMatchObject({ kind: 'invalid' });
    });

    it('byGenre, byArtist, search and less_cover', async () => {
      const pop = await list('byGenre', { genre: 'pop' });
      expect(pop.length).toBe(env.library.catalog.genres.get('Pop')!.albumCount);
      expect(pop.every((x) => x.genres.includes('Pop'))).toBe(true);
      const va = await list('byArtist', { artistId: artistIdFor(VARIOUS_ARTISTS) });
      expect(va.map((x) => x.artist)).toEqual([VARIOUS_ARTISTS]);
      const guest = await list('byArtist', { artistId: artistIdFor('张国华') });
      expect(guest.length).toBe(1);
      const found = await list('search', { search: '晚风' });
      expect(found.map((x) => x.name)).toEqual(['时光的晚风']);
      const all = await list('search', { search: '' });
      expect(all.length).toBe(total);
      const less = await list('less_cover');
      const firstCovered = less.findIndex((x) => x.hasCover);
      expect(firstCovered).toBeGreaterThan(0);
      expect(less.slice(firstCovered).every((x) => x.hasCover)).toBe(true);
      await expect(q().albumList({ type: 'byGenre' })).rejects.toMatchObject({ kind: 'invalid' });
      await expect(q().albumList({ type: 'bogus' as 'random' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_LIBRARY_BAD_LIST_TYPE' });
    });

    it('starred, highest, frequent and recent follow the user’s marks', async () => {
      const albums = (await list('alphabeticalByName')).slice(0, 4);
      const [x, y, z] = albums as [AlbumView, AlbumView, AlbumView];
      await a().star(u1, { albumId: [x.id] }, new Date(1_000));
      await a().star(u1, { id: [y.id] }, new Date(2_000));
      await a().setRating(u1, x.id, 3);
      await a().setRating(u1, z.id, 5);
      const songOf = (album: AlbumView) => env.library.catalog.view().albumTracks.get(album.id)![0]!._id;
      await a().scrobble(u1, songOf(z), { time: new Date(10_000) });
      await a().scrobble(u1, songOf(z), { time: new Date(11_000) });
      await a().scrobble(u1, songOf(y), { time: new Date(20_000) });
      expect(ids(await list('starred'))).toEqual([y.id, x.id]);
      expect(ids(await list('highest'))).toEqual([z.id, x.id]);
      expect(ids(await list('frequent'))).toEqual([z.id, y.id]);
      expect(ids(await list('recent'))).toEqual([y.id, z.id]);
      expect(ids(await list('starred', { offset: 1 }))).toEqual([x.id]);
      // Marks are per user.
      expect(await list('starred', { userId: u2 })).toEqual([]);
      const detail = await q().albumDetail(z.id, u1);
      expect(detail).toMatchObject({ userRating: 5, playCount: 2 });
      expect(detail.played).toEqual(new Date(11_000));
      expect((await q().albumDetail(z.id, u2)).playCount).toBe(0);
    });
  });

  describe('songs', () => {
    it('random songs: default 200 (all when fewer), size, genre and years', async () => {
      const all = await q().randomSongs();
      expect(all.length).toBe(tracks);
      expect(new Set(ids(all)).size).toBe(tracks);
      expect((await q().randomSongs({ size: 3 })).length).toBe(3);
      const folk = await q().randomSongs({ genre: 'Folk' });
      expect(folk.length).toBe(env.library.catalog.genres.get('Folk')!.songCount);
      const years = await q().randomSongs({ fromYear: 2000, toYear: 2010 });
      expect(years.every((s) => s.year! >= 2000 && s.year! <= 2010)).toBe(true);
      expect(years.length).toBe([...env.library.catalog.tracks.values()].filter((t) => t.year !== null && t.year >= 2000 && t.year <= 2010).length);
    });

    it('songs by genre or artist id, with search and paging', async () => {
      const hiphop = await q().songsByGenre({ genre: 'hip-hop', count: 500 });
      expect(hiphop.length).toBe(env.library.catalog.genres.get('Hip-Hop')!.songCount);
      expect(ids(await q().songsByGenre({ genre: 'Hip-Hop', count: 2, offset: 1 }))).toEqual(ids(hiphop.slice(1, 3)));
      const byArtist = await q().songsByGenre({ artistId: artistIdFor('赵长青'), count: 500 });
      expect(byArtist.length).toBe(env.library.catalog.artists.get(artistIdFor('赵长青'))!.songCount);
      const searched = await q().songsByGenre({ artistId: artistIdFor('赵长青'), search: '张国华', count: 500 });
      expect(searched.map((s) => s.artist)).toEqual(['赵长青 feat. 张国华']);
      expect(await q().songsByGenre({ genre: 'No Such Genre' })).toEqual([]);
      await expect(q().songsByGenre({})).rejects.toMatchObject({ kind: 'invalid' });
    });

    it('top songs of an artist follow plays over all users', async () => {
      const artistId = artistIdFor('林语嫣');
      const songs = env.library.catalog.view().artistTracks.get(artistId)!;
      await a().scrobble(u1, songs[3]!._id);
      await a().scrobble(u2, songs[3]!._id);
      await a().scrobble(u2, songs[2]!._id);
      const top = await q().topSongs('林语嫣', { count: 2 });
      expect(ids(top)).toEqual([songs[3]!._id, songs[2]!._id]);
      expect(ids(await q().topSongs(artistId, { count: 50 }))).toHaveLength(songs.length);
      expect(await q().topSongs('Nobody')).toEqual([]);
    });

    it('the dashboard song list: recently-added, a-z, most-played, recently-played and search', async () => {
      expect((await q().songList({ sort: 'recently-added', size: 500 })).length).toBe(tracks);
      // The albums' A-Z rules (orderKey): Chinese titles under their pinyin initial, not after every Latin one.
      const az = await q().songList({ sort: 'a-z', size: 500 });
      expect(az.length).toBe(tracks);
      expect(az.map((s) => orderKey(s.title))).toEqual([...az.map((s) => orderKey(s.title))].sort());
      const most = await q().songList({ sort: 'most-played', userId: u2, size: 10 });
      expect(most.every((s) => s.playCount > 0)).toBe(true);
      expect(most.length).toBe(2);
      const recent = await q().songList({ sort: 'recently-played', userId: u1, size: 1 });
      expect(recent.length).toBe(1);
      expect((await q().songList({ search: 'paris', size: 50 })).every((s) => fold(`${s.title} ${s.artist} ${s.album}`).includes('paris'))).toBe(true);
    });
  });

  describe('search3', () => {
    it('an empty query pages the whole library with separate offsets', async () => {
      const all = await q().search({ query: '', artistCount: 500, albumCount: 500, songCount: 500 });
      expect(all.artists.length).toBe(env.library.catalog.artists.size);
      expect(all.albums.length).toBe(env.library.catalog.albums.size);
      expect(all.songs.length).toBe(tracks);
      const page = await q().search({ query: '""', artistCount: 2, artistOffset: 1, albumCount: 3, albumOffset: 2, songCount: 4, songOffset: 5 });
      expect(ids(page.artists)).toEqual(ids(all.artists.slice(1, 3)));
      expect(ids(page.albums)).toEqual(ids(all.albums.slice(2, 5)));
      expect(ids(page.songs)).toEqual(ids(all.songs.slice(5, 9)));
      expect((await q().search({ query: '', songOffset: tracks })).songs).toEqual([]);
      // Default counts are 20.
      expect((await q().search({ query: '' })).songs.length).toBe(20);
    });

    it('finds CJK substrings in titles, artists and albums', async () => {
      const r = await q().search({ query: '语嫣', artistCount: 10, albumCount: 10, songCount: 50 });
      expect(r.artists.map((x) => x.name).sort()).toEqual(['林语嫣', '罗语嫣']);
      expect(r.albums.map((x) => x.artist)).toEqual(['林语嫣']);
      expect(r.songs.length).toBe(5);
      const ko = await q().search({ query: '여름', songCount: 10 });
      expect(ko.albums.map((x) => x.name)).toEqual(['우리의 여름']);
      const ja = await q().search({ query: 'ひだまり', songCount: 10 });
      expect(ja.songs.length).toBe(2);
    });

    it('is case-, width- and accent-insensitive and needs every word', async () => {
      const plain = await q().search({ query: 'paper signal', albumCount: 5 });
      expect(plain.albums.map((x) => x.name)).toEqual(['Paper Signal']);
      expect(ids((await q().search({ query: 'ＰＡＰＥＲ　ＳＩＧＮＡＬ', albumCount: 5 })).albums)).toEqual(ids(plain.albums));
      const accents = await q().search({ query: 'cafe noir', albumCount: 5, songCount: 50 });
      expect(accents.albums.map((x) => x.name)).toEqual(['Café Noir à Paris']);
      expect(accents.songs.some((s) => s.title === 'Café Noir à Paris')).toBe(true);
      expect((await q().search({ query: 'paper zzz' })).albums).toEqual([]);
      // Simplified and traditional characters are the same text to search.
      expect((await q().search({ query: '听风', artistCount: 10 })).artists.map((x) => x.name).sort()).toEqual(['王听风', '郭听风']);
      expect((await q().search({ query: '聽風', artistCount: 10 })).artists.map((x) => x.name).sort()).toEqual(['王听风', '郭听风']);
    });

    it('finds a song by artist and title for getLyrics', async () => {
      const f = audioFiles(env.manifest).find((x) => x.kind === 'audio' && x.tags?.title && x.tags.artist && !x.separator)!;
      const song = await q().findSong(f.tags!.artist!.toUpperCase(), f.tags!.title!, u1);
      expect(song?.title).toBe(f.tags!.title);
      expect(await q().findSong('nobody', 'nothing')).toBeNull();
    });
  });

  describe('annotations', () => {
    it('stars and unstars songs, albums and artists; lists them per user', async () => {
      const song = trackFile(audioFiles(env.manifest)[0]!.path);
      const artist = artistIdFor('赵长青');
      await a().star(u2, { id: [song._id, artist, song.albumId] });
      await a().star(u2, { id: [song._id] }); // again: keeps the first time
      let starred = await q().starred({ userId: u2 });
      expect(ids(starred.songs)).toEqual([song._id]);
      expect(ids(starred.albums)).toEqual([song.albumId]);
      expect(ids(starred.artists)).toEqual([artist]);
      expect(starred.songs[0]!.starred).toBeInstanceOf(Date);
      expect((await q().starred({ userId: u2, type: 'album' })).songs).toEqual([]);
      await a().unstar(u2, { id: [song._id], artistId: [artist] });
      starred = await q().starred({ userId: u2 });
      expect(starred.songs).toEqual([]);
      expect(starred.artists).toEqual([]);
      expect(ids(starred.albums)).toEqual([song.albumId]);
      await expect(a().star(u2, { id: ['0123456789abcdef01234567'] })).rejects.toMatchObject({ kind: 'not_found' });
      await expect(a().star(u2, { albumId: [artist] })).rejects.toMatchObject({ kind: 'not_found' });
      await expect(a().star(u2, {})).rejects.toMatchObject({ kind: 'invalid' });
    });

    it('validates ratings and clears them with 0', async () => {
      const song = trackFile(audioFiles(env.manifest)[1]!.path);
      await a().setRating(u2, song._id, 2);
      expect((await q().song(song._id, u2)).userRating).toBe(2);
      await a().setRating(u2, song._id, 0);
      expect((await q().song(song._id, u2)).userRating).toBeUndefined();
      for (const bad of [6, -1, 2.5, Number.NaN]) await expect(a().setRating(u2, song._id, bad)).rejects.toMatchObject({ kind: 'invalid' });
    });

    it('scrobbles: a submission counts and logs the play; otherwise it is now playing', async () => {
      const song = trackFile(audioFiles(env.manifest)[2]!.path);
      await a().scrobble('user-3', song._id, { submission: false, client: 'DSub' });
      const playing = await a().nowPlaying();
      expect(playing.filter((p) => p.userId === 'user-3')).toEqual([expect.objectContaining({ trackId: song._id, client: 'DSub', minutesAgo: 0 })]);
      expect((await q().song(song._id, 'user-3')).playCount).toBe(0);
      const when = new Date('2024-05-01T10:00:00Z');
      await a().scrobble('user-3', song._id, { time: when, client: 'DSub' });
      const view = await q().song(song._id, 'user-3');
      expect(view.playCount).toBe(1);
      expect(view.played).toEqual(when);
      const log = await env.library.store.playLog.find({ userId: 'user-3' });
      expect(log).toEqual([
        expect.objectContaining({ trackId: song._id, albumId: song.albumId, genres: song.genres, playedAt: when, client: 'DSub', artistIds: expect.arrayContaining(song.artistIds) }),
      ]);
      // Expired now-playing entries disappear.
      expect((await a().nowPlaying(new Date(Date.now() + 3600_000))).filter((p) => p.userId === 'user-3')).toEqual([]);
      await expect(a().scrobble('user-3', 'ar-0000000000aaaaaaaaaa')).rejects.toMatchObject({ kind: 'not_found' });
    });

    it('keeps a play queue and bookmarks per user', async () => {
      const [s1, s2] = [...env.library.catalog.tracks.keys()];
      await a().savePlayQueue(u1, { trackIds: [s1!, s2!], currentId: s2!, position: 1234, client: 'web' });
      expect(await a().playQueue(u1)).toMatchObject({ trackIds: [s1, s2], currentId: s2, position: 1234, changedBy: 'web' });
      expect(await a().playQueue(u2)).toBeNull();
      await expect(a().savePlayQueue(u1, { trackIds: [s1!], currentId: s2! })).rejects.toMatchObject({ kind: 'invalid' });
      await a().savePlayQueue(u1, { trackIds: [] });
      expect(await a().playQueue(u1)).toBeNull();
      await a().saveBookmark(u1, s1!, 5000, 'half way');
      await a().saveBookmark(u1, s1!, 6000);
      expect(await a().bookmarks(u1)).toEqual([expect.objectContaining({ trackId: s1, position: 6000 })]);
      await a().deleteBookmark(u1, s1!);
      expect(await a().bookmarks(u1)).toEqual([]);
      await expect(a().deleteBookmark(u1, s1!)).rejects.toMatchObject({ kind: 'not_found' });
    });
  });

  describe('discover, covers and summary', () => {
    it('builds the discover payload from plays and the library', async () => {
      const d = await q().discover({ userId: u1 });
      expect(d.randomSongs.length).toBe(8);
      expect(d.hotArtists.length).toBeGreaterThan(0);
      for (let i = 1; i < d.hotArtists.length; i++) expect(d.hotArtists[i - 1]!.playCount).toBeGreaterThanOrEqual(d.hotArtists[i]!.playCount);
      expect(d.hotArtists[0]!.latestAlbum).not.toBeNull();
      expect(d.hotTrack?.totalPlayCount).toBeGreaterThan(0);
      expect(d.newAlbums.length).toBe(12);
      expect(d.featuredAlbum?.totalPlayCount).toBeGreaterThan(0);
      expect(d.recommendAlbums.length).toBeGreaterThan(0);
      // Recommended: albums not played by the user, sharing a genre with their most played ones when
      // any such album is left (here the one liked genre's album is played: any unplayed album).
      const played = await env.library.annotations.ordered(u1, 'album', 'playCount', 0, 50);
      const playedIds = new Set(played.map((p) => p.itemId));
      const liked = new Set(played.flatMap((p) => env.library.catalog.albums.get(p.itemId)?.genres ?? []).map(fold));
      const sharing = [...env.library.catalog.albums.values()].filter((a) => !playedIds.has(a._id) && a.genres.some((g) => liked.has(fold(g))));
      expect(d.recommendAlbums).toHaveLength(Math.min(10, sharing.length || env.library.catalog.albums.size - playedIds.size));
      for (const a of d.recommendAlbums) {
        expect(playedIds.has(a.id), a.name).toBe(false);
        if (sharing.length > 0) expect(sharing.some((s) => s._id === a.id), a.name).toBe(true);
      }
      expect(d.recentPlays.length).toBeGreaterThan(0);
      expect(new Set(d.recentPlays.map((s) => s.id)).size).toBe(d.recentPlays.length);
      expect(d.similarArtists.length).toBeLessThanOrEqual(3);
      const anonymous = await q().discover();
      expect(anonymous.recentPlays).toEqual([]);
    });

    it('resolves cover art ids of every kind', async () => {
      const withArt = [...env.library.catalog.tracks.values()].find((t) => t.hasArt)!;
      expect(await q().coverArt(withArt._id)).toEqual({ kind: 'embedded', path: withArt.path, trackId: withArt._id });
      const artist = [...env.library.catalog.artists.values()].find((x) => x.coverAlbumId)!;
      expect(await q().coverArt(artist._id)).toEqual(await q().coverArt(artist.coverAlbumId!));
      const folder = (await q().directory('1')).folders.find((f) => f.title === '林语嫣')!;
      expect((await q().coverArt(folder.id))?.kind).toBe('file');
      await expect(q().coverArt('al-0000000000aaaaaaaaaa')).rejects.toMatchObject({ kind: 'not_found' });
      await expect(q().coverArt('x')).rejects.toMatchObject({ kind: 'not_found' });
    });

    it('summarises the library', async () => {
      const s = await q().summary();
      expect(s).toMatchObject({ tracks, albums: env.library.catalog.albums.size, artists: env.library.catalog.artists.size });
      expect(s.duration).toBeGreaterThan(tracks * 4);
      expect(s.lastScan).toBeInstanceOf(Date);
      const song: SongView = await q().song([...env.library.catalog.tracks.keys()][0]!);
      expect(path.isAbsolute(song.path)).toBe(false);
    });
  });
});

describe('catalogue revisions across processes', () => {
  it('a second catalogue on the same store follows additions and deletions', async () => {
    const env = await libraryEnv({ copy: true });
    try {
      await env.scanner.scan();
      // Another process: its own repositories and catalogue over the same store.
      const other = new Catalog(new LibraryStore(env.store), env.roots.roots);
      await other.sync();
      expect(other.tracks.size).toBe(env.library.catalog.tracks.size);
      expect(other.revision).toBe(env.library.catalog.revision);
      const victim = audioFiles(env.manifest).find((f) => f.tags?.album && f.format === 'opus')!;
      const { rm } = await import('node:fs/promises');
      await rm(env.abs(victim.path));
      const r = await env.scanner.scan();
      expect(r.removed).toBe(1);
      await other.sync();
      expect(other.revision).toBe(r.rev);
      expect(other.tracks.size).toBe(env.library.catalog.tracks.size);
      expect([...other.tracks.values()].some((t) => t.relPath === victim.path)).toBe(false);
      expect(other.albums.get(albumIdFor(victim.tags!.albumartist!, victim.tags!.album!))!.songCount).toBe(
        env.library.catalog.albums.get(albumIdFor(victim.tags!.albumartist!, victim.tags!.album!))!.songCount,
      );
      // Nothing changed: a sync is one read and changes nothing.
      const before = other.view();
      await other.sync();
      expect(other.view()).toBe(before);
    } finally {
      await env.close();
    }
  });
});
