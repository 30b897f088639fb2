/**
 * The built-in MusicBrainz tag source end to end: plugins/musicbrainz bundled by the runtime's builtin loader,
 * loaded through loadPlugin (the real manifest check, sandbox, guarded http and its 1 request/s pacing), pointed
 * by TAGSONIC_SOURCE_URL_MUSICBRAINZ at a local server that replays WS/2 recording-search answers shaped as
 * MusicBrainz documents them (https://musicbrainz.org/doc/MusicBrainz_API/Search) and records every request, so
 * the request shape — path, Lucene query, fmt, limit, User-Agent — is asserted as well as the mapping and the errors.
 * Each test loads a fresh plugin and makes one or two requests: the runtime spaces a plugin's requests 1 s apart.
 */
import { describe, expect, it } from 'vitest';
import { isPluginError } from '@tagsonic/sdk';
import type { LoadedPlugin } from '@tagsonic/workers/plugin-runtime';
import { builtinPlugin } from '../workers/src/plugin-runtime/builtin.ts';
import { failure, sourceFake } from './support/source-fake.ts';

const YESTERDAY = '8a2b1b3c-6b0e-4d5f-9a4e-0f3a3b6c7d01';
const HELP = '1f8b7c2d-3e4a-4b5c-8d9e-0a1b2c3d4e02';
const SINGLE = '2a9c8d3e-4f5b-4c6d-9e0f-1b2c3d4e5f03';
const COMPILATION = '3b0d9e4f-5a6c-4d7e-8f1a-2c3d4e5f6a04';
const VINYL = '4c1e0f5a-6b7d-4e8f-9a2b-3d4e5f6a7b05';
const LIVE = '5d2f1a6b-7c8e-4f9a-8b3c-4e5f6a7b8c06';

/** A WS/2 recording search answer: the recording, its credited artists, and each release with the medium holding it. */
const ANSWER = {
  created: '2026-11-25T15:00:00.000Z', count: 2, offset: 0,
  recordings: [
    {
      id: YESTERDAY, score: 100, title: 'Yesterday', length: 125_666, video: null,
      'artist-credit': [{ name: 'The Beatles', joinphrase: '', artist: { id: 'b10bbbfc-cf9e-42e0-be17-e2c3e1d2600d', name: 'The Beatles' } }],
      releases: [
        { id: HELP, title: 'Help!', status: 'Official', date: '1965-08-06', 'track-count': 14, 'medium-count': 1,
          media: [{ position: 1, format: 'CD', track: [{ id: 't1', number: '13', title: 'Yesterday', length: 125_666 }], 'track-count': 14, 'track-offset': 12 }] },
        { id: SINGLE, title: 'Yesterday', status: 'Official', date: '1965',
          media: [{ position: 1, format: '7" Vinyl', track: [{ id: 't2', number: 'A', title: 'Yesterday' }], 'track-count': 2, 'track-offset': 0 }] },
        { id: COMPILATION, title: '1', 'track-count': 27,
          media: [{ position: 2, track: [{ id: 't3', number: '11', position: 11, title: 'Yesterday' }], 'track-count': 0 }] },
      ],
    },
    {
      id: LIVE, score: 90, title: 'Yesterday (live)', length: 181_000,
      'artist-credit': [{ name: 'Paul McCartney', joinphrase: ' & ' }, { name: 'Wings', joinphrase: '' }],
    },
  ],
};

/** What the fake answers, by the recording phrase of the query (MusicBrainz's own answer when nothing special is asked). */
function searchAnswer(query: string): [number, string, unknown] {
  const title = /^recording:"((?:[^"\\]|\\.)*)"/.exec(query)?.[1] ?? '';
  switch (title) {
    case 'outage': return [503, 'text/html', '<html><body>Your requests are exceeding the allowable rate limit.</body></html>'];
    case 'renamed': return [200, 'application/json', { ...ANSWER, recordings: [ANSWER.recordings[0], { ...ANSWER.recordings[1], title: undefined, name: 'x' }] }];
    case 'wrapped': return [200, 'application/json', { 'recording-list': ANSWER.recordings }];
    case 'bad track': return [200, 'application/json', { recordings: [{ ...ANSWER.recordings[0], releases: [{ id: VINYL, title: 'x', media: [{ track: [{ position: '1' }] }] }] }] }];
    case 'vinyl': return [200, 'application/json', { recordings: [{ id: YESTERDAY, title: 'Side', releases: [{ id: VINYL, title: 'LP', media: [{ position: 1, track: [{ number: 'B2' }], 'track-count': 7, 'track-offset': 8 }] }, { id: 'not-an-mbid', title: 'Bootleg' }] }] }];
    case 'nothing': return [200, 'application/json', { created: '2026-11-25T15:00:00.000Z', count: 0, offset: 0, recordings: [] }];
    default: return [200, 'application/json', ANSWER];
  }
}

const fake = sourceFake('musicbrainz', (path, query) =>
  path === '/ws/2/recording' ? searchAnswer(query.get('query') ?? '') : [404, 'application/json', { error: 'Not Found' }],
);
const { seen } = fake;
const load = () => fake.load();

const search = (plugin: LoadedPlugin, options: { title: string; artist?: string; album?: string; duration?: number; limit?: number }) =>
  plugin.invoke('search', { artist: '', album: '', limit: 15, ...options });

