/**
 * Artist pictures and biographies (artist-meta.ts) and 艺术家封面 (batchAutoUpdateArtist) over the scanned small
 * library (generated audio files): the store's picture is what Subsonic's getCoverArt serves for the artist id and
 * its text getArtistInfo2's biography; POST /apimt/batch_auto_update_artist/ makes one item per library artist
 * without a picture, each looked up through the real built-in Kuwo source pointed (TAGSONIC_SOURCE_URL_KUWO) at a
 * local replay of Kuwo's artist search and artist info; the misses keep the source's answer as a candidate;
 * undo_task puts back what the task replaced. Real store, bus, workers, sandbox, files and HTTP; no mocks.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, rest, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';

const run = promisify(execFile);

let h: SubsonicHarness;
let red: Buffer;

interface Ref {
  id: string;
  name: string;
}

beforeAll(async () => {
  h = await startSubsonic();
  const picture = async (color: string) => {
    const file = path.join(h.home, `${color}.jpg`);
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `color=c=${color}:s=64x64`, '-frames:v', '1', file]);
    return readFile(file);
  };
  red = await picture('red');
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const artists = async (): Promise<Ref[]> => (await ok(h.app, 'getArtists')).artists.index.flatMap((i: { artist: Ref[] }) => i.artist);
const coverBytes = async (id: string): Promise<Buffer> => {
  const res = await rest(h.app, 'getCoverArt', { id });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
};

describe('the artist store', () => {
  it('serves a saved picture for the artist id and its biography in getArtistInfo(2); the previous value stays for undo', async () => {
    const [artist] = await artists();
    const before = await coverBytes(artist!.id);
    expect(before.equals(red)).toBe(false);
    expect((await ok(h.app, 'getArtistInfo2', { id: artist!.id })).artistInfo2.biography).toBeUndefined();

    const set = await h.rt.library.artists.set(artist!.id, { name: artist!.name, image: red, description: '  A biography.  ', source: 'user', taskId: 'store-test' });
    expect(set.before.image).toBeNull();
    expect(set.after).toMatchObject({ description: 'A biography.', source: 'user', image: { mime: 'image/jpeg', size: red.length } });
    expect(await readdir(path.join(h.rt.config.dataDir, 'artists'))).toEqual([set.after.image!.file]);

    const info = (await ok(h.app, 'getArtistInfo2', { id: artist!.id })).artistInfo2;
    expect(info.biography).toBe('A biography.');
    expect(info.largeImageUrl).toContain(`getCoverArt.view?id=${artist!.id}`);
    expect((await ok(h.app, 'getArtistInfo', { id: artist!.id })).artistInfo.biography).toBe('A biography.');
    expect((await coverBytes(artist!.id)).equals(red)).toBe(true);

    // Undo of that write: the album cover is the artist's picture again, the file is gone.
    expect(await h.rt.library.artists.undoTask('store-test')).toEqual([artist!.name]);
    expect((await coverBytes(artist!.id)).equals(before)).toBe(true);
    expect((await ok(h.app, 'getArtistInfo2', { id: artist!.id })).artistInfo2.biography).toBeUndefined();
    expect(await readdir(path.join(h.rt.config.dataDir, 'artists'))).toEqual([]);
  });

  it('refuses bytes that are no picture, and artists the library does not have', async () => {
    const [artist] = await artists();
    await expect(h.rt.library.artists.set(artist!.id, { name: artist!.name, image: Buffer.from('<html>not a picture</html>'), source: 'user' }))
      .rejects.toMatchObject({ code: 'TAGSONIC_ERR_LIBRARY_ARTIST_IMAGE_INVALID' });
    await expect(h.rt.library.artists.set('ar-00000000000000000000', { name: 'nobody', image: red, source: 'user' }))
      .rejects.toMatchObject({ code: 'TAGSONIC_ERR_LIBRARY_NOT_FOUND' });
  });
});
