/**
 * The built-in Spotify tag source end to end: plugins/spotify bundled by the runtime's builtin loader, loaded through
 * loadPlugin (manifest and settings check, sandbox, guarded http), pointed by TAGSONIC_SOURCE_URL_SPOTIFY at a local
 * server that plays both Spotify services as documented (https://developer.spotify.com/documentation/web-api):
 * the accounts service's client-credentials token endpoint (which checks the Basic credentials) and the Web API's
 * /v1/search (which checks the bearer token). Every request is recorded, so the request shape is asserted too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '@tagsonic/core/store';
import type { PluginHostServices } from '@tagsonic/workers/plugin-runtime';
import { builtinPlugin } from '../workers/src/plugin-runtime/builtin.ts';
import { failure, sourceFake, type FakeAnswer, type SeenRequest } from './support/source-fake.ts';

const CLIENT = { client_id: '5f573c9620494bae87890c0f08a60293', client_secret: 'c5a1b2c3d4e5f60718293a4b5c6d7e8f' };
const BASIC = `Basic ${Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString('base64')}`;

/** Album and track objects shaped as /v1/search?type=track returns them. */
const HELP = {
  album_type: 'album', total_tracks: 14, id: '0PT5m6hwPRrpBwIHVnvbFX', name: 'Help! (Remastered)', release_date: '1965-08-06', release_date_precision: 'day',
  type: 'album', uri: 'spotify:album:0PT5m6hwPRrpBwIHVnvbFX', artists: [{ id: '3WrFJ7ztbogyGnTHbHJFl2', name: 'The Beatles', type: 'artist' }],
  images: [
    { url: 'https://i.scdn.co/image/ab67616d00004851e3e3b64cea45265469d4cafa', height: 64, width: 64 },
    { url: 'https://i.scdn.co/image/ab67616d0000b273e3e3b64cea45265469d4cafa', height: 640, width: 640 },
    { url: 'https://i.scdn.co/image/ab67616d00001e02e3e3b64cea45265469d4cafa', height: 300, width: 300 },
  ],
};
const YESTERDAY = {
  album: HELP, artists: [{ id: '3WrFJ7ztbogyGnTHbHJFl2', name: 'The Beatles', type: 'artist' }], disc_number: 1, duration_ms: 125_666, explicit: false,
  external_ids: { isrc: 'GBAYE0601477' }, id: '3BQHpFgAp4l80e1XslIjNI', name: 'Yesterday - Remastered 2009', track_number: 13, type: 'track', uri: 'spotify:track:3BQHpFgAp4l80e1XslIjNI',
};
const YESTERDAY_LIVE = {
  ...YESTERDAY, id: '1FvyKwIWxwVKoNBBvDeRTd', name: 'Yesterday - Live', disc_number: 2, track_number: 10, duration_ms: 155_000,
  artists: [{ name: 'Paul McCartney' }, { name: 'Ringo Starr' }],
  album: { ...HELP, name: 'Live at Wembley', total_tracks: 40, release_date: '1994-11', release_date_precision: 'month', images: [{ url: 'https://i.scdn.co/image/live640', height: 640, width: 640 }] },
};
/** A track with little known: no images, an unknown year, no numbers. */
const SPARSE = { id: '7sparse', name: 'Yesterday', artists: [], album: { name: '', images: [], release_date: '0000', release_date_precision: 'year' }, track_number: 0, disc_number: 0, duration_ms: 0 };

const tracks = (items: unknown[]) => ({ tracks: { href: 'https://api.spotify.com/v1/search', limit: 10, next: null, offset: 0, previous: null, total: items.length, items } });
const ARTISTS = {
  artists: {
    href: 'https://api.spotify.com/v1/search', limit: 5, offset: 0, total: 2,
    items: [
      { id: '1', name: 'Jay Chou Tribute Band', images: [{ url: 'https://i.scdn.co/image/tribute', width: 320, height: 320 }], type: 'artist' },
      { id: '2elBjNSdBE2Y3f0j1mjrql', name: 'Jay Chou', type: 'artist', images: [
        { url: 'https://i.scdn.co/image/jay160', width: 160, height: 160 }, { url: 'https://i.scdn.co/image/jay640', width: 640, height: 640 },
        { url: 'https://i.scdn.co/image/jay320', width: 320, height: 320 }] },
    ],
  },
};