describe('musicbrainz: the built-in plugin', () => {
  it('bundles plugins/musicbrainz, grants musicbrainz.org only (covers are linked, not fetched), and takes the administrator\'s base URL', async () => {
    const { manifest } = await builtinPlugin('musicbrainz');
    expect(manifest).toMatchObject({ id: 'musicbrainz', kind: 'tag-source', permissions: { http: { hosts: [{ host: 'musicbrainz.org' }] } } });
    expect(JSON.stringify(manifest)).not.toContain('coverartarchive'); // toMatchObject already holds the hosts to exactly one
    expect((await load()).baseUrl).toBe(fake.baseUrl());
  });
});

describe('musicbrainz: search', () => {
  it('asks /ws/2/recording with a Lucene query, fmt=json, the limit and a User-Agent naming Tagsonic, and maps each (recording, release)', async () => {
    const plugin = await load();
    const songs = await search(plugin, { title: ' Yesterday ', artist: 'The Beatles', album: 'Help!', limit: 15 });
    const request = seen.at(-1)!;
    expect(request.path).toBe('/ws/2/recording');
    expect(Object.fromEntries(request.query)).toEqual({ query: 'recording:"Yesterday" AND artist:"The Beatles" AND release:"Help!"', fmt: 'json', limit: '15' });
    expect(request.headers['user-agent']).toMatch(/^Tagsonic-musicbrainz\/1\.0\.0 \( .+ \)$/);
    const common = { name: 'Yesterday', artist: 'The Beatles', duration: 126, resource: 'musicbrainz' };
    expect(songs).toEqual([
      { ...common, id: `${YESTERDAY}/${HELP}`, album: 'Help!', album_img: `https://coverartarchive.org/release/${HELP}/front`, year: '1965-08-06',
        tracknumber: 13, totaltracks: 14, discnumber: 1, totaldiscs: 1 },
      // "A" is a side, not a track number: the medium's offset says it is the first track.
      { ...common, id: `${YESTERDAY}/${SINGLE}`, album: 'Yesterday', album_img: `https://coverartarchive.org/release/${SINGLE}/front`, year: '1965',
        tracknumber: 1, totaltracks: 2, discnumber: 1, totaldiscs: null },
      // No date, a track count of 0 (not entered) and no medium count: unknown is null, never '' or 0.
      { ...common, id: `${YESTERDAY}/${COMPILATION}`, album: '1', album_img: `https://coverartarchive.org/release/${COMPILATION}/front`, year: null,
        tracknumber: 11, totaltracks: null, discnumber: 2, totaldiscs: null },
      // A recording on no release is still a candidate; the credit joins names with their join phrases.
      { id: LIVE, name: 'Yesterday (live)', artist: 'Paul McCartney & Wings', album: null, album_img: null, year: null,
        tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: 181, resource: 'musicbrainz' },
    ]);
  });

  it('escapes quotes and backslashes inside the phrases, leaves blank artist and album out, sorts by duration and keeps to the limit', async () => {
    const plugin = await load();
    const songs = (await search(plugin, { title: 'Say "Hi" \\o/ AND (live)', artist: ' ', album: '', duration: 180, limit: 2 })) as { id: string }[];
    expect(Object.fromEntries(seen.at(-1)!.query)).toEqual({ query: 'recording:"Say \\"Hi\\" \\\\o/ AND (live)"', fmt: 'json', limit: '2' });
    expect(songs.map((s) => s.id)).toEqual([LIVE, `${YESTERDAY}/${HELP}`]);
  });

  it('does not ask MusicBrainz without a title, and returns [] when nothing matches', async () => {
    const plugin = await load();
    const before = seen.length;
    await expect(search(plugin, { title: '  ', artist: 'The Beatles' })).resolves.toEqual([]);
    expect(seen.length).toBe(before);
    await expect(search(plugin, { title: 'nothing' })).resolves.toEqual([]);
  });

  it('reads a vinyl "B2" as no track number unless the medium\'s offset says, and links no cover for an id that is not an MBID', async () => {
    const plugin = await load();
    const songs = (await search(plugin, { title: 'vinyl' })) as { tracknumber: number | null; album_img: string | null }[];
    expect(songs.map((s) => [s.tracknumber, s.album_img])).toEqual([[9, `https://coverartarchive.org/release/${VINYL}/front`], [null, null]]);
  });
});

describe('musicbrainz: errors', () => {
  it('reports an HTTP error by its status, even when the body is the rate limiter\'s HTML page', async () => {
    const plugin = await load();
    const error = await failure(search(plugin, { title: 'outage' }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'MusicBrainz answered HTTP 503 to /ws/2/recording.' });
    expect(error.details).toMatchObject({ status: 503 });
    expect(isPluginError(error)).toBe(true);
    expect(plugin.sandbox.stats().lastError).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM' });
  });

  it('names the field when MusicBrainz\'s answer changed shape', async () => {
    const plugin = await load();
    let error = await failure(search(plugin, { title: 'renamed' }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'response shape changed: recordings[1].title' });
    error = await failure(search(plugin, { title: 'wrapped' }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'response shape changed: recordings' });
    expect(error.details).toMatchObject({ field: 'recordings' });
  });

  it('names a nested field too (a track position that is not a number)', async () => {
    const plugin = await load();
    const error = await failure(search(plugin, { title: 'bad track' }));
    expect(error).toMatchObject({ message: 'response shape changed: recordings[0].releases[0].media[0].track[0].position' });
  });
});
