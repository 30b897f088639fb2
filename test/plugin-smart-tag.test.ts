/**
 * The built-in smart_tag source end to end: plugins/smart_tag bundled and loaded through loadPlugin, its
 * `caps.sources.search` served by a host searchSource that runs the real built-in lrclib, itunes and musicbrainz
 * plugins (each bundled, sandboxed, pointed at its own replaying fake) and scores their results with the plugin
 * pool's own scoreSongs — as the worker does. Asserted: every source asked in parallel with the file's query,
 * candidates merged and ranked by the host matcher (best 15, each with its own resource), a failing or missing
 * source skipped, every source failing named, and a configured source the manifest does not grant refused.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TagsonicError } from '@tagsonic/core/errors';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { createTagJournal } from '@tagsonic/core/tags';
import type { SearchOptions } from '@tagsonic/sdk';
import { scoreSongs } from '@tagsonic/workers/plugin-pool';
import type { PluginHostServices, PluginSettings } from '@tagsonic/workers/plugin-runtime';
import { failure, sourceFake, type SourceFake } from './support/source-fake.ts';

const HELP = '1f8b7c2d-3e4a-4b5c-8d9e-0a1b2c3d4e02';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const outage = (title: string | null) => title?.startsWith('outage') ?? false;

const itunes = sourceFake('itunes', (path, query) => {
  if (path !== '/search') return [404, 'text/html', 'Not Found'];
  if (outage(query.get('term'))) return [503, 'application/json', { errorMessage: 'Service Unavailable' }];
  const track = { wrapperType: 'track', kind: 'song', trackId: 1441164430, artistName: 'The Beatles', collectionName: 'Help!', trackName: 'Yesterday',
    artworkUrl100: 'https://is1-ssl.mzstatic.com/image/thumb/Music/x/source/100x100bb.jpg', releaseDate: '1965-08-06T12:00:00Z',
    discCount: 1, discNumber: 1, trackCount: 14, trackNumber: 13, trackTimeMillis: 125_667 };
  const live = { ...track, trackId: 1441164999, collectionName: 'Live at the BBC', trackCount: 69, trackNumber: 58, trackTimeMillis: 155_000 };
  return [200, 'application/json', { resultCount: 2, results: [live, track] }];
});

const musicbrainz = sourceFake('musicbrainz', (path, query) => {
  if (path !== '/ws/2/recording') return [404, 'application/json', { error: 'Not Found' }];
  const q = query.get('query') ?? '';
  if (q.includes('recording:"broken')) return [200, 'application/json', { 'recording-list': [] }];
  if (q.includes('recording:"outage')) return [503, 'text/html', '<html>rate limited</html>'];
  const credit = [{ name: 'The Beatles', joinphrase: '' }];
  return [200, 'application/json', {
    recordings: [
      { id: uuid(1), title: 'Yesterday', length: 125_000, 'artist-credit': credit, releases: [
        { id: HELP, title: 'Help!', date: '1965-08-06', media: [{ position: 1, track: [{ position: 13 }], 'track-count': 14 }] },
        // Sixteen compilations: more candidates than smart_tag returns.
        ...Array.from({ length: 16 }, (_, i) => ({ id: uuid(100 + i), title: `Best of Vol. ${i + 1}`, date: '2000' })),
      ] },
    ],
  }];
});

const lrclib = sourceFake('lrclib', (path, query) => {
  if (path !== '/api/search') return [404, 'application/json', { code: 404 }];
  if (outage(query.get('track_name'))) return [503, 'application/json', { code: 503, message: 'Try again later' }];
  return [200, 'application/json', [{ id: 7, trackName: 'Yesterday', artistName: 'Boyz II Men', albumName: 'II', duration: 190, instrumental: false, plainLyrics: 'x', syncedLyrics: null }]];
});

const FAKES: Record<string, SourceFake> = { itunes, musicbrainz, lrclib };
const smartTag = sourceFake('smart_tag', () => [404, 'text/plain', 'smart_tag makes no requests']);

/** The worker's searchSource, with the installed sources being the three fakes: a fresh sandbox per search. */
const asked: Array<{ id: string; query: SearchOptions }> = [];
const searchSource: NonNullable<PluginHostServices['searchSource']> = async (id, query) => {
  asked.push({ id, query });
  const fake = FAKES[id];
  if (!fake) throw new TagsonicError('not_found', 'TAGSONIC_ERR_PLUGIN_NOT_INSTALLED', `No tag source named ${id} is installed.`);
  const plugin = await fake.load();
  return scoreSongs(id, query, await plugin.invoke('search', query));
};