let issued = 0;
/** The token endpoint: the client's Basic credentials must be right; each token is a new value. */
function tokenAnswer(request: SeenRequest): FakeAnswer {
  const id = /^Basic (.*)$/.exec(request.headers.authorization ?? '')?.[1];
  const client = id ? Buffer.from(id, 'base64').toString('utf8').split(':')[0] : '';
  if (client === 'accounts-down') return [502, 'text/html', '<html>Bad Gateway</html>'];
  if (client === 'accounts-changed') return [200, 'application/json', { token: 'x', token_type: 'Bearer' }];
  if (request.method !== 'POST' || request.body !== 'grant_type=client_credentials') return [400, 'application/json', { error: 'unsupported_grant_type', error_description: 'grant_type parameter is missing' }];
  if (request.headers.authorization !== BASIC) return [400, 'application/json', { error: 'invalid_client', error_description: 'Invalid client secret' }];
  issued += 1;
  return [200, 'application/json', { access_token: `BQD-token-${issued}`, token_type: 'Bearer', expires_in: 3600 }];
}

/** /v1/search: a bearer token this fake issued (and not revoked) is required, as the Web API does. */
let revokedBelow = 0;
function searchAnswer(query: URLSearchParams, request: SeenRequest): FakeAnswer {
  const token = /^Bearer BQD-token-(\d+)$/.exec(request.headers.authorization ?? '');
  if (!token || Number(token[1]) <= revokedBelow) return [401, 'application/json', { error: { status: 401, message: 'The access token expired' } }];
  if (query.get('type') === 'artist') return [200, 'application/json', query.get('q') === 'nobody' ? { artists: { items: [] } } : ARTISTS];
  const q = query.get('q') ?? '';
  switch (/^track:(\S+)/.exec(q)?.[1]) {
    case 'outage': return [503, 'text/html', '<html>upstream connect error</html>'];
    case 'throttled': return [429, 'application/json', { error: { status: 429, message: 'Too many requests', reason: 'QUOTA_EXCEEDED' } }, { 'retry-after': '30' }];
    case 'premium': return [403, 'application/json', { error: { status: 403, message: 'Active premium subscription required for the owner of the app.' } }];
    case 'renamed': return [200, 'application/json', tracks([YESTERDAY, { ...YESTERDAY_LIVE, name: undefined, title: 'Yesterday' }])];
    case 'moved': return [200, 'application/json', { items: [YESTERDAY] }];
    case 'typed': return [200, 'application/json', tracks([{ ...YESTERDAY, track_number: '13' }])];
    case 'imageless': return [200, 'application/json', tracks([{ ...YESTERDAY, album: { ...HELP, images: [{ href: 'x' }] } }])];
    case 'garbled': return [200, 'application/json', '{"tracks":'];
    case 'sparse': return [200, 'application/json', tracks([SPARSE, null])];
    case 'nothing': return [200, 'application/json', tracks([])];
    case 'slow': return new Promise((resolve) => setTimeout(() => resolve([200, 'application/json', tracks([YESTERDAY])]), 3_000)) as never;
    default: return [200, 'application/json', tracks([YESTERDAY, YESTERDAY_LIVE])];
  }
}

const fake = sourceFake('spotify', (pathname, query, request) => {
  if (pathname === '/api/token') return tokenAnswer(request);
  if (pathname === '/v1/search') return searchAnswer(query, request);
  return [404, 'application/json', { error: { status: 404, message: 'Service not found' } }];
});
const { seen } = fake;
const load = (config: Record<string, unknown> = CLIENT) => fake.load({ config });
const search = (title: string, more: { artist?: string; duration?: number; limit?: number } = {}) => ({ title, artist: '', album: '', limit: 10, ...more });
const since = (n: number) => seen.slice(n);

