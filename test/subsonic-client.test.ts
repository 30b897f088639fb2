/**
 * A real third-party client, the `subsonic-api` npm package, against Tagsonic listening on a port:
 * every call it offers that Tagsonic implements must succeed, with token (u+t+s) authentication, with
 * an OpenSubsonic API key, and with form POST. The calls Tagsonic deliberately leaves out must fail
 * with a clear error rather than answer by accident.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubsonicAPI } from 'subsonic-api';
import { SubsonicCredentials } from '@tagsonic/core/users';
import { ADMIN, ALICE, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';

// subsonic-api hashes token passwords by UTF-16 code unit, not UTF-8: it only agrees with servers
// (Tagsonic, Navidrome) on ASCII passwords, so the admin gets an ASCII one here.
const ADMIN_ASCII = 'admin-ascii-sub-pw';

type Base = { status: 'ok' | 'failed' };
const errorOf = (r: Base) => (r as { error?: { code: number; message: string } }).error;

const expectOk = <T extends Base>(r: T): T => {
  expect(errorOf(r), JSON.stringify(errorOf(r))).toBeUndefined();
  expect(r.status).toBe('ok');
  return r;
};

describe('subsonic-api (third-party client) against a running server', () => {
  let h: SubsonicHarness;
  let admin: SubsonicAPI;
  let alice: SubsonicAPI;
  let alicePost: SubsonicAPI;
  beforeAll(async () => {
    h = await startSubsonic({ listen: true });
    await new SubsonicCredentials(h.rt.store, h.rt.users, h.rt.secrets.subsonicKey).setPassword(ADMIN.username, ADMIN_ASCII);
    admin = new SubsonicAPI({ url: h.url, auth: { username: ADMIN.username, password: ADMIN_ASCII } });
    alice = new SubsonicAPI({ url: h.url, auth: { apiKey: h.aliceKey } });
    alicePost = new SubsonicAPI({ url: h.url, auth: { username: ALICE.username, password: ALICE.subsonic }, post: true });
  });
  afterAll(() => h?.close());

  it('system: ping, license, extensions, scan status, scan', async () => {
    for (const c of [admin, alice, alicePost]) expectOk(await c.ping());
    expect(expectOk(await admin.getLicense()).license.valid).toBe(true);
    const ext = expectOk(await alice.getOpenSubsonicExtensions());
    expect(ext.openSubsonicExtensions.map((e) => e.name)).toEqual(expect.arrayContaining(['formPost', 'apiKeyAuthentication']));
    expect(typeof expectOk(await alice.getScanStatus()).scanStatus.scanning).toBe('boolean');
    expectOk(await admin.startScan());
    expect(errorOf(await alice.startScan())?.code).toBe(50);
  });

  it('browsing: folders, indexes, directories, genres, artists, albums, songs, info, similar, top', async () => {
    expect(expectOk(await alice.getMusicFolders()).musicFolders.musicFolder?.length).toBe(3);
    const indexes = expectOk(await alice.getIndexes());
    expect(indexes.indexes.index?.length).toBeGreaterThan(0);
    const dir = expectOk(await alicePost.getMusicDirectory({ id: '1' }));
    expect(dir.directory.child?.length).toBeGreaterThan(0);
    expect(expectOk(await alice.getGenres()).genres.genre?.length).toBeGreaterThan(0);
    const artists = expectOk(await admin.getArtists());
    const artistId = artists.artists.index![0]!.artist![0]!.id;
    const artist = expectOk(await admin.getArtist({ id: artistId }));
    const albumId = artist.artist.album![0]!.id;
    const album = expectOk(await alice.getAlbum({ id: albumId }));
    expect(album.album.created).toBeInstanceOf(Date);
    const songId = album.album.song![0]!.id;
    expect(expectOk(await alice.getSong({ id: songId })).song.id).toBe(songId);
    expectOk(await alice.getArtistInfo({ id: artistId }));
    expectOk(await alice.getArtistInfo2({ id: artistId }));
    expectOk(await alice.getAlbumInfo({ id: albumId }));
    expectOk(await alice.getAlbumInfo2({ id: albumId }));
    expectOk(await alice.getSimilarSongs({ id: songId }));
    expectOk(await alice.getSimilarSongs2({ id: artistId }));
    expectOk(await alice.getTopSongs({ artist: artist.artist.name }));
    expect(errorOf(await alice.getAlbum({ id: 'al-00000000000000000000' }))?.code).toBe(70);
  });

  it('lists and search', async () => {
    expect(expectOk(await alice.getAlbumList({ type: 'alphabeticalByName', size: 5 })).albumList.album?.length).toBe(5);
    expect(expectOk(await alicePost.getAlbumList2({ type: 'newest', size: 5 })).albumList2.album?.length).toBe(5);
    expect(expectOk(await alice.getRandomSongs({ size: 3 })).randomSongs.song?.length).toBe(3);
    const genre = expectOk(await alice.getGenres()).genres.genre![0]!.value;
    expect(expectOk(await alice.getSongsByGenre({ genre })).songsByGenre.song?.length).toBeGreaterThan(0);
    expectOk(await alice.getNowPlaying());
    expectOk(await alice.search2({ query: '' }));
    const s3 = expectOk(await alicePost.search3({ query: '', songCount: 500 }));
    expect(s3.searchResult3.song?.length).toBe(h.rt.library.catalog.tracks.size);
  });

  it('annotation, bookmarks and play queue', async () => {
    const songs = expectOk(await alice.search3({ query: '', songCount: 3, albumCount: 1, artistCount: 1 })).searchResult3;
    const [a, b] = [songs.song![0]!.id, songs.song![1]!.id];
    expectOk(await alice.star({ id: [a, b], albumId: songs.album![0]!.id, artistId: songs.artist![0]!.id }));
    const starred = expectOk(await alice.getStarred2());
    expect(starred.starred2.song?.map((s) => s.id).sort()).toEqual([a, b].sort());
    expect(starred.starred2.song![0]!.starred).toBeInstanceOf(Date);
    expectOk(await alice.getStarred());
    expectOk(await alicePost.unstar({ id: b }));
    expectOk(await alice.setRating({ id: a, rating: 3 }));
    expectOk(await alice.scrobble({ id: a, submission: false }));
    expect(expectOk(await admin.getNowPlaying()).nowPlaying.entry?.[0]?.id).toBe(a);
    expectOk(await alicePost.scrobble({ id: [a, b], submission: true }));
    expectOk(await alice.createBookmark({ id: a, position: 1234, comment: 'here' }));
    expect(expectOk(await alice.getBookmarks()).bookmarks.bookmark?.[0]?.position).toBe(1234);
    expectOk(await alice.deleteBookmark({ id: a }));
    expectOk(await alicePost.savePlayQueue({ id: [a, b], current: b, position: 500 }));
    const queue = expectOk(await alice.getPlayQueue());
    expect(queue.playQueue?.entry?.map((e) => e.id)).toEqual([a, b]);
    expect(queue.playQueue?.current).toBe(b);
  });

  it('users and shares', async () => {
    expect(expectOk(await alice.getUser({ username: ALICE.username })).user.username).toBe(ALICE.username);
    expect(expectOk(await admin.getUsers()).users.user?.length).toBe(2);
    expectOk(await admin.createUser({ username: 'grace', password: 'grace-password', email: 'grace@example.org' }));
    expectOk(await admin.updateUser({ username: 'grace', password: 'grace-password-2', email: 'grace@example.org', adminRole: false }));
    const grace = new SubsonicAPI({ url: h.url, auth: { username: 'grace', password: 'grace-password-2' } });
    expectOk(await grace.ping());
    expectOk(await grace.changePassword({ username: 'grace', password: 'grace-password-3' }));
    expectOk(await admin.deleteUser({ username: 'grace' }));
    const song = expectOk(await alice.getRandomSongs({ size: 1 })).randomSongs.song![0]!;
    const created = expectOk(await alice.createShare({ id: song.id, description: 'for you', expires: Date.now() + 60_000 }));
    const share = created.shares.share![0]!;
    expect(share.expires).toBeInstanceOf(Date);
    expect(expectOk(await alice.getShares()).shares.share?.length).toBe(1);
    expectOk(await alice.updateShare({ id: share.id, description: 'for you, again' }));
    const page = await fetch(share.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('for you, again');
    expectOk(await alice.deleteShare({ id: share.id }));
  });

  it('media and playlists', async () => {
    const song = expectOk(await alice.getRandomSongs({ size: 1 })).randomSongs.song![0]!;
    const stream = await alice.stream({ id: song.id });
    expect(stream.status).toBe(200);
    expect((await stream.arrayBuffer()).byteLength).toBe(song.size);
    const download = await alicePost.download({ id: song.id });
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBe(song.size);
    const cover = await alice.getCoverArt({ id: song.coverArt!, size: 64 });
    expect(cover.status).toBe(200);
    expect(cover.headers.get('content-type')).toMatch(/^image\//);
    const avatar = await alice.getAvatar({ username: ALICE.username });
    expect(avatar.status).toBe(200);
    expectOk(await alice.getLyrics({ artist: song.artist, title: song.title }));
    expectOk(await alice.getLyricsBySongId({ id: song.id }));
    const created = expectOk(await alice.createPlaylist({ name: 'Client list', songId: [song.id] }));
    const id = created.playlist.id;
    expectOk(await alicePost.updatePlaylist({ playlistId: id, comment: 'made by subsonic-api' }));
    expect(expectOk(await alice.getPlaylist({ id })).playlist.entry?.map((e) => e.id)).toEqual([song.id]);
    expect(expectOk(await alice.getPlaylists()).playlists.playlist?.map((p) => p.id)).toContain(id);
    expectOk(await alice.deletePlaylist({ id }));
    expectOk(await admin.createInternetRadioStation({ name: 'Client radio', streamUrl: 'https://radio.example.org/live' }));
    expect(expectOk(await alice.getInternetRadioStations()).internetRadioStations.internetRadioStation?.map((r) => r.name)).toEqual(['Client radio']);
  });

  it('calls Tagsonic leaves out fail clearly', async () => {
    const calls: Array<() => Promise<Base>> = [
      () => alice.getPodcasts(),
      () => alice.getNewestPodcasts(),
      () => alice.refreshPodcasts(),
      () => alice.getChatMessages({}),
      () => alice.jukeboxControl({ action: 'status' }),
      () => alice.getVideos({}),
    ];
    for (const call of calls) {
      const r = await call();
      expect(r.status).toBe('failed');
      expect(errorOf(r)?.message).toMatch(/not implemented/);
    }
  });
});
