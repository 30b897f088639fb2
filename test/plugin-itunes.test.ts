/**
 * The built-in iTunes tag source end to end: plugins/itunes bundled by the runtime's builtin loader, loaded through
 * loadPlugin (the real manifest and settings check, sandbox and guarded http), pointed by TAGSONIC_SOURCE_URL_ITUNES
 * at a local server that replays the iTunes Search API's documented answers
 * (https://performance-partners.apple.com/search-api) and records every request, so the request shape — path and
 * query — is asserted as well as the mapping (full-size cover, release date, numbers) and the errors.
 */
import { describe, expect, it } from 'vitest';
import { isPluginError } from '@tagsonic/sdk';
import type { PluginSettings } from '@tagsonic/workers/plugin-runtime';
import { builtinPlugin } from '../workers/src/plugin-runtime/builtin.ts';
import { failure, sourceFake } from './support/source-fake.ts';

const ART = 'https://is1-ssl.mzstatic.com/image/thumb/Music115/v4/7a/0b/b6/7a0bb6b0-8a3f-4c1e-2c58-0a7f0d1f1f57/source/100x100bb.jpg';

/** Results shaped as Apple's Search API returns them for entity=song (wrapperType track, kind song). */
const YESTERDAY = {
  wrapperType: 'track', kind: 'song', artistId: 136975, collectionId: 1441164426, trackId: 1441164430,
  artistName: 'The Beatles', collectionName: 'Help!', trackName: 'Yesterday', collectionCensoredName: 'Help!', trackCensoredName: 'Yesterday',
  artworkUrl30: ART.replace('100x100bb', '30x30bb'), artworkUrl60: ART.replace('100x100bb', '60x60bb'), artworkUrl100: ART,
  releaseDate: '1965-08-06T12:00:00Z', collectionExplicitness: 'notExplicit', trackExplicitness: 'notExplicit',
  discCount: 1, discNumber: 1, trackCount: 14, trackNumber: 13, trackTimeMillis: 125_667, country: 'USA', currency: 'USD',
  primaryGenreName: 'Rock', isStreamable: true,
};
const YESTERDAY_LIVE = {
  ...YESTERDAY, trackId: 1441164999, collectionId: 1441164990, collectionName: 'Live at the BBC', trackCount: 69, trackNumber: 58,
  discCount: 2, discNumber: 2, trackTimeMillis: 155_000, releaseDate: '1994-11-30T08:00:00Z',
};
/** A song with little known: no album art, 0 for unknown numbers, no duration. */
const SPARSE = { wrapperType: 'track', kind: 'song', trackId: 77, trackName: 'Yesterday', artistName: 'Unknown Busker', trackNumber: 0, trackCount: 0 };
const VIDEO = { ...YESTERDAY, kind: 'music-video', trackId: 5 };

const answer = (results: unknown[]) => ({ resultCount: results.length, results });

/** What the fake answers for a search, by the first word of `term` (Apple's own answer when nothing special is asked). */
function searchAnswer(term: string): [number, string, unknown] {
  switch (term.split(' ')[0]) {
    case 'outage': return [503, 'application/json', { errorMessage: 'Service Unavailable' }];
    case 'throttled': return [403, 'text/html', '<html><body>403 Forbidden</body></html>'];
    case 'renamed': return [200, 'application/json', answer([YESTERDAY, { ...YESTERDAY_LIVE, trackName: undefined, name: 'Yesterday' }])];
    case 'bare': return [200, 'application/json', [YESTERDAY]];
    case 'typed': return [200, 'application/json', answer([{ ...YESTERDAY, trackNumber: '13' }])];
    case 'garbled': return [200, 'text/javascript', 'callback({"resultCount":0'];
    case 'sparse': return [200, 'application/json', answer([SPARSE, VIDEO])];
    case 'nothing': return [200, 'application/json', answer([])];
    default: return [200, 'application/json', answer([YESTERDAY, YESTERDAY_LIVE])];
  }
}

const fake = sourceFake('itunes', (path, query) =>
  path === '/search' ? searchAnswer(query.get('term') ?? '') : [404, 'text/html', '<html>Not Found</html>'],
);
const { seen } = fake;
const load = (settings?: PluginSettings) => fake.load(settings);