let dir: string;
let store: Store;
let host: PluginHostServices;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-smart-tag-'));
  store = await openEmbeddedStore({ dir: path.join(dir, 'store') });
  host = { roots: await MediaRoots.open({ media: dir }), store, journal: createTagJournal({ store, blobDir: path.join(dir, 'blobs') }), searchSource };
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const search = async (options: Partial<SearchOptions>, config: PluginSettings['config'] = { sources: 'lrclib,itunes,musicbrainz' }) => {
  asked.length = 0;
  const plugin = await smartTag.load({ config }, { host, sandbox: { timeoutMs: 20_000 } });
  return { plugin, result: plugin.invoke('search', { title: 'Yesterday', artist: 'The Beatles', album: 'Help!', limit: 20, ...options }) as Promise<Array<Record<string, unknown>>> };
};

describe('smart_tag: several sources at once, ranked by the host', () => {
  it('asks every configured source with the query, merges, ranks and returns the best 15, each with its own resource', async () => {
    const { result } = await search({ duration: 125 }, { sources: 'lrclib,itunes,musicbrainz', per_source: 20 });
    const songs = await result;
    expect(asked.map((a) => a.id).sort()).toEqual(['itunes', 'lrclib', 'musicbrainz']);
    expect(asked[0]!.query).toEqual({ title: 'Yesterday', artist: 'The Beatles', album: 'Help!', limit: 20, duration: 125 });
    expect(songs).toHaveLength(15);
    // Exact title, artist and album first (both sources), then the rest by score.
    expect(songs.slice(0, 2).map((s) => `${s.resource}:${s.album}`).sort()).toEqual(['itunes:Help!', 'musicbrainz:Help!']);
    expect(songs[0]).toMatchObject({ name: 'Yesterday', artist: 'The Beatles', album: 'Help!', title_score: 2, artist_score: 2, album_score: 2 });
    expect(songs[0]).not.toHaveProperty('accepted');
    const scores = songs.map((s) => (s.title_score as number) + (s.artist_score as number) + (s.album_score as number));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(new Set(songs.map((s) => s.resource))).toEqual(new Set(['itunes', 'musicbrainz']));
    // lrclib's other artist (−2) ranks below the 15 kept; it was a candidate all the same.
    expect(lrclib.seen.at(-1)!.query.get('track_name')).toBe('Yesterday');
  }, 30_000);

  it('skips a source that fails or is not installed, and notes it in its log', async () => {
    const { plugin, result } = await search({}, { sources: 'netease, musicbrainz,itunes', per_source: 20 });
    const songs = await result;
    expect(asked.map((a) => a.id).sort()).toEqual(['itunes', 'musicbrainz', 'netease']);
    expect(songs).toHaveLength(15);
    expect(plugin.logs()).toEqual([expect.objectContaining({ level: 'warn', message: 'source failed', fields: expect.objectContaining({ source: 'netease', code: 'TAGSONIC_ERR_PLUGIN_NOT_INSTALLED' }) })]);
  }, 30_000);

  it('a source whose answer changed is skipped too; when every source fails, each one\'s error is named', async () => {
    const broken = await (await search({ title: 'broken' }, { sources: 'musicbrainz,lrclib' })).result;
    expect(broken.map((s) => s.resource)).toEqual(['lrclib']);
    const error = await failure((await search({ title: 'outage' })).result);
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM' });
    expect(error.message).toMatch(/^Every source failed: /);
    for (const id of ['lrclib', 'itunes', 'musicbrainz']) expect(error.message).toContain(`${id}: `);
  }, 30_000);

  it('refuses a configured source its manifest does not grant, before searching anything', async () => {
    const error = await failure((await search({}, { sources: 'itunes,evil' })).result);
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('cannot search evil') });
    expect(asked).toEqual([]);
  });

  it('has nothing to do without a title', async () => {
    await expect((await search({ title: '' })).result).resolves.toEqual([]);
    expect(asked).toEqual([]);
  });
});
