/**
 * The built-in LRCLIB tag source end to end: plugins/lrclib bundled by the runtime's builtin loader, loaded through
 * loadPlugin (the real manifest check, sandbox and guarded http), pointed by TAGSONIC_SOURCE_URL_LRCLIB at a
 * local server that replays LRCLIB's documented answers (https://lrclib.net/docs) and records every request,
 * so the request shape — path, query names, User-Agent — is asserted as well as the mapping and the errors.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPluginError } from '@tagsonic/sdk';
import { failure, sourceFake } from './support/source-fake.ts';
import { builtinPlugin, BUILTIN_PLUGINS_DIR, PLUGIN_BUILTIN_NOT_FOUND, PLUGIN_BUILTIN_UNAVAILABLE } from '../workers/src/plugin-runtime/builtin.ts';

const SYNCED = '[00:17.12] I feel your breath upon my neck\n[00:20.41] A soft caress as cold as death\n';
const PLAIN = 'I feel your breath upon my neck\nA soft caress as cold as death\n';

/** Records shaped as LRCLIB's documentation shows them (GET /api/get and each item of GET /api/search). */
const WANT_TO_LIVE = {
  id: 3396226, trackName: 'I Want to Live', artistName: 'Borislav Slavov',
  albumName: "Baldur's Gate 3 (Original Game Soundtrack)", duration: 233, instrumental: false, plainLyrics: PLAIN, syncedLyrics: SYNCED,
};
const WANT_TO_LIVE_EDIT = { ...WANT_TO_LIVE, id: 3396227, albumName: 'I Want to Live (Single)', duration: 180, syncedLyrics: null };
const PLAIN_ONLY = { ...WANT_TO_LIVE, id: 11, syncedLyrics: null };
const INSTRUMENTAL = { ...WANT_TO_LIVE, id: 12, trackName: 'Main Theme', instrumental: true, plainLyrics: null, syncedLyrics: null };
const NOT_FOUND = { code: 404, name: 'TrackNotFound', message: 'Failed to find specified track' };

/** What the fake answers for a search, by track_name (LRCLIB's own answer when nothing special is asked). */
function searchAnswer(name: string): [number, string, unknown] {
  switch (name) {
    case 'outage': return [503, 'application/json', { code: 503, name: 'ServiceUnavailable', message: 'Try again later' }];
    case 'cdn': return [502, 'text/html', '<html><body>502 Bad Gateway</body></html>'];
    case 'renamed': return [200, 'application/json', [WANT_TO_LIVE, { ...WANT_TO_LIVE_EDIT, trackName: undefined, title: 'I Want to Live' }]];
    case 'wrapped': return [200, 'application/json', { results: [WANT_TO_LIVE] }];
    case 'nothing': return [200, 'application/json', []];
    default: return [200, 'application/json', [WANT_TO_LIVE, WANT_TO_LIVE_EDIT]];
  }
}

function getAnswer(id: string): [number, string, unknown] {
  const record = [WANT_TO_LIVE, WANT_TO_LIVE_EDIT, PLAIN_ONLY, INSTRUMENTAL].find((t) => String(t.id) === id);
  if (record) return [200, 'application/json', record];
  if (id === '500') return [500, 'application/json', { code: 500, name: 'InternalError', message: 'oops' }];
  if (id === '13') return [200, 'application/json', { ...WANT_TO_LIVE, syncedLyrics: 42 }];
  return [404, 'application/json', NOT_FOUND];
}

const fake = sourceFake('lrclib', (path, query) => {
  const get = /^\/api\/get\/([^/]+)$/.exec(path);
  return path === '/api/search' ? searchAnswer(query.get('track_name') ?? '') : get ? getAnswer(get[1]!) : [404, 'application/json', NOT_FOUND];
});
const { seen } = fake;
const load = () => fake.load();