describe('itunes: the built-in plugin', () => {
  it('bundles plugins/itunes, passes loadPlugin with its single grant, and has no lyrics export (iTunes has no lyrics)', async () => {
    const { manifest, code } = await builtinPlugin('itunes');
    expect(manifest).toMatchObject({ id: 'itunes', kind: 'tag-source', permissions: { http: { hosts: [{ host: 'itunes.apple.com' }] } } });
    expect(code).not.toMatch(/require\(["']@tagsonic\/sdk["']\)/);
    const plugin = await load();
    expect(plugin.baseUrl).toBe(fake.baseUrl());
    await expect(plugin.invoke('lyrics', { id: '1441164430' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_NO_EXPORT' });
  });
});

describe('itunes: search', () => {
  it('asks /search with term=<title artist>, media=music, entity=song, the limit and the default store (us), and maps the songs', async () => {
    const plugin = await load();
    const songs = await plugin.invoke('search', { title: ' Yesterday ', artist: 'The Beatles', album: 'Help!', limit: 15 });
    const request = seen.at(-1)!;
    expect(request.path).toBe('/search');
    expect(Object.fromEntries(request.query)).toEqual({ term: 'Yesterday The Beatles', media: 'music', entity: 'song', limit: '15', country: 'us' });
    const cover = (size: string) => ART.replace('100x100bb', size);
    expect(songs).toEqual([
      { id: '1441164430', name: 'Yesterday', artist: 'The Beatles', album: 'Help!', album_img: cover('3000x3000bb'), year: '1965-08-06',
        tracknumber: 13, totaltracks: 14, discnumber: 1, totaldiscs: 1, duration: 126, resource: 'itunes' },
      { id: '1441164999', name: 'Yesterday', artist: 'The Beatles', album: 'Live at the BBC', album_img: cover('3000x3000bb'), year: '1994-11-30',
        tracknumber: 58, totaltracks: 69, discnumber: 2, totaldiscs: 2, duration: 155, resource: 'itunes' },
    ]);
  });

  it('searches the store chosen in the settings, leaves a blank artist out of the term, caps the limit at 200, and puts the closest duration first', async () => {
    const plugin = await load({ config: { country: 'CN' } });
    const songs = (await plugin.invoke('search', { title: 'Yesterday', artist: ' ', album: '', duration: 150, limit: 500 })) as { id: string }[];
    expect(Object.fromEntries(seen.at(-1)!.query)).toMatchObject({ term: 'Yesterday', limit: '200', country: 'cn' });
    expect(songs.map((s) => s.id)).toEqual(['1441164999', '1441164430']);
    const one = (await plugin.invoke('search', { title: 'Yesterday', artist: '', album: '', duration: 150, limit: 1 })) as { id: string }[];
    expect(one.map((s) => s.id)).toEqual(['1441164999']);
    await expect(plugin.invoke('search', { title: 'nothing', artist: '', album: '', limit: 5 })).resolves.toEqual([]);
  });

  it('gives null for what iTunes does not know (no artwork, 0 numbers, no date or duration) and skips results that are not songs', async () => {
    const plugin = await load();
    await expect(plugin.invoke('search', { title: 'sparse', artist: '', album: '', limit: 5 })).resolves.toEqual([
      { id: '77', name: 'Yesterday', artist: 'Unknown Busker', album: null, album_img: null, year: null,
        tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: null, resource: 'itunes' },
    ]);
  });

  it('does not ask iTunes without a title, and refuses a store setting that is not a country code before any request', async () => {
    let plugin = await load();
    const before = seen.length;
    await expect(plugin.invoke('search', { title: '  ', artist: 'The Beatles', album: '', limit: 5 })).resolves.toEqual([]);
    plugin = await load({ config: { country: 'usa' } });
    const error = await failure(plugin.invoke('search', { title: 'Yesterday', artist: '', album: '', limit: 5 }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(error.message).toMatch(/^"usa" is not a two-letter store country code/);
    expect(seen.length).toBe(before);
  });

  it('reports an HTTP error by its status, even when the body is an HTML page (Apple throttling with 403)', async () => {
    const plugin = await load();
    let error = await failure(plugin.invoke('search', { title: 'outage', artist: '', album: '', limit: 5 }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'iTunes answered HTTP 503 to /search.' });
    expect(error.details).toMatchObject({ status: 503 });
    expect(isPluginError(error)).toBe(true);
    error = await failure(plugin.invoke('search', { title: 'throttled', artist: '', album: '', limit: 5 }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'iTunes answered HTTP 403 to /search.' });
    expect(plugin.sandbox.stats().lastError).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'iTunes answered HTTP 403 to /search.' });
  });

  it('names the field when the answer changed shape', async () => {
    const plugin = await load();
    const cases: [string, string][] = [
      ['renamed', 'results[1].trackName'], ['bare', '(root object)'], ['typed', 'results[0].trackNumber'], ['garbled', '(not JSON)'],
    ];
    for (const [title, field] of cases) {
      const error = await failure(plugin.invoke('search', { title, artist: '', album: '', limit: 5 }));
      expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: `response shape changed: ${field}`, details: { field } });
    }
  });
});
