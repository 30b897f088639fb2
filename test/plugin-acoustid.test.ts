/**
 * The built-in AcoustID tag source end to end: plugins/acoustid bundled by the builtin loader, loaded through
 * loadPlugin with real host services (media roots, store, journal), so `caps.fingerprint.compute` runs the real
 * fpcalc on a real audio file, and pointed by TAGSONIC_SOURCE_URL_ACOUSTID at a local server replaying
 * `/v2/lookup` answers shaped as AcoustID documents them (https://acoustid.org/webservice#lookup, meta
 * recordings releasegroups releases tracks). The request shape — POST form with client, duration, the file's own
 * fingerprint and meta — is asserted, as are the mapping and the errors.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { createTagJournal } from '@tagsonic/core/tags';
import type { PluginHostServices } from '@tagsonic/workers/plugin-runtime';
import { makeAudio } from './support/audio.ts';
import { failure, sourceFake } from './support/source-fake.ts';

const run = promisify(execFile);

const RECORDING = 'b9ad642e-b012-41c7-b72a-42cf4911f9ff';
const ALBUM = '1f8b7c2d-3e4a-4b5c-8d9e-0a1b2c3d4e02';
const BEST_OF = '3b0d9e4f-5a6c-4d7e-8f1a-2c3d4e5f6a04';
const OTHER = '5d2f1a6b-7c8e-4f9a-8b3c-4e5f6a7b8c06';

/** A lookup answer: two AcoustID tracks; the better one's recording is on an album and a two-disc compilation. */
const ANSWER = {
  status: 'ok',
  results: [
    { id: 'weak-track', score: 0.41, recordings: [{ id: OTHER, title: 'Someone Else', duration: 200, artists: [{ id: 'a2', name: 'Other Band' }] }] },
    {
      id: '9ff43b6a-4f16-427c-93c2-92307ca505e0', score: 0.97,
      recordings: [{
        id: RECORDING, title: '吻别', duration: 305,
        artists: [{ id: 'a1', name: '张学友', joinphrase: ' & ' }, { id: 'a3', name: 'Guest' }],
        releasegroups: [
          { id: 'rg1', type: 'Album', title: '吻别', releases: [
            { id: ALBUM, title: '吻别', country: 'TW', date: { year: 1993, month: 3, day: 1 }, medium_count: 1, track_count: 10,
              mediums: [{ position: 1, format: 'CD', track_count: 10, tracks: [{ id: 't1', position: 1, title: '吻别', artists: [{ id: 'a1', name: '张学友' }] }] }] },
          ] },
          { id: 'rg2', type: 'Album', secondarytypes: ['Compilation'], title: '真情精选', releases: [
            { id: BEST_OF, date: { year: 2001 }, medium_count: 2,
              mediums: [{ position: 1, format: 'CD', track_count: 12, tracks: [] }, { position: 2, format: 'CD', track_count: 14, tracks: [{ id: 't2', position: 7, title: '吻别' }] }] },
          ] },
        ],
      }, { id: 'c1d2e3f4-0000-4000-8000-000000000000' }],
    },
  ],
};

function lookupAnswer(client: string): [number, string, unknown] {
  switch (client) {
    case 'bad-key': return [400, 'application/json', { status: 'error', error: { code: 4, message: 'invalid API key' } }];
    case 'outage': return [503, 'text/html', '<html>Service Unavailable</html>'];
    case 'renamed': return [200, 'application/json', { status: 'ok', results: [{ id: 'x', score: 0.9, recordings: [{ id: RECORDING, title: 7 }] }] }];
    case 'nothing': return [200, 'application/json', { status: 'ok', results: [] }];
    default: return [200, 'application/json', ANSWER];
  }
}

const fake = sourceFake('acoustid', (urlPath, _query, request) =>
  urlPath === '/v2/lookup' && request.method === 'POST'
    ? lookupAnswer(new URLSearchParams(request.body).get('client') ?? '')
    : [404, 'application/json', { status: 'error', error: { code: 1, message: 'unknown method' } }]);