describe('built-in plugins: plugins/<id> bundled at first use', () => {
  it('finds plugins/lrclib, bundles its TypeScript once (the SDK inside), and its manifest passes loadPlugin', async () => {
    const first = builtinPlugin('lrclib');
    expect(builtinPlugin('lrclib')).toBe(first); // cached: one build per process
    const { id, dir, manifest, code } = await first;
    expect({ id, dir }).toEqual({ id: 'lrclib', dir: `${BUILTIN_PLUGINS_DIR}/lrclib` });
    expect(manifest).toMatchObject({ id: 'lrclib', kind: 'tag-source', permissions: { http: { hosts: [{ host: 'lrclib.net' }] } } });
    expect(code).toContain('module.exports');
    expect(code).not.toMatch(/require\(["']@tagsonic\/sdk["']\)/);
    const plugin = await load();
    expect(plugin.baseUrl).toBe(fake.baseUrl());
  });

  it('refuses an unknown id, and an id that is a path, with TAGSONIC_ERR_PLUGIN_BUILTIN_NOT_FOUND', async () => {
    for (const id of ['no-such-source', '../sdk', 'LRCLIB']) {
      const error = await failure(builtinPlugin(id));
      expect(error).toMatchObject({ code: PLUGIN_BUILTIN_NOT_FOUND, kind: 'not_found' });
    }
  });

  it('reports a source that does not build by file and line, and does not keep the failure: the fixed source builds', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'tagsonic-builtin-'));
    try {
      mkdirSync(path.join(root, 'broken', 'src'), { recursive: true });
      writeFileSync(path.join(root, 'broken', 'manifest.json'), '{"id":"broken"}');
      writeFileSync(path.join(root, 'broken', 'src', 'index.ts'), 'export const search = async () => [;\n');
      const error = await failure(builtinPlugin('broken', { dir: root }));
      expect(error).toMatchObject({ code: PLUGIN_BUILTIN_UNAVAILABLE });
      expect(error.message).toMatch(/^The built-in plugin broken does not build: .*index\.ts:1: /);
      writeFileSync(path.join(root, 'broken', 'src', 'index.ts'), 'export const search = async () => [];\n');
      await expect(builtinPlugin('broken', { dir: root })).resolves.toMatchObject({ id: 'broken', code: expect.stringContaining('search') });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('lrclib: search', () => {
  it('asks /api/search with track_name, artist_name and album_name and a User-Agent naming Tagsonic, and maps LRCLIB\'s records', async () => {
    const plugin = await load();
    const songs = await plugin.invoke('search', { title: ' I Want to Live ', artist: 'Borislav Slavov', album: "Baldur's Gate 3 (Original Game Soundtrack)", limit: 15 });
    const request = seen.at(-1)!;
    expect(request.path).toBe('/api/search');
    expect(Object.fromEntries(request.query)).toEqual({
      track_name: 'I Want to Live', artist_name: 'Borislav Slavov', album_name: "Baldur's Gate 3 (Original Game Soundtrack)",
    });
    expect(request.headers['user-agent']).toMatch(/^Tagsonic-lrclib\/1\.0\.0 \(/);
    expect(songs).toEqual([
      { id: '3396226', name: 'I Want to Live', artist: 'Borislav Slavov', album: "Baldur's Gate 3 (Original Game Soundtrack)", album_img: null, year: null,
        tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: 233, resource: 'lrclib' },
      { id: '3396227', name: 'I Want to Live', artist: 'Borislav Slavov', album: 'I Want to Live (Single)', album_img: null, year: null,
        tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: 180, resource: 'lrclib' },
    ]);
  });

  it('leaves blank artist and album out of the query, puts the closest duration first, and keeps to the limit', async () => {
    const plugin = await load();
    const songs = (await plugin.invoke('search', { title: 'I Want to Live', artist: '', album: ' ', duration: 181, limit: 1 })) as { id: string }[];
    expect([...seen.at(-1)!.query.keys()]).toEqual(['track_name']);
    expect(songs.map((s) => s.id)).toEqual(['3396227']);
    await expect(plugin.invoke('search', { title: 'nothing', artist: '', album: '', limit: 5 })).resolves.toEqual([]);
  });

  it('does not ask LRCLIB without a title (it answers 400 to that)', async () => {
    const plugin = await load();
    const before = seen.length;
    await expect(plugin.invoke('search', { title: '  ', artist: 'Borislav Slavov', album: '', limit: 5 })).resolves.toEqual([]);
    expect(seen.length).toBe(before);
  });

  it('reports an HTTP error by its status, even when the body is a CDN\'s HTML page', async () => {
    const plugin = await load();
    let error = await failure(plugin.invoke('search', { title: 'outage', artist: '', album: '', limit: 5 }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'LRCLIB answered HTTP 503 to /api/search.' });
    expect(error.details).toMatchObject({ status: 503 });
    expect(isPluginError(error)).toBe(true);
    error = await failure(plugin.invoke('search', { title: 'cdn', artist: '', album: '', limit: 5 }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'LRCLIB answered HTTP 502 to /api/search.' });
    expect(plugin.sandbox.stats().lastError).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'LRCLIB answered HTTP 502 to /api/search.' });
  });

  it('names the field when LRCLIB\'s answer changed shape', async () => {
    const plugin = await load();
    let error = await failure(plugin.invoke('search', { title: 'renamed', artist: '', album: '', limit: 5 }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'response shape changed: [1].trackName' });
    error = await failure(plugin.invoke('search', { title: 'wrapped', artist: '', album: '', limit: 5 }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'response shape changed: (root array)' });
  });
});

describe('lrclib: lyrics', () => {
  it('fetches /api/get/{id} and prefers the synced LRC, else the plain text', async () => {
    const plugin = await load();
    await expect(plugin.invoke('lyrics', { id: '3396226' })).resolves.toBe(SYNCED);
    expect(seen.at(-1)).toMatchObject({ path: '/api/get/3396226', headers: expect.objectContaining({ 'user-agent': expect.stringMatching(/^Tagsonic-lrclib\//) }) });
    expect([...seen.at(-1)!.query.keys()]).toEqual([]);
    await expect(plugin.invoke('lyrics', { id: '11' })).resolves.toBe(PLAIN);
  });

  it('returns null for an instrumental and for a track LRCLIB does not have (404 TrackNotFound)', async () => {
    const plugin = await load();
    await expect(plugin.invoke('lyrics', { id: '12' })).resolves.toBeNull();
    await expect(plugin.invoke('lyrics', { id: '999999' })).resolves.toBeNull();
  });

  it('reports HTTP errors and changed fields, and refuses an id that is not LRCLIB\'s before any request', async () => {
    const plugin = await load();
    let error = await failure(plugin.invoke('lyrics', { id: '500' }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'LRCLIB answered HTTP 500 to /api/get/500.' });
    error = await failure(plugin.invoke('lyrics', { id: '13' }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'response shape changed: syncedLyrics' });
    const before = seen.length;
    error = await failure(plugin.invoke('lyrics', { id: '../search?track_name=x' }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(seen.length).toBe(before);
  });
});
