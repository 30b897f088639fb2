/**
 * The library screens' entity edits (spec doc 2 §7 "Entity edits", gateway/src/routes/library-entities.ts) through
 * the real gateway, bus, worker (scanner and its edit follower, files.delete, the manual-edit plugin in its
 * sandbox) and files, read back over Subsonic and with ffprobe: the overlay (files untouched) and write_metadata
 * (a 修改专辑 / 修改艺术家 / 删除流派 task, undone by undo_task), deletes to the trash, the genre and playlist
 * pictures, the M3U import, fetch_artists through the kuwo source against a local replay of Kuwo, hot artists.
 * No mocks.
 */
import { execFile } from 'node:child_process';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { albumIdFor, artistIdFor, genreCoverIdFor } from '@tagsonic/core/library';
import { readArtwork } from '@tagsonic/core/tags';
import type { Scanner } from '@tagsonic/workers/scanner';
import type { Runtime } from '@tagsonic/cli';
import { call, expectError, expectOk, login, startActionHarness, USER_PASSWORD, type ActionHarness, type Session } from './api-harness.ts';
import { makeAudio, probeTags, waitFor } from './support/audio.ts';
import { sourceFake } from './support/source-fake.ts';
import { taskFinished } from './support/task-wait.ts';

const run = promisify(execFile);
const SUBSONIC_PASSWORD = 'entities-sub-password';

/** Kuwo's artist search and artist info, as plugin-kuwo.test.ts replays them. */
const kuwo = sourceFake('kuwo', (p, query) => {
  if (p === '/star/pic.jpg') return [200, 'image/jpeg', blueJpeg];
  if (p !== '/r.s') return [404, 'text/html', '<html>Not Found</html>'];
  if (query.get('stype') === 'artistinfo') {
    return [200, 'application/json', { id: '336', name: '周杰伦', pic: '120/s4s26/58/3409744034.jpg', info: '华语流行乐男歌手。' }];
  }
  if (query.get('ft') === 'artist') {
    const hits = query.get('all') === 'nobody' ? [] : [{ ARTIST: '周杰伦', AARTIST: 'Jay Chou', ARTISTID: '336', MUSICNUM: '1024' }];
    return [200, 'application/json', { HIT: String(hits.length), PN: '0', RN: '10', SHOW: '1', TOTAL: String(hits.length), abslist: hits }];
  }
  return [404, 'text/html', '<html>Not Found</html>'];
});

let home: string;
let rt: Runtime;
let app: FastifyInstance;
let admin: Session;
let media: string;
let scanner: Scanner;
let blueJpeg: Buffer;
let redJpeg: Buffer;
const at = (...parts: string[]) => path.join(media, ...parts);
const exists = (p: string) => access(p).then(() => true, () => false);
const finished = (taskId: string) => taskFinished(rt.tasks, taskId, 60_000);
const dataUrl = (jpeg: Buffer) => `data:image/jpeg;base64,${jpeg.toString('base64')}`;

let h: ActionHarness;

