/**
 * A source's request pacing under load (iTunes: one request every 3 s, SOURCE_RATE_PER_SEC): the built-in itunes
 * and lrclib plugins bundled and loaded through the real loadPlugin, sandbox and guarded http, against replaying
 * fakes, and smart_tag searching them through a host searchSource that passes the per-source budget on as the
 * worker's pool does. Asserted: a search whose pacing turn would come after its invocation's time is up answers
 * TAGSONIC_ERR_PLUGIN_HTTP_BUSY at once (with the retry time) instead of timing out; such failures, and timeouts
 * spent mostly waiting for turns, are counted in health but never auto-disable the source, while a timeout of
 * the source's own still counts; smart_tag skips a busy source without waiting and a slow one at its deadline,
 * and answers with the others' candidates.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { createTagJournal } from '@tagsonic/core/tags';
import { scoreSongs } from '@tagsonic/workers/plugin-pool';
import { loadPlugin, type LoadedPlugin, type PluginHostServices } from '@tagsonic/workers/plugin-runtime';
import { failure, sourceFake } from './support/source-fake.ts';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const TRACK = {
  wrapperType: 'track', kind: 'song', trackId: 1441164430, artistName: 'The Beatles', collectionName: 'Help!', trackName: 'Yesterday',
  releaseDate: '1965-08-06T12:00:00Z', discCount: 1, discNumber: 1, trackCount: 14, trackNumber: 13, trackTimeMillis: 125_667,
};
/** iTunes answers at once, except a term starting with "slow" (2.5 s). */
const itunes = sourceFake('itunes', async (path, query) => {
  if (path !== '/search') return [404, 'text/html', 'Not Found'];
  if ((query.get('term') ?? '').startsWith('slow')) await delay(2_500);
  return [200, 'application/json', { resultCount: 1, results: [TRACK] }];
});
/** LRCLIB answers at once, except a title ending in "(slow)" (3 s). */
const lrclib = sourceFake('lrclib', async (path, query) => {
  if (path !== '/api/search') return [404, 'application/json', { code: 404 }];
  if ((query.get('track_name') ?? '').endsWith('(slow)')) await delay(3_000);
  return [200, 'application/json', [{ id: 7, trackName: query.get('track_name'), artistName: 'The Beatles', albumName: 'Help!', duration: 125, instrumental: false, plainLyrics: 'x', syncedLyrics: null }]];
});
const smartTag = sourceFake('smart_tag', () => [404, 'text/plain', 'smart_tag makes no requests']);

const QUERY = { title: 'Yesterday', artist: 'The Beatles', album: 'Help!', limit: 10 };

/** Runs `search` and says how long it took and how it ended. */
async function timed(plugin: LoadedPlugin, title: string) {
  const started = performance.now();
  try {
    await plugin.invoke('search', { ...QUERY, title });
    return { ok: true as const, ms: performance.now() - started };
  } catch (error) {
    return { ok: false as const, ms: performance.now() - started, error: error as Error & { code: string; details?: Record<string, unknown> } };
  }
}

