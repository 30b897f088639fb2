/**
 * The worker's plugin pool against the real registry on a real embedded store: scored searches (with the
 * duration read from a real file), the registry's say on every call (unknown, disabled, a new active version,
 * changed settings), PLUGIN_CHANGED_EVENT, health flushed to the registry, auto-disable propagated, and the
 * built-in iTunes source run through the pool against the local fake of its API.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBus, RPC_SUBJECTS, type Bus } from '@tagsonic/core/bus';
import { MediaRoots } from '@tagsonic/core/media';
import { PLUGIN_CHANGED_EVENT, StorePluginRegistry, type PluginPackage } from '@tagsonic/core/plugins';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { createTagJournal } from '@tagsonic/core/tags';
import type { Manifest } from '@tagsonic/sdk';
import { PluginPool, servePluginInvocations } from '@tagsonic/workers/plugin-pool';
import { builtinPlugin } from '../workers/src/plugin-runtime/builtin.ts';
import { makeAudio } from './support/audio.ts';
import { failure, sourceFake } from './support/source-fake.ts';

let home: string;
let store: Store;
let bus: Bus;
let registry: StorePluginRegistry;
let roots: MediaRoots;
let pool: PluginPool | undefined;

const itunes = sourceFake('itunes', (p, query) => {
  if (p !== '/search') return [404, 'text/plain', 'no'];
  return [200, 'text/javascript; charset=utf-8', {
    resultCount: 1,
    results: [{
      wrapperType: 'track', kind: 'song', trackId: 1440833098, trackName: query.get('term')?.includes('Yesterday') ? 'Yesterday' : 'Other',
      artistName: 'The Beatles', collectionName: 'Help!', artworkUrl100: 'https://is1-ssl.mzstatic.com/image/thumb/Music/a/b/100x100bb.jpg',
      releaseDate: '1965-08-06T07:00:00Z', trackNumber: 13, trackCount: 14, discNumber: 1, discCount: 1, trackTimeMillis: 125_000,
    }],
  }];
});

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-pool-'));
  await mkdir(path.join(home, 'media'));
  store = await openEmbeddedStore({ dir: path.join(home, 'data') });
  bus = createMemoryBus({ onError: () => {} });
  registry = new StorePluginRegistry(store);
  await registry.init();
  roots = await MediaRoots.open({ media: path.join(home, 'media') });
});
afterEach(async () => {
  await pool?.close();
  pool = undefined;
  await bus.close();
  await store.close();
  await rm(home, { recursive: true, force: true });
});

const manifest = (over: Partial<Manifest> = {}): Manifest => ({
  id: 'echo', name: 'Echo', version: '1.0.0', description: 'Answers with the query.', kind: 'tag-source', entry: 'index.js', permissions: {}, ...over,
});
/** A source that answers one candidate made of the query (its duration included) and a tag naming its version. */
const echo = (version = '1.0.0', extra = ''): PluginPackage => ({
  manifest: manifest({ version }),
  code: `module.exports = {
    search: async (o) => [
      { id: '7', name: o.title + ' (Live)', artist: 'Someone Else', album: o.album, album_img: null, year: 2001, tracknumber: '03/10', totaltracks: 10,
        discnumber: 1, totaldiscs: 1, duration: o.duration ?? null, resource: '' },
      { id: '8', name: o.title, artist: o.artist, album: null, album_img: null, year: null, tracknumber: null, totaltracks: null,
        discnumber: null, totaldiscs: null, resource: 'v${version}' },
    ],
    lyrics: async ({ id }) => '[00:01.00]v${version} ' + id,
    ${extra}
  };`,
});

function makePool(options: { maxConsecutiveFailures?: number; env?: Record<string, string> } = {}): PluginPool {
  pool = new PluginPool({
    registry, bus, roots, store,
    journal: createTagJournal({ store, blobDir: path.join(home, 'blobs') }),
    env: options.env ?? {},
    flushEveryMs: 60_000,
    load: { sandbox: { maxConsecutiveFailures: options.maxConsecutiveFailures ?? 5 } },
  });
  return pool;
}