describe('spotify: the built-in plugin', () => {
  it('bundles plugins/spotify with the accounts and API hosts granted, the secret masked, and no lyrics export (Spotify has no lyrics API)', async () => {
    const { manifest } = await builtinPlugin('spotify');
    expect(manifest).toMatchObject({
      id: 'spotify', kind: 'tag-source',
      permissions: { http: { hosts: [{ host: 'accounts.spotify.com' }, { host: 'api.spotify.com' }] } },
      config: { properties: { client_id: { type: 'string' }, client_secret: { type: 'string', secret: true }, market: { type: 'string' } } },
    });
    const plugin = await load();
    expect(plugin.baseUrl).toBe(fake.baseUrl());
    await expect(plugin.invoke('lyrics', { id: YESTERDAY.id })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_NO_EXPORT' });
  });

  it('tells the administrator to set the client ID and secret on /mod, before any request', async () => {
    for (const config of [{}, { client_id: CLIENT.client_id }, { client_id: ' ', client_secret: CLIENT.client_secret }]) {
      const plugin = await load(config);
      const before = seen.length;
      const error = await failure(plugin.invoke('search', search('Yesterday')));
      expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
      expect(error.message).toMatch(/client ID and client secret.*developer\.spotify\.com\/dashboard.*\/mod/);
      await expect(plugin.invoke('artist', { keyword: 'Jay Chou' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
      expect(seen.length).toBe(before);
    }
  });
});

describe('spotify: search', () => {
  it('gets a client-credentials token (POST, Basic base64(id:secret), form body), searches /v1/search with it, and maps the tracks with the largest cover', async () => {
    const plugin = await load({ ...CLIENT, market: 'gb' });
    const n = seen.length;
    const songs = await plugin.invoke('search', search(' Yesterday ', { artist: 'The Beatles', limit: 15 }));
    const [token, find] = since(n);
    expect(token).toMatchObject({ path: '/api/token', method: 'POST', body: 'grant_type=client_credentials' });
    expect(token!.headers.authorization).toBe(BASIC);
    expect(token!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(find!.path).toBe('/v1/search');
    expect(find!.headers.authorization).toBe(`Bearer BQD-token-${issued}`);
    expect(Object.fromEntries(find!.query)).toEqual({ q: 'track:Yesterday artist:The Beatles', type: 'track', limit: '10', market: 'GB' });
    expect(songs).toEqual([
      { id: '3BQHpFgAp4l80e1XslIjNI', name: 'Yesterday - Remastered 2009', artist: 'The Beatles', album: 'Help! (Remastered)',
        album_img: 'https://i.scdn.co/image/ab67616d0000b273e3e3b64cea45265469d4cafa', year: '1965-08-06',
        tracknumber: 13, totaltracks: 14, discnumber: 1, totaldiscs: null, duration: 126, resource: 'spotify' },
      { id: '1FvyKwIWxwVKoNBBvDeRTd', name: 'Yesterday - Live', artist: 'Paul McCartney, Ringo Starr', album: 'Live at Wembley',
        album_img: 'https://i.scdn.co/image/live640', year: '1994', tracknumber: 10, totaltracks: 40, discnumber: 2, totaldiscs: null, duration: 155, resource: 'spotify' },
    ]);
  });

  it('without a market searches the whole catalogue, puts the closest duration first, keeps to the limit, and answers [] for nothing or no title', async () => {
    const plugin = await load();
    const songs = (await plugin.invoke('search', search('Yesterday', { duration: 150, limit: 1 }))) as { id: string }[];
    expect(Object.fromEntries(seen.at(-1)!.query)).toEqual({ q: 'track:Yesterday', type: 'track', limit: '1' });
    expect(songs.map((s) => s.id)).toEqual(['1FvyKwIWxwVKoNBBvDeRTd']);
    await expect(plugin.invoke('search', search('nothing'))).resolves.toEqual([]);
    const before = seen.length;
    await expect(plugin.invoke('search', search(' ', { artist: 'The Beatles' }))).resolves.toEqual([]);
    expect(seen.length).toBe(before);
  });

  it('gives null for what Spotify does not know and skips the null entries it pads pages with', async () => {
    const plugin = await load();
    await expect(plugin.invoke('search', search('sparse'))).resolves.toEqual([
      { id: '7sparse', name: 'Yesterday', artist: null, album: null, album_img: null, year: null,
        tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: null, resource: 'spotify' },
    ]);
  });

  it('reports refused credentials with Spotify\'s reason and what to fix, and a market setting that is not a country code', async () => {
    let plugin = await load({ ...CLIENT, client_secret: 'wrong' });
    let error = await failure(plugin.invoke('search', search('Yesterday')));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', details: { status: 400, error: 'invalid_client' } });
    expect(error.message).toBe('Spotify refused the client credentials (invalid_client: Invalid client secret); check the client ID and secret in this plugin\'s settings on the /mod page.');
    expect(plugin.sandbox.stats().lastError).toMatchObject({ message: error.message });
    plugin = await load({ ...CLIENT, market: 'GBR' });
    error = await failure(plugin.invoke('search', search('Yesterday')));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(error.message).toMatch(/^"GBR" is not a two-letter market code/);
  });

  it('reports an HTTP error by its status and Spotify\'s message (429 with its Retry-After, 403 for a lapsed Premium owner)', async () => {
    const plugin = await load();
    const cases: [string, string, number][] = [
      ['outage', 'Spotify answered HTTP 503 to /v1/search.', 503],
      ['throttled', 'Spotify answered HTTP 429 to /v1/search: Too many requests (retry after 30 s).', 429],
      ['premium', 'Spotify answered HTTP 403 to /v1/search: Active premium subscription required for the owner of the app.', 403],
    ];
    for (const [title, message, status] of cases) {
      const error = await failure(plugin.invoke('search', search(title)));
      expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message, details: { status } });
    }
  });

  it('names the field when the answer changed shape', async () => {
    const plugin = await load();
    const cases: [string, string][] = [
      ['renamed', 'tracks.items[1].name'], ['moved', 'tracks'], ['typed', 'tracks.items[0].track_number'],
      ['imageless', 'tracks.items[0].album.images[0].url'], ['garbled', '(not JSON)'],
    ];
    for (const [title, field] of cases) {
      const error = await failure(plugin.invoke('search', search(title)));
      expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: `response shape changed: ${field}`, details: { field } });
    }
  });
});

describe('spotify: the token', () => {
  const dirs: string[] = [];
  const stores: Store[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  /** The host services Spotify's grants use: only the store behind `kv` (it is granted no files, tags or ffmpeg). */
  async function withKv(): Promise<PluginHostServices> {
    const dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-spotify-'));
    dirs.push(dir);
    const store = await openStore({ dataDir: dir });
    stores.push(store);
    return { store } as unknown as PluginHostServices;
  }

  it('without kv, is asked for once per invocation', async () => {
    const plugin = await load();
    const n = seen.length;
    await plugin.invoke('search', search('Yesterday'));
    await plugin.invoke('artist', { keyword: 'Jay Chou' });
    expect(since(n).map((r) => r.path)).toEqual(['/api/token', '/v1/search', '/api/token', '/v1/search']);
  });

  it('with kv, is kept across invocations and reloads, renewed once when Spotify revokes it, and not reused for another client ID', async () => {
    const host = await withKv();
    let plugin = await fake.load({ config: CLIENT }, { host });
    const n = seen.length;
    await plugin.invoke('search', search('Yesterday'));
    const first = issued;
    await plugin.invoke('search', search('Yesterday'));
    plugin = await fake.load({ config: CLIENT }, { host });
    await plugin.invoke('artist', { keyword: 'Jay Chou' });
    expect(since(n).map((r) => r.path)).toEqual(['/api/token', '/v1/search', '/v1/search', '/v1/search']);
    expect(since(n).slice(1).every((r) => r.headers.authorization === `Bearer BQD-token-${first}`)).toBe(true);
    revokedBelow = issued;
    const m = seen.length;
    await expect(plugin.invoke('search', search('Yesterday'))).resolves.toHaveLength(2);
    expect(since(m).map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/v1/search', `Bearer BQD-token-${first}`], ['/api/token', BASIC], ['/v1/search', `Bearer BQD-token-${issued}`],
    ]);
    const other = 'ffffffffffffffffffffffffffffffff';
    plugin = await fake.load({ config: { ...CLIENT, client_id: other } }, { host });
    const k = seen.length;
    await failure(plugin.invoke('search', search('Yesterday')));
    expect(since(k).map((r) => r.path)).toEqual(['/api/token']);
    expect(since(k)[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`${other}:${CLIENT.client_secret}`).toString('base64')}`);
  });
});

describe('spotify: failures of the token endpoint and timeouts', () => {
  it('reports the accounts service\'s HTTP error, a token answer without access_token, and a search that does not answer in time', async () => {
    let plugin = await load({ ...CLIENT, client_id: 'accounts-down' });
    let error = await failure(plugin.invoke('search', search('Yesterday')));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'Spotify answered HTTP 502 to /api/token.', details: { status: 502 } });
    plugin = await load({ ...CLIENT, client_id: 'accounts-changed' });
    error = await failure(plugin.invoke('search', search('Yesterday')));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'response shape changed: access_token' });
    plugin = await fake.load({ config: CLIENT }, { httpLimits: { timeoutMs: 400 } });
    error = await failure(plugin.invoke('search', search('slow')));
    expect(error.code).toBe('TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT');
    await expect(plugin.invoke('search', search('Yesterday'))).resolves.toHaveLength(2);
  });
});

describe('spotify: artist', () => {
  it('searches artists by keyword, prefers the exact name, and gives its largest picture (Spotify has no biography)', async () => {
    const plugin = await load();
    await expect(plugin.invoke('artist', { keyword: ' jay chou ' })).resolves.toEqual({ name: 'Jay Chou', image: 'https://i.scdn.co/image/jay640', description: null });
    expect(Object.fromEntries(seen.at(-1)!.query)).toEqual({ q: 'jay chou', type: 'artist', limit: '5' });
    await expect(plugin.invoke('artist', { keyword: 'Jay' })).resolves.toEqual({ name: 'Jay Chou Tribute Band', image: 'https://i.scdn.co/image/tribute', description: null });
    await expect(plugin.invoke('artist', { keyword: 'nobody' })).resolves.toBeNull();
    await expect(plugin.invoke('artist', { keyword: '  ' })).resolves.toBeNull();
  });
});