beforeAll(async () => {
  process.env.TAGSONIC_SOURCE_URL_KUWO = kuwo.baseUrl();
  h = await startActionHarness({
    name: 'entities',
    plugins: ['batch-update-id3', 'kuwo'],
    subsonicPassword: SUBSONIC_PASSWORD,
    scanner: true,
    setup: async (runtime) => {
      media = runtime.roots.root('media').dir;
      for (const dir of ['Blue', 'Red', 'Gone', 'Bye']) await mkdir(at(dir), { recursive: true });
      await makeAudio(at('Blue', '01.flac'), { tags: { title: 'One', artist: 'Alpha/Beta', album: 'Blue Sky', genre: 'Rock; Jazz' } });
      await makeAudio(at('Blue', '02.mp3'), { freq: 500, tags: { title: 'Two', artist: 'Alpha', album: 'Blue Sky', genre: 'Rock' } });
      await makeAudio(at('Red', '01.mp3'), { freq: 600, tags: { title: 'Red One', artist: 'Gamma', album_artist: 'Gamma', album: 'Red Album', genre: 'Pop' } });
      await makeAudio(at('Red', '02.mp3'), { freq: 700, tags: { title: 'Guest', artist: 'Omega', album_artist: 'Gamma', album: 'Red Album', genre: 'Pop' } });
      await makeAudio(at('Gone', '01.mp3'), { freq: 800, tags: { title: 'Gone One', artist: 'Delta', album: 'Gone Album' } });
      await writeFile(at('Gone', '01.lrc'), '[00:00.00]gone');
      await makeAudio(at('Bye', '01.mp3'), { freq: 900, tags: { title: 'Bye One', artist: 'Omega', album: 'Bye' } });
    },
  });
  ({ home, rt, app, admin } = h);
  scanner = h.scanner!;
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=blue:s=16x16', '-frames:v', '1', path.join(home, 'blue.jpg')]);
  blueJpeg = await readFile(path.join(home, 'blue.jpg'));
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=red:s=16x16', '-frames:v', '1', path.join(home, 'red.jpg')]);
  redJpeg = await readFile(path.join(home, 'red.jpg'));
  await scanner.scan();
}, 120_000);

afterAll(async () => {
  await h?.close();
  delete process.env.TAGSONIC_SOURCE_URL_KUWO;
});