describe('plugin pool', () => {
  it('scores a source\'s candidates against the query and reads the duration from the file', async () => {
    await registry.install(echo(), 'upload');
    await registry.setEnabled('echo', true);
    const file = path.join(home, 'media', 'song.mp3');
    await makeAudio(file, { seconds: 2 });
    const songs = await makePool().searchSongs('echo', { title: 'Yesterday', artist: 'The Beatles', album: 'Help!', path: 'song.mp3' });
    expect(songs).toHaveLength(2);
    expect(songs[0]).toMatchObject({ id: '7', name: 'Yesterday (Live)', year: '2001', tracknumber: 3, totaltracks: 10, resource: 'echo', title_score: 1, artist_score: -2, album_score: 2 });
    expect(songs[0].duration).toBeCloseTo(2, 0);
    expect(songs[1]).toMatchObject({ id: '8', resource: 'v1.0.0', title_score: 2, artist_score: 2, album_score: 0, duration: null });
    // Outside the media roots, or empty title: refused before the plugin runs.
    expect(await failure(pool!.searchSongs('echo', { title: 'x', path: '/etc/passwd' }))).toMatchObject({ code: 'TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS' });
    expect(await failure(pool!.searchSongs('echo', { title: '  ' }))).toMatchObject({ code: 'TAGSONIC_ERR_SCRAPE_TITLE_REQUIRED' });
  });

  it('asks the registry on every call: unknown, disabled, a newly active version and changed settings', async () => {
    makePool();
    expect(await failure(pool!.invoke('nope', 'lyrics', { id: '1' }))).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_NOT_INSTALLED', kind: 'not_found' });
    await registry.install(echo(), 'upload');
    expect(await failure(pool!.invoke('echo', 'lyrics', { id: '1' }))).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_DISABLED', details: { pluginId: 'echo', reason: 'admin' } });
    await registry.setEnabled('echo', true);
    expect(await pool!.invoke('echo', 'lyrics', { id: '1' })).toBe('[00:01.00]v1.0.0 1');
    // No event published: the registry read on the call sees the new active version anyway.
    await registry.install(echo('1.1.0'), 'upload');
    expect(await pool!.invoke('echo', 'lyrics', { id: '1' })).toBe('[00:01.00]v1.1.0 1');
    await registry.activate('echo', '1.0.0');
    await bus.publish(PLUGIN_CHANGED_EVENT, { id: 'echo' });
    expect(await pool!.invoke('echo', 'lyrics', { id: '2' })).toBe('[00:01.00]v1.0.0 2');
    await registry.setEnabled('echo', false);
    expect(await failure(pool!.invoke('echo', 'lyrics', { id: '1' }))).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_DISABLED' });
  });

  it('flushes health deltas to the registry and propagates an auto-disable to it', async () => {
    await registry.install(echo('1.0.0', `broken: async () => { throw new Error('site changed'); },`), 'upload');
    await registry.setEnabled('echo', true);
    makePool({ maxConsecutiveFailures: 2 });
    await pool!.invoke('echo', 'lyrics', { id: '1' });
    await pool!.flush();
    expect((await registry.get('echo'))!.health).toMatchObject({ calls: 1, failures: 0, lastSuccessAt: expect.any(String), lastError: null });
    await pool!.flush(); // nothing new: nothing added
    expect((await registry.get('echo'))!.health.calls).toBe(1);

    expect(await failure(pool!.invoke('echo', 'broken'))).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_THREW', message: expect.stringContaining('site changed') });
    expect(await failure(pool!.invoke('echo', 'broken'))).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_THREW' });
    // The second failure in a row disables it here and, without waiting for the periodic flush, in the registry.
    await expect.poll(async () => (await registry.get('echo'))!.enabled).toBe(false);
    const record = (await registry.get('echo'))!;
    expect(record).toMatchObject({ disabledReason: 'auto', health: { calls: 3, failures: 2, lastError: { code: 'TAGSONIC_ERR_PLUGIN_THREW' } } });
    expect(await failure(pool!.invoke('echo', 'lyrics', { id: '1' }))).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_DISABLED', details: { reason: 'auto' } });
    // An administrator switches it back on (no event reaches this worker): the next call runs a fresh sandbox.
    await registry.setEnabled('echo', true);
    expect(await pool!.invoke('echo', 'lyrics', { id: '1' })).toBe('[00:01.00]v1.0.0 1');
  });

  it('serves tagsonic.rpc.plugins.invoke on the bus, with plugin error codes passing through', async () => {
    await registry.install(echo(), 'upload');
    await registry.setEnabled('echo', true);
    const sub = await servePluginInvocations(bus, makePool(), 2);
    const songs = await bus.request<Array<{ title_score: number }>>(RPC_SUBJECTS.pluginsInvoke, { pluginId: 'echo', export: 'search', options: { title: 'Yesterday' } });
    expect(songs.map((s) => s.title_score)).toEqual([1, 2]);
    await expect(bus.request(RPC_SUBJECTS.pluginsInvoke, { pluginId: 'echo', export: 'nothing' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_NO_EXPORT' });
    await expect(bus.request(RPC_SUBJECTS.pluginsInvoke, { pluginId: 'echo', export: '__proto__.x' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVOKE_INVALID' });
    await sub.close();
  });

  it('lets a source search other sources through the pool (smart_tag\'s sources.search): enabled ones only, scored, never round in a loop', async () => {
    await registry.install(echo(), 'upload');
    await registry.setEnabled('echo', true);
    // Two aggregators that could call each other round: the pool refuses the second hop.
    const aggregator = (id: string, other: string): PluginPackage => ({
      manifest: manifest({ id, name: id, permissions: { sources: { ids: ['echo', other], reason: 'Merges other sources' } } }),
      code: `module.exports = { search: async (o, caps) => {
        if (o.title === 'loop') return caps.sources.search({ id: '${other}', query: o });
        const songs = await caps.sources.search({ id: 'echo', query: { title: o.title, artist: o.artist, album: o.album, limit: 5 } });
        return songs.filter((s) => s.title_score === 2);
      } };`,
    });
    for (const [id, other] of [['meta', 'meta2'], ['meta2', 'meta']]) {
      await registry.install(aggregator(id, other), 'upload');
      await registry.setEnabled(id, true);
    }
    makePool();
    const songs = await pool!.searchSongs('meta', { title: 'Yesterday', artist: 'The Beatles' });
    // The inner search was scored by the host (the filter kept the exact title), and each candidate keeps its own resource.
    expect(songs).toEqual([expect.objectContaining({ id: '8', name: 'Yesterday', resource: 'v1.0.0', title_score: 2, artist_score: 2 })]);
    // Host errors reach the calling plugin's code by message; what it does not catch fails its own call.
    expect((await failure(pool!.searchSongs('meta', { title: 'loop' }))).message).toContain('meta cannot search meta2');
    await registry.setEnabled('echo', false);
    expect((await failure(pool!.searchSongs('meta', { title: 'Yesterday' }))).message).toContain('The plugin echo is disabled');
  });

  it('runs the built-in iTunes source from the registry against its API fake, pointed there by TAGSONIC_SOURCE_URL_ITUNES', async () => {
    const { manifest: m, code } = await builtinPlugin('itunes');
    await registry.syncBuiltins([{ manifest: m as Manifest, code }]);
    const songs = await makePool({ env: { TAGSONIC_SOURCE_URL_ITUNES: itunes.baseUrl() } }).searchSongs('itunes', { title: 'Yesterday', artist: 'The Beatles' });
    expect(songs[0]).toMatchObject({ name: 'Yesterday', artist: 'The Beatles', album: 'Help!', resource: 'itunes', title_score: 2, artist_score: 2, album_score: 0 });
    expect(itunes.seen.at(-1)!.query.get('term')).toContain('Yesterday');
  });
});