let dir: string;
let media: string;
let song: string;
let store: Store;
let host: PluginHostServices;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-acoustid-'));
  media = path.join(dir, 'media');
  await mkdir(media);
  song = path.join(media, '01 吻别.flac');
  await makeAudio(song, { seconds: 12, freq: 523 });
  store = await openEmbeddedStore({ dir: path.join(dir, 'store') });
  host = { roots: await MediaRoots.open({ media }), store, journal: createTagJournal({ store, blobDir: path.join(dir, 'blobs') }) };
}, 30_000);

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const load = (client_key?: string) => fake.load(client_key === undefined ? undefined : { config: { client_key } }, { host });
const search = (client: string | undefined, options: Record<string, unknown>) =>
  load(client).then((plugin) => plugin.invoke('search', { title: '', artist: '', album: '', limit: 15, ...options }));

describe('acoustid: search by the file\'s fingerprint', () => {
  it('POSTs the file\'s own fingerprint with client, duration and meta, and maps recordings × releases, best score first', async () => {
    const before = fake.seen.length;
    const songs = await search('good-key', { path: song, title: '吻别' });
    const requests = fake.seen.slice(before);
    expect(requests).toHaveLength(1);
    const form = new URLSearchParams(requests[0]!.body);
    const independent = JSON.parse((await run('fpcalc', ['-json', song]).catch((e: { stdout: string }) => e)).stdout) as { fingerprint: string; duration: number };
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/v2/lookup', headers: expect.objectContaining({ 'content-type': 'application/x-www-form-urlencoded' }) });
    expect(Object.fromEntries(form)).toEqual({
      client: 'good-key',
      duration: String(Math.round(independent.duration)),
      fingerprint: independent.fingerprint,
      meta: 'recordings releasegroups releases tracks',
      format: 'json',
    });
    expect(independent.fingerprint.length).toBeGreaterThan(50);
    expect(songs).toEqual([
      { id: `${RECORDING}/${ALBUM}`, name: '吻别', artist: '张学友 & Guest', album: '吻别', album_img: `https://coverartarchive.org/release/${ALBUM}/front`,
        year: '1993-03-01', tracknumber: 1, totaltracks: 10, discnumber: 1, totaldiscs: 1, duration: 305, resource: 'acoustid' },
      { id: `${RECORDING}/${BEST_OF}`, name: '吻别', artist: '张学友 & Guest', album: '真情精选', album_img: `https://coverartarchive.org/release/${BEST_OF}/front`,
        year: '2001', tracknumber: 7, totaltracks: 14, discnumber: 2, totaldiscs: 2, duration: 305, resource: 'acoustid' },
      { id: OTHER, name: 'Someone Else', artist: 'Other Band', album: null, album_img: null, year: null, tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: 200, resource: 'acoustid' },
    ]);
  }, 30_000);

  it('without a file there is nothing to fingerprint: no request, no candidates', async () => {
    const before = fake.seen.length;
    await expect(search('good-key', { title: '吻别' })).resolves.toEqual([]);
    await expect(search('nothing', { path: song })).resolves.toEqual([]);
    expect(fake.seen.length - before).toBe(1);
  });

  it('refuses a path outside the media roots before any request', async () => {
    const before = fake.seen.length;
    const error = await failure(search('good-key', { path: '/etc/passwd' }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_DENIED' });
    expect(fake.seen.length).toBe(before);
  });

  it('names a missing or refused client key, an outage by status, and a changed response by field', async () => {
    expect(await failure(search(undefined, { path: song }))).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('client API key') });
    expect(await failure(search('bad-key', { path: song }))).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('invalid API key') });
    expect(await failure(search('outage', { path: song }))).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'AcoustID answered HTTP 503 to /v2/lookup.', details: expect.objectContaining({ status: 503 }) });
    expect(await failure(search('renamed', { path: song }))).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'response shape changed: results[0].recordings[0].title' });
  }, 30_000);
});