describe('pacing: a busy source fails fast and is not auto-disabled', () => {
  it('seven concurrent iTunes searches under a 5 s limit: two get turns (0 s, 3 s), five answer BUSY at once; none counts towards auto-disable', async () => {
    const plugin = await itunes.load({}, { sandbox: { timeoutMs: 5_000 } });
    const outcomes = await Promise.all(Array.from({ length: 7 }, () => timed(plugin, 'Yesterday')));
    const served = outcomes.filter((o) => o.ok);
    const busy = outcomes.filter((o) => !o.ok);
    expect(served).toHaveLength(2);
    expect(busy).toHaveLength(5);
    for (const o of busy) {
      expect(o.ms).toBeLessThan(1_000);
      expect(o.error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_HTTP_BUSY', details: { pluginId: 'itunes', retryAfterSec: expect.any(Number) } });
      expect(o.error.message).toMatch(/^iTunes is rate-limited to one request every 3 s; try again in \d+ s\.$/);
      expect(o.error.details!.retryAfterSec).toBeGreaterThanOrEqual(4);
    }
    const stats = plugin.sandbox.stats();
    expect(stats).toMatchObject({ calls: 7, failures: 5, consecutiveFailures: 0, disabled: false, disabledReason: null });
    expect(stats.lastError).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_HTTP_BUSY' });
    expect(itunes.seen.length).toBeGreaterThanOrEqual(2);
  }, 20_000);

  it('a timeout spent mostly waiting for a turn does not count; a timeout of the source\'s own does', async () => {
    const paced = await itunes.load({}, { sandbox: { timeoutMs: 5_000 } });
    const [first, waited] = await Promise.all([timed(paced, 'Yesterday'), timed(paced, 'slow Yesterday')]);
    expect(first.ok).toBe(true);
    // Waited 3 s for its turn, then the answer took 2.5 s: stopped at 5 s, 3 s of it waiting.
    expect(waited.error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_TIMEOUT', details: { pacingWaitMs: expect.any(Number) } });
    expect(waited.error!.message).toMatch(/s of it waiting for turns under the source's request pacing/);
    expect(paced.sandbox.stats()).toMatchObject({ calls: 2, failures: 1, consecutiveFailures: 0 });

    const own = await itunes.load({}, { sandbox: { timeoutMs: 1_500 } });
    const slow = await timed(own, 'slow Yesterday');
    expect(slow.error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_TIMEOUT' });
    expect(slow.error!.message).not.toMatch(/waiting/);
    expect(own.sandbox.stats()).toMatchObject({ calls: 1, failures: 1, consecutiveFailures: 1 });
  }, 20_000);
});

describe('pacing: smart_tag skips a busy or slow source and answers with the others', () => {
  let dir: string;
  let store: Store;
  let roots: MediaRoots;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-pacing-'));
    store = await openEmbeddedStore({ dir: path.join(dir, 'store') });
    roots = await MediaRoots.open({ media: dir });
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** smart_tag over the given loaded sources, each searched with the budget smart_tag gives it (as the pool does). */
  const smartTagOver = (sources: Record<string, LoadedPlugin>, config: Record<string, unknown>) => {
    const searchSource: NonNullable<PluginHostServices['searchSource']> = async (id, query, budget) =>
      scoreSongs(id, query, await sources[id]!.invoke('search', query, undefined, budget));
    const host: PluginHostServices = { roots, store, journal: createTagJournal({ store, blobDir: path.join(dir, 'blobs') }), searchSource };
    return smartTag.load({ config }, { host });
  };

  it('iTunes busy with another search: smart_tag does not wait its 3 s turn, logs it skipped, and returns LRCLIB\'s candidates', async () => {
    const itunesPlugin = await itunes.load();
    const sources = { itunes: itunesPlugin, lrclib: await lrclib.load() };
    await itunesPlugin.invoke('search', QUERY); // takes iTunes' turn: the next one is 3 s away
    const plugin = await smartTagOver(sources, { sources: 'itunes,lrclib', source_timeout: 2 });
    const started = performance.now();
    const songs = (await plugin.invoke('search', QUERY)) as Array<Record<string, unknown>>;
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(songs.map((s) => s.resource)).toEqual(['lrclib']);
    expect(plugin.logs()).toEqual([expect.objectContaining({ level: 'info', message: 'source skipped',
      fields: expect.objectContaining({ source: 'itunes', reason: 'busy', code: 'TAGSONIC_ERR_PLUGIN_HTTP_BUSY' }) })]);
    expect(itunesPlugin.sandbox.stats()).toMatchObject({ consecutiveFailures: 0, disabled: false });
  }, 20_000);

  it('LRCLIB slow: smart_tag stops waiting at its source timeout and returns iTunes\' candidates', async () => {
    const sources = { itunes: await itunes.load(), lrclib: await lrclib.load() };
    const plugin = await smartTagOver(sources, { sources: 'lrclib,itunes', source_timeout: 1 });
    const started = performance.now();
    const songs = (await plugin.invoke('search', { ...QUERY, title: 'Yesterday (slow)' })) as Array<Record<string, unknown>>;
    const ms = performance.now() - started;
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(2_000);
    expect(songs.map((s) => s.resource)).toEqual(['itunes']);
    expect(plugin.logs()).toEqual([expect.objectContaining({ level: 'info', message: 'source skipped',
      fields: expect.objectContaining({ source: 'lrclib', reason: 'too slow', code: 'TAGSONIC_ERR_PLUGIN_TIMEOUT' }) })]);
  }, 20_000);

  it('sources.search checks the deadline any aggregator passes: 100 ms to 60 s', async () => {
    const manifest = { id: 'aggregator', name: 'Aggregator', version: '1.0.0', description: 'Asks one source.', kind: 'tag-source', entry: 'index.js',
      permissions: { sources: { ids: ['lrclib'], reason: 'merges it' } } };
    const host: PluginHostServices = { roots, store, journal: createTagJournal({ store, blobDir: path.join(dir, 'blobs') }), searchSource: async () => [] };
    const plugin = loadPlugin({ manifest, env: {}, host, code: `exports.search = (o, caps) => caps.sources.search({ id: 'lrclib', query: o, timeoutMs: o.timeoutMs });` });
    try {
      for (const timeoutMs of [5, 120_000, 'soon']) {
        const error = await failure(plugin.invoke('search', { title: 'x', timeoutMs }));
        expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('timeoutMs') });
      }
      await expect(plugin.invoke('search', { title: 'x', timeoutMs: 100 })).resolves.toEqual([]);
    } finally {
      plugin.close();
    }
  });

});