/** A Subsonic call as a client makes it (JSON): the `subsonic-response` object. */
async function subsonic(method: string, params: Record<string, string> = {}): Promise<any> {
  const q = new URLSearchParams({ u: 'admin', p: SUBSONIC_PASSWORD, v: '1.16.1', c: 'vitest', f: 'json', ...params });
  const res = await app.inject({ method: 'GET', url: `/rest/${method}?${q}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()['subsonic-response'];
}

async function coverBytes(id: string): Promise<Buffer> {
  const q = new URLSearchParams({ u: 'admin', p: SUBSONIC_PASSWORD, v: '1.16.1', c: 'vitest', id });
  const res = await app.inject({ method: 'GET', url: `/rest/getCoverArt?${q}` });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

const albumIdOf = async (name: string) => {
  await rt.library.catalog.sync();
  return [...rt.library.catalog.albums.values()].find((a) => a.name === name)?._id;
};

describe('albums', () => {
  it('post_album without write_metadata: name, comment and cover are the library\'s overlay; the files keep their tags', async () => {
    const id = (await albumIdOf('Blue Sky'))!;
    const res = expectOk(await call(app, admin, 'POST', '/apimt/post_album/', { id, name: 'Sky Renamed', comment: 'my note', album_img: dataUrl(blueJpeg) }));
    expect(res).toMatchObject({ message: '修改成功！', data: { id, task_id: null } });
    const album = (await subsonic('getAlbum', { id })).album;
    expect(album.name).toBe('Sky Renamed');
    expect(album.song.map((song: any) => song.album)).toEqual(['Sky Renamed', 'Sky Renamed']);
    expect((await subsonic('getAlbumInfo2', { id })).albumInfo.notes).toBe('my note');
    const list = (await subsonic('getAlbumList2', { type: 'alphabeticalByName', size: '50' })).albumList2.album;
    expect(list.find((a: any) => a.id === id).name).toBe('Sky Renamed');
    // It sorts and is found under the name shown, no longer under the tag's.
    expect(list.map((a: any) => a.name)).toEqual([...list.map((a: any) => a.name)].sort((a: string, b: string) => a.localeCompare(b)));
    expect(list.at(-1).id).toBe(id);
    const found = (await subsonic('search3', { query: 'renamed' })).searchResult3;
    expect(found.album.map((a: any) => a.id)).toEqual([id]);
    expect(found.song.map((song: any) => song.title).sort()).toEqual(['One', 'Two']);
    expect((await subsonic('search3', { query: 'blue sky' })).searchResult3.album ?? []).toEqual([]);
    expect((await subsonic('getAlbumList2', { type: 'search', search: 'sky renamed', size: '30' } as Record<string, string>)).albumList2.album.map((a: any) => a.id)).toEqual([id]);
    expect((await coverBytes(id)).equals(blueJpeg)).toBe(true);
    expect((await probeTags(at('Blue', '02.mp3'))).album).toBe('Blue Sky');
    // Back to what the tags say: the name equal to the tag's, '' for the picture.
    expectOk(await call(app, admin, 'POST', '/apimt/post_album/', { id, name: 'Blue Sky', comment: '', album_img: '' }));
    expect((await subsonic('getAlbum', { id })).album.name).toBe('Blue Sky');
  });

  it('post_album with write_metadata: a 修改专辑 task writes album, comment and cover into every track; the library follows to the new id; undo_task puts the tags back', async () => {
    const id = (await albumIdOf('Blue Sky'))!;
    // A picture of the library's own, not written: it goes with the album to its new id.
    expectOk(await call(app, admin, 'POST', '/apimt/post_album/', { id, album_img: dataUrl(blueJpeg) }));
    // A favourite and a rating: they follow the album to its new id too.
    expect((await subsonic('star', { albumId: id })).status).toBe('ok');
    expect((await subsonic('setRating', { id, rating: '4' })).status).toBe('ok');
    const res = expectOk(await call(app, admin, 'POST', '/apimt/post_album/', { id, name: 'Blue Written', comment: 'new note', write_metadata: true }));
    expect(res.data.id).toBe(albumIdFor('Alpha', 'Blue Written'));
    expect(res.data.task_id).toEqual(expect.any(String));
    const task = await finished(res.data.task_id);
    expect(task).toMatchObject({ action: '修改专辑', counts: { success: 2 } });
    for (const file of [at('Blue', '01.flac'), at('Blue', '02.mp3')]) {
      expect((await probeTags(file)).album).toBe('Blue Written');
    }
    expect((await probeTags(at('Blue', '02.mp3'))).comment).toBe('new note');
    await waitFor(async () => (await albumIdOf('Blue Written')) === res.data.id, 'the library to follow the album rename');
    expect((await subsonic('getAlbum', { id: res.data.id })).album.songCount).toBe(2);
    await waitFor(async () => (await coverBytes(res.data.id)).equals(blueJpeg), 'the album picture to follow the rename');
    await waitFor(async () => Boolean((await subsonic('getAlbum', { id: res.data.id })).album.starred), 'the star to follow the rename');
    expect((await subsonic('getAlbum', { id: res.data.id })).album.userRating).toBe(4);
    expect((await subsonic('getStarred2')).starred2.album.map((a: { id: string }) => a.id)).toContain(res.data.id);

    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: task._id }));
    expect((await probeTags(at('Blue', '01.flac'))).album).toBe('Blue Sky');
    expect(await probeTags(at('Blue', '02.mp3'))).not.toHaveProperty('comment');
    expect((await probeTags(at('Blue', '02.mp3'))).album).toBe('Blue Sky');
    await waitFor(async () => (await albumIdOf('Blue Sky')) === id, 'the library to follow the undo');
    expect((await coverBytes(id)).equals(blueJpeg)).toBe(true);
    expect((await subsonic('getAlbum', { id })).album.starred).toBeTruthy();
    expect((await subsonic('unstar', { albumId: id })).status).toBe('ok');
    // The cover written into every file (same id: the library's own picture of the album gives way to it).
    const cover = expectOk(await call(app, admin, 'POST', '/apimt/post_album/', { id, album_img: dataUrl(blueJpeg), write_metadata: true }));
    expect(cover.data).toEqual({ id, task_id: expect.any(String) });
    expect(await finished(cover.data.task_id)).toMatchObject({ counts: { success: 2 } });
    for (const file of [at('Blue', '01.flac'), at('Blue', '02.mp3')]) expect((await readArtwork(file))?.mime).toBe('image/jpeg');
    await waitFor(async () => (await rt.library.entities.get('album', id)) === null, 'the overlay picture to give way to the written cover');
    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: cover.data.task_id }));
    expect(await readArtwork(at('Blue', '02.mp3'))).toBeNull();
  });

  it('delete_album: dry_run counts the files; the delete moves them with their .lrc into the trash as an undoable files.delete task', async () => {
    const id = (await albumIdOf('Gone Album'))!;
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/delete_album/', { id, dry_run: true }));
    expect(dry.data).toEqual({ task_id: null, total: 1, paths: [at('Gone', '01.mp3')] });
    expect(await exists(at('Gone', '01.mp3'))).toBe(true);
    const res = expectOk(await call(app, admin, 'POST', '/apimt/delete_album/', { id }));
    expect(res).toMatchObject({ message: '删除成功！', data: { total: 1 } });
    const task = await finished(res.data.task_id);
    expect(task).toMatchObject({ kind: 'files.delete', action: '删除专辑', counts: { success: 1 } });
    expect(await exists(at('Gone', '01.mp3'))).toBe(false);
    expect(await exists(path.join(media, '.tagsonic-trash', task._id, 'Gone', '01.lrc'))).toBe(true);
    await waitFor(async () => (await albumIdOf('Gone Album')) === undefined, 'the album to leave the library');
    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: task._id }));
    expect((await probeTags(at('Gone', '01.mp3'))).title).toBe('Gone One');
    expect(await exists(at('Gone', '01.lrc'))).toBe(true);
  });

  it('refuses unknown ids and bad pictures', async () => {
    expectError(await call(app, admin, 'POST', '/apimt/post_album/', { id: 'al-00000000000000000000', name: 'x' }), 404, 'TAGSONIC_ERR_LIBRARY_NOT_FOUND');
    expectError(await call(app, admin, 'POST', '/apimt/delete_album/', { id: 'nope' }), 404, 'TAGSONIC_ERR_LIBRARY_NOT_FOUND');
    const id = (await albumIdOf('Red Album'))!;
    expectError(await call(app, admin, 'POST', '/apimt/post_album/', { id, album_img: 'ftp://example.com/x.jpg' }), 400, 'TAGSONIC_ERR_TAGS_BAD_COVER');
    expectError(await call(app, admin, 'POST', '/apimt/post_album/', { id, nope: 1 }), 400);
    expectError(await call(app, 'none', 'POST', '/apimt/post_album/', { id, name: 'x' }), 401);
  });
});

const artistIdOf = async (name: string) => {
  await rt.library.catalog.sync();
  return [...rt.library.catalog.artists.values()].find((a) => a.name === name)?._id;
};

describe('artists', () => {
  it('post_artist without write_metadata: name overlay, picture and description are the library\'s; the files keep their tags', async () => {
    const id = (await artistIdOf('Gamma'))!;
    const res = expectOk(await call(app, admin, 'POST', '/apimt/post_artist/', { id, name: 'Gamma Prime', description: '  A band.  ', artist_img: dataUrl(blueJpeg) }));
    expect(res).toMatchObject({ message: '修改成功！', data: { id, task_id: null } });
    expect((await subsonic('getArtist', { id })).artist.name).toBe('Gamma Prime');
    // Its albums and songs name it so too (the guest on its album keeps their own name).
    const red = (await subsonic('getAlbum', { id: (await albumIdOf('Red Album'))! })).album;
    expect(red.artist).toBe('Gamma Prime');
    expect(red.song.map((song: any) => [song.artist, song.displayAlbumArtist])).toEqual([['Gamma Prime', 'Gamma Prime'], ['Omega', 'Gamma Prime']]);
    expect((await subsonic('getArtistInfo2', { id })).artistInfo2.biography).toBe('A band.');
    expect((await coverBytes(id)).equals(blueJpeg)).toBe(true);
    expect((await probeTags(at('Red', '01.mp3'))).artist).toBe('Gamma');
    // Searched and indexed under the name shown.
    const found = (await subsonic('search3', { query: 'prime' })).searchResult3;
    expect(found.artist.map((a: any) => a.id)).toEqual([id]);
    expect(found.song.map((song: any) => song.title).sort()).toEqual(['Guest', 'Red One']);
    const byArtist = (await subsonic('getAlbumList2', { type: 'alphabeticalByArtist', size: '50' })).albumList2.album.map((a: any) => a.artist);
    expect(byArtist).toEqual([...byArtist].sort((a: string, b: string) => a.localeCompare(b)));
    expectOk(await call(app, admin, 'POST', '/apimt/post_artist/', { id, name: 'Gamma' }));
    expect((await subsonic('search3', { query: 'prime' })).searchResult3.artist ?? []).toEqual([]);
    expect((await subsonic('getArtist', { id })).artist.name).toBe('Gamma');
  });

  it('post_artist with write_metadata: a 修改艺术家 task renames only the matching part of "A/B"; undo_task puts the tags back', async () => {
    const id = (await artistIdOf('Alpha'))!;
    expectOk(await call(app, admin, 'POST', '/apimt/post_artist/', { id, description: 'Alpha\'s story', artist_img: dataUrl(blueJpeg) }));
    expect((await subsonic('star', { artistId: id })).status).toBe('ok');
    const res = expectOk(await call(app, admin, 'POST', '/apimt/post_artist/', { id, name: 'Alef', write_metadata: true }));
    expect(res.data.id).toBe(artistIdFor('Alef'));
    const task = await finished(res.data.task_id);
    expect(task).toMatchObject({ action: '修改艺术家', counts: { success: 2 } });
    expect((await probeTags(at('Blue', '01.flac'))).artist).toBe('Alef/Beta');
    expect((await probeTags(at('Blue', '02.mp3'))).artist).toBe('Alef');
    await waitFor(async () => (await artistIdOf('Alef')) === res.data.id, 'the library to follow the artist rename');
    expect(await artistIdOf('Beta')).toBeTruthy();
    // The picture and biography the library kept for Alpha go with the new id.
    await waitFor(async () => (await subsonic('getArtistInfo2', { id: res.data.id })).artistInfo2.biography === 'Alpha\'s story', 'the biography to follow the rename');
    expect((await coverBytes(res.data.id)).equals(blueJpeg)).toBe(true);
    await waitFor(async () => Boolean((await subsonic('getArtist', { id: res.data.id })).artist.starred), 'the star to follow the artist rename');
    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: task._id }));
    expect((await probeTags(at('Blue', '01.flac'))).artist).toBe('Alpha/Beta');
    expect((await probeTags(at('Blue', '02.mp3'))).artist).toBe('Alpha');
    await waitFor(async () => (await artistIdOf('Alpha')) === id, 'the library to follow the undo');
    expect((await subsonic('getArtist', { id })).artist.starred).toBeTruthy();
    expect((await subsonic('unstar', { artistId: id })).status).toBe('ok');
  });

  it('delete_artist takes the albums where it is the album artist, not its guest tracks on another\'s album', async () => {
    const id = (await artistIdOf('Omega'))!;
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/delete_artist/', { id, dry_run: true }));
    expect(dry.data).toEqual({ task_id: null, total: 1, paths: [at('Bye', '01.mp3')] });
    const res = expectOk(await call(app, admin, 'POST', '/apimt/delete_artist/', { id }));
    const task = await finished(res.data.task_id);
    expect(task).toMatchObject({ kind: 'files.delete', action: '删除艺术家', counts: { success: 1 } });
    expect(await exists(at('Bye', '01.mp3'))).toBe(false);
    expect(await exists(at('Red', '02.mp3'))).toBe(true);
    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: task._id }));
    expect(await exists(at('Bye', '01.mp3'))).toBe(true);
    expectError(await call(app, admin, 'POST', '/apimt/delete_artist/', { id: 'ar-00000000000000000000' }), 404, 'TAGSONIC_ERR_LIBRARY_NOT_FOUND');
  });

  it('fetch_artists asks the kuwo source (the default) and names it in each candidate', async () => {
    const found = expectOk(await call(app, admin, 'POST', '/apimt/fetch_artists/', { title: ' Jay Chou ', full_path: at('Red', '01.mp3') }));
    expect(found.data).toEqual([{ artist: '周杰伦', artist_img: 'https://img1.kuwo.cn/star/starheads/500/s4s26/58/3409744034.jpg', desc: '华语流行乐男歌手。', resource: 'kuwo' }]);
    expect(kuwo.seen.some((r) => r.query.get('ft') === 'artist' && r.query.get('all') === 'Jay Chou')).toBe(true);
    expect(expectOk(await call(app, admin, 'POST', '/apimt/fetch_artists/', { title: 'nobody', resource: 'kuwo' })).data).toEqual([]);
    expectError(await call(app, admin, 'POST', '/apimt/fetch_artists/', { title: ' ' }), 400, 'TAGSONIC_ERR_SCRAPE_TITLE_REQUIRED');
    expectError(await call(app, admin, 'POST', '/apimt/fetch_artists/', { title: 'x', full_path: '/etc/passwd' }), 403);
  });

  it('a candidate\'s picture URL is downloaded by the server (the source\'s own address is trusted) and served as the artist\'s picture', async () => {
    const id = (await artistIdOf('Delta'))!;
    expectOk(await call(app, admin, 'POST', '/apimt/post_artist/', { id, artist_img: `${kuwo.baseUrl()}/star/pic.jpg`, description: '华语流行乐男歌手。' }));
    expect((await coverBytes(id)).equals(blueJpeg)).toBe(true);
    expect((await subsonic('getArtistInfo2', { id })).artistInfo2.biography).toBe('华语流行乐男歌手。');
    // Another private address is no cover source.
    expectError(await call(app, admin, 'POST', '/apimt/post_artist/', { id, artist_img: 'http://127.0.0.1:9/x.jpg' }), 400);
  });
});

/** Uploads a picture as the cover drawer does (/apimt/upload_image/, field upload_file) → the URL it answers. */
async function upload(picture: Buffer): Promise<string> {
  const boundary = '----tagsonic-upload';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="upload_file"; filename="c.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    picture,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return expectOk(await call(app, admin, 'POST', '/apimt/upload_image/', payload, { 'content-type': `multipart/form-data; boundary=${boundary}` })).data;
}

describe('genres', () => {
  it('post_genre takes the URL /apimt/upload_image/ answered', async () => {
    const url = await upload(blueJpeg);
    expect(url).toMatch(/^\/apimt\/uploaded_image\//);
    expectOk(await call(app, admin, 'POST', '/apimt/post_genre/', { id: 'Jazz', genre_img: url }));
    expect((await coverBytes(genreCoverIdFor('Jazz'))).equals(blueJpeg)).toBe(true);
    expectOk(await call(app, admin, 'POST', '/apimt/post_genre/', { id: 'Jazz', genre_img: '' }));
    expect((await subsonic('getGenres')).genres.genre.find((g: any) => g.value === 'Jazz')).not.toHaveProperty('coverArt');
  });

  it('post_genre: the picture shows in getGenres as the genre\'s cover id; genre_playlist_cover suggests the genre\'s album covers', async () => {
    const res = expectOk(await call(app, admin, 'POST', '/apimt/post_genre/', { id: 'pop', genre_img: dataUrl(blueJpeg) }));
    expect(res).toMatchObject({ message: '修改成功！', data: { id: 'Pop' } });
    const pop = (await subsonic('getGenres')).genres.genre.find((g: any) => g.value === 'Pop');
    expect(pop.coverArt).toBe(genreCoverIdFor('Pop'));
    expect((await coverBytes(pop.coverArt)).equals(blueJpeg)).toBe(true);
    expect((await subsonic('getGenres')).genres.genre.find((g: any) => g.value === 'Rock')).not.toHaveProperty('coverArt');

    // Red Album has no picture yet: no suggestion; with a cover.jpg in its folder, it is one.
    expect(expectOk(await call(app, admin, 'GET', '/apimt/genre_playlist_cover/?id=Pop')).data).toEqual([]);
    await writeFile(at('Red', 'cover.jpg'), blueJpeg);
    await scanner.scan();
    const redId = (await albumIdOf('Red Album'))!;
    const suggestions = expectOk(await call(app, admin, 'GET', '/apimt/genre_playlist_cover/?id=Pop')).data;
    expect(suggestions).toEqual([{ coverArt: redId, artist: 'Gamma', album: 'Red Album' }]);
    // A suggestion is taken by its cover id: the server reads the album's picture itself.
    await writeFile(at('Red', 'cover.jpg'), redJpeg);
    await scanner.scan();
    expectOk(await call(app, admin, 'POST', '/apimt/post_genre/', { id: 'Pop', genre_img: suggestions[0].coverArt }));
    expect((await coverBytes(genreCoverIdFor('Pop'))).equals(redJpeg)).toBe(true);
    expectError(await call(app, admin, 'POST', '/apimt/post_genre/', { id: 'Pop', genre_img: (await albumIdOf('Bye'))! }), 400, 'TAGSONIC_ERR_TAGS_BAD_COVER');
    expectError(await call(app, admin, 'GET', '/apimt/genre_playlist_cover/?id=Nope'), 404, 'TAGSONIC_ERR_LIBRARY_NOT_FOUND');
    expectError(await call(app, admin, 'POST', '/apimt/post_genre/', { id: 'Nope', genre_img: '' }), 404, 'TAGSONIC_ERR_LIBRARY_NOT_FOUND');
  });

  it('delete_genre: a 删除流派 task drops the genre from every track (a track whose only genre it was has none); undo_task puts it back', async () => {
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/delete_genre/', { id: 'Rock', dry_run: true }));
    expect(dry.data).toEqual({ task_id: null, total: 2, paths: [at('Blue', '01.flac'), at('Blue', '02.mp3')] });
    const res = expectOk(await call(app, admin, 'POST', '/apimt/delete_genre/', { id: 'Rock' }));
    expect(res).toMatchObject({ message: '删除成功！', data: { total: 2 } });
    const task = await finished(res.data.task_id);
    expect(task).toMatchObject({ action: '删除流派', counts: { success: 2 } });
    expect((await probeTags(at('Blue', '01.flac'))).genre).toBe('Jazz');
    expect(await probeTags(at('Blue', '02.mp3'))).not.toHaveProperty('genre');
    await waitFor(async () => !(await subsonic('getGenres')).genres.genre.some((g: any) => g.value === 'Rock'), 'the genre to leave the library');
    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: task._id }));
    expect((await probeTags(at('Blue', '01.flac'))).genre).toBe('Rock; Jazz');
    expect((await probeTags(at('Blue', '02.mp3'))).genre).toBe('Rock');
  });
});

/** A multipart body as a browser's FormData sends it. */
function multipart(parts: Array<{ name: string; value: string; filename?: string }>): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----tagsonic-entities-test';
  const chunks = parts.map((p) => `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"\r\nContent-Type: audio/x-mpegurl` : ''}\r\n\r\n${p.value}\r\n`);
  return { payload: Buffer.from(`${chunks.join('')}--${boundary}--\r\n`), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('playlists', () => {
  it('import_playlist (multipart field file) reports matched and unmatched lines; put_playlist renames it and gives it a picture', async () => {
    const m3u = `#EXTM3U\n#EXTINF:1,Gamma - Red One\n${at('Red', '01.mp3')}\n#EXTINF:1,Nobody\n${at('Red', 'missing.mp3')}\n`;
    const { payload, headers } = multipart([{ name: 'file', value: m3u, filename: 'Road Trip.m3u8' }]);
    const res = expectOk(await call(app, admin, 'POST', '/apimt/import_playlist/', payload, headers));
    expect(res).toMatchObject({ message: '导入成功！', data: { name: 'Road Trip', matched: 1, unmatched: [{ line: 5, entry: at('Red', 'missing.mp3') }] } });
    const id = res.data.id;
    const named = multipart([{ name: 'name', value: 'Named' }, { name: 'file', value: m3u, filename: 'x.m3u' }]);
    expect(expectOk(await call(app, admin, 'POST', '/apimt/import_playlist/', named.payload, named.headers)).data.name).toBe('Named');
    expectError(await call(app, admin, 'POST', '/apimt/import_playlist/', { file: m3u }), 400, 'TAGSONIC_ERR_PLAYLIST_IMPORT_BODY');

    expectOk(await call(app, admin, 'POST', '/apimt/put_playlist/', { id, name: 'Renamed Trip', description: 'for the car', playlist_img: dataUrl(blueJpeg) }));
    const list = (await subsonic('getPlaylist', { id })).playlist;
    expect(list).toMatchObject({ name: 'Renamed Trip', comment: 'for the car', coverArt: id });
    expect((await coverBytes(id)).equals(blueJpeg)).toBe(true);
    expectOk(await call(app, admin, 'POST', '/apimt/put_playlist/', { id, playlist_img: '' }));
    expect((await subsonic('getPlaylists')).playlists.playlist.find((p: any) => p.id === id).coverArt).not.toBe(id);
    expectError(await call(app, admin, 'POST', '/apimt/put_playlist/', { id: 'pl-nope', name: 'x' }), 404, 'TAGSONIC_ERR_PLAYLIST_NOT_FOUND');
    // Another user's (private) playlist is not theirs to change, its picture included: to them it does not exist.
    await rt.users.create({ username: 'alice', password: USER_PASSWORD });
    const alice = await login(app, 'alice', USER_PASSWORD);
    expectError(await call(app, alice, 'POST', '/apimt/put_playlist/', { id, playlist_img: dataUrl(blueJpeg) }), 404, 'TAGSONIC_ERR_PLAYLIST_NOT_FOUND');
    expect(await rt.library.entities.get('playlist', id)).toBeNull();
    // Deleting the playlist takes its picture's file too.
    expectOk(await call(app, admin, 'POST', '/apimt/put_playlist/', { id, playlist_img: dataUrl(blueJpeg) }));
    const saved = rt.library.entities.imagePath((await rt.library.entities.get('playlist', id))!.image!);
    expect(await exists(saved)).toBe(true);
    const second = expectOk(await call(app, admin, 'POST', '/apimt/import_playlist/', payload, headers)).data.id;
    expect((await subsonic('deletePlaylist', { id })).status).toBe('ok');
    expect(await rt.library.entities.get('playlist', id)).toBeNull();
    expect(await exists(saved)).toBe(false);
    // A POST without the CSRF token changes nothing.
    expectError(await call(app, { cookieOnly: admin }, 'POST', '/apimt/put_playlist/', { id: second, name: 'No Token' }), 403);
  });
});

describe('hot_artists', () => {
  it('lists the most albums while nobody has played anything, then the signed-in user\'s most played artists', async () => {
    const before = expectOk(await call(app, admin, 'GET', '/apimt/hot_artists/')).data;
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((a: any) => a.play_count === 0)).toBe(true);
    expect(before[0]).toEqual({ id: expect.any(String), name: expect.any(String), cover: before[0].id, play_count: 0, album_count: expect.any(Number) });
    await rt.library.catalog.sync();
    const bye = [...rt.library.catalog.tracks.values()].find((t) => t.title === 'Bye One')!;
    await subsonic('scrobble', { id: bye._id });
    await subsonic('scrobble', { id: bye._id });
    const after = expectOk(await call(app, admin, 'GET', '/apimt/hot_artists/')).data;
    expect(after).toEqual([{ id: artistIdFor('Omega'), name: 'Omega', cover: artistIdFor('Omega'), play_count: 2, album_count: expect.any(Number) }]);
  });
});
