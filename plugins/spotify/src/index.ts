/**
 * Spotify's Web API (https://developer.spotify.com/documentation/web-api) as a tag source, with the client
 * credentials flow — an app's client ID and secret, no user login:
 *
 * - token: `POST accounts.spotify.com/api/token` with `Authorization: Basic base64(id:secret)` and the form
 *   `grant_type=client_credentials` → `{ access_token, token_type: 'Bearer', expires_in: 3600 }`. The token is
 *   kept in the plugin's kv (when the host gives one) until a minute before it expires, else for the invocation.
 * - `search`: `GET api.spotify.com/v1/search?q=track:<title> artist:<artist>&type=track&limit=<≤ 10>[&market]`.
 *   Spotify's track object has the track and disc numbers, the album's track count, release date and covers.
 * - `artist`: `GET /v1/search?q=<keyword>&type=artist&limit=5`, the exact name first; its largest picture.
 *   Spotify has no biographies, so `description` is null. Spotify has no lyrics API: no `lyrics` export.
 *
 * Covers: Spotify lists each image in several sizes (640, 300, 64 px); `album_img` is the widest — the largest
 * the API serves.
 *
 * The search limit is at most 10: apps in Spotify's Development Mode are refused (HTTP 400 "Invalid limit")
 * above that since February 2026, and an administrator's app is usually in that mode.
 *
 * Base URL: the administrator's override (`TAGSONIC_SOURCE_URL_SPOTIFY` or settings) replaces both hosts — the
 * token path (`/api/token`) and the API paths (`/v1/…`) do not collide.
 */
import { defineTagSource, PluginError, type ArtistInfo, type HttpCapability, type JsonValue, type Manifest, type SearchResultSong } from '@tagsonic/sdk';
import manifest from '../manifest.json' with { type: 'json' };
import { base64Utf8 } from './base64.ts';

const ACCOUNTS_BASE_URL = 'https://accounts.spotify.com';
const API_BASE_URL = 'https://api.spotify.com';

/** The most results a Development Mode app may ask `/v1/search` for (see above). */
const MAX_LIMIT = 10;

/** Where the token is kept between invocations, and how long before its expiry it is no longer used. */
const TOKEN_KEY = 'access_token';
const TOKEN_MARGIN_MS = 60_000;

type SpotifyManifest = Manifest & { permissions: { http: NonNullable<Manifest['permissions']['http']> } };
/** What the functions below need of `caps`; `kv` is there when the host has a store for plugins. */
interface Caps {
  http: HttpCapability;
  config: { get(): Promise<Record<string, JsonValue>> };
  kv?: { get(o: { key: string }): Promise<JsonValue | null>; set(o: { key: string; value: JsonValue }): Promise<void>; delete(o: { key: string }): Promise<void> };
}

interface Credentials {
  clientId: string;
  clientSecret: string;
  market: string | null;
}

/** A Spotify image: the widest first is the full-size one. */
interface Image {
  url: string;
  width: number | null;
}

interface SpotifyTrack {
  id: string;
  name: string;
  artists: string[];
  album: { name: string | null; images: Image[]; release_date: string | null; release_date_precision: string | null; total_tracks: number | null };
  track_number: number | null;
  disc_number: number | null;
  duration_ms: number | null;
}

const upstream = (message: string, details?: Record<string, unknown>) => new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', message, details);
const shapeChanged = (field: string) => upstream(`response shape changed: ${field}`, { field });

/** The app's credentials from the settings; without them the administrator is told what to do. */
async function credentials(caps: Caps): Promise<Credentials> {
  const config = await caps.config.get();
  const clientId = String(config.client_id ?? '').trim();
  const clientSecret = String(config.client_secret ?? '').trim();
  if (!clientId || !clientSecret) {
    throw new PluginError(
      'TAGSONIC_ERR_PLUGIN_INVALID',
      'Spotify needs a client ID and client secret: create an app at developer.spotify.com/dashboard and enter both in this plugin\'s settings on the /mod page.',
      { missing: [!clientId && 'client_id', !clientSecret && 'client_secret'].filter(Boolean) },
    );
  }
  const market = String(config.market ?? '').trim().toUpperCase();
  if (market && !/^[A-Z]{2}$/.test(market)) {
    throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `"${market.slice(0, 20)}" is not a two-letter market code (US, JP, TW, …); fix it in the plugin's settings or leave it empty.`);
  }
  return { clientId, clientSecret, market: market || null };
}

/** Spotify's error text from a JSON body: `{ error: { message } }` (API) or `{ error, error_description }` (token). */
function spotifyReason(body: string): { error?: string; message?: string } {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    if (typeof parsed.error === 'object' && parsed.error !== null) {
      const e = parsed.error as Record<string, unknown>;
      return { message: typeof e.message === 'string' ? e.message : undefined, error: typeof e.reason === 'string' ? e.reason : undefined };
    }
    return { error: typeof parsed.error === 'string' ? parsed.error : undefined, message: typeof parsed.error_description === 'string' ? parsed.error_description : undefined };
  } catch {
    return {};
  }
}

/** A new token from the accounts service. */
async function requestToken(caps: Caps, creds: Credentials): Promise<{ token: string; expiresAt: number }> {
  const base = caps.http.baseUrl ?? ACCOUNTS_BASE_URL;
  const { status, body } = await caps.http.fetch({
    url: `${base}/api/token`,
    method: 'POST',
    headers: { authorization: `Basic ${base64Utf8(`${creds.clientId}:${creds.clientSecret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
    responseType: 'text',
  });
  if (status === 400 || status === 401) {
    const { error, message } = spotifyReason(String(body));
    throw upstream(
      `Spotify refused the client credentials (${[error, message].filter(Boolean).join(': ') || `HTTP ${status}`}); check the client ID and secret in this plugin's settings on the /mod page.`,
      { status, error: error ?? null },
    );
  }
  if (status !== 200) throw upstream(`Spotify answered HTTP ${status} to /api/token.`, { status });
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(body));
  } catch {
    throw shapeChanged('(token: not JSON)');
  }
  const t = parsed as Record<string, unknown>;
  if (typeof parsed !== 'object' || parsed === null || typeof t.access_token !== 'string' || !t.access_token) throw shapeChanged('access_token');
  const expiresIn = typeof t.expires_in === 'number' && t.expires_in > 0 ? t.expires_in : 3600;
  return { token: t.access_token, expiresAt: Date.now() + expiresIn * 1000 };
}

/**
 * A valid token: the one kept in kv for this client ID while it has more than a minute left, else a new one
 * (kept in kv when there is one). A kv failure is not a search failure: the token is then used for this call only.
 */
async function accessToken(caps: Caps, creds: Credentials, fresh: boolean): Promise<{ token: string; cached: boolean }> {
  if (!fresh && caps.kv) {
    const kept = (await caps.kv.get({ key: TOKEN_KEY }).catch(() => null)) as Record<string, JsonValue> | null;
    if (kept && kept.client_id === creds.clientId && typeof kept.token === 'string' && typeof kept.expires_at === 'number' && kept.expires_at - TOKEN_MARGIN_MS > Date.now()) {
      return { token: kept.token, cached: true };
    }
  }
  const { token, expiresAt } = await requestToken(caps, creds);
  await caps.kv?.set({ key: TOKEN_KEY, value: { client_id: creds.clientId, token, expires_at: expiresAt } }).catch(() => undefined);
  return { token, cached: false };
}

/**
 * GETs an API path with the bearer token. A 401 with a kept token (revoked, or the secret rotated) is retried
 * once with a new one. The body is read as text so a CDN's HTML error page is reported by its HTTP status.
 */
async function api(caps: Caps, creds: Credentials, path: string, query: Record<string, string | number | undefined>): Promise<Record<string, unknown>> {
  const base = caps.http.baseUrl ?? API_BASE_URL;
  let auth = await accessToken(caps, creds, false);
  let response = await caps.http.fetch({ url: `${base}${path}`, query, headers: { authorization: `Bearer ${auth.token}` }, responseType: 'text' });
  if (response.status === 401 && auth.cached) {
    auth = await accessToken(caps, creds, true);
    response = await caps.http.fetch({ url: `${base}${path}`, query, headers: { authorization: `Bearer ${auth.token}` }, responseType: 'text' });
  }
  const { status, body, headers } = response;
  if (status !== 200) {
    const { message } = spotifyReason(String(body));
    const wait = status === 429 && headers['retry-after'] ? ` (retry after ${headers['retry-after']} s)` : '';
    const reason = message?.trim().replace(/\.+$/, '');
    throw upstream(`Spotify answered HTTP ${status} to ${path}${reason ? `: ${reason}` : ''}${wait}.`, { status });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(body));
  } catch {
    throw shapeChanged('(not JSON)');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw shapeChanged('(root object)');
  return parsed as Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `items` of a search result's `tracks` / `artists` paging object. */
function items(body: Record<string, unknown>, kind: 'tracks' | 'artists'): unknown[] {
  const page = body[kind];
  if (!isObject(page)) throw shapeChanged(kind);
  if (!Array.isArray(page.items)) throw shapeChanged(`${kind}.items`);
  return page.items;
}

/** Checks an image list; `null` entries (Spotify sends them for some local files) are skipped. */
function images(value: unknown, at: string): Image[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw shapeChanged(at);
  return value.flatMap((image, i) => {
    if (image === null) return [];
    if (!isObject(image) || typeof image.url !== 'string') throw shapeChanged(`${at}[${i}].url`);
    return [{ url: image.url, width: typeof image.width === 'number' ? image.width : null }];
  });
}

/** The widest image's URL (an image without a width counts as the smallest). */
const largest = (list: Image[]): string | null => [...list].sort((a, b) => (b.width ?? -1) - (a.width ?? -1))[0]?.url ?? null;

function track(value: unknown, at: string): SpotifyTrack {
  if (!isObject(value)) throw shapeChanged(at);
  const field = (name: string) => `${at}.${name}`;
  const optionalNumber = (v: unknown, name: string) => {
    if (v !== null && v !== undefined && typeof v !== 'number') throw shapeChanged(field(name));
    return (v as number | null | undefined) ?? null;
  };
  const optionalString = (v: unknown, name: string) => {
    if (v !== null && v !== undefined && typeof v !== 'string') throw shapeChanged(field(name));
    return (v as string | null | undefined) ?? null;
  };
  if (typeof value.id !== 'string' || !value.id) throw shapeChanged(field('id'));
  if (typeof value.name !== 'string') throw shapeChanged(field('name'));
  if (!Array.isArray(value.artists)) throw shapeChanged(field('artists'));
  const artists = value.artists.map((a, i) => {
    if (!isObject(a) || typeof a.name !== 'string') throw shapeChanged(field(`artists[${i}].name`));
    return a.name;
  });
  if (!isObject(value.album)) throw shapeChanged(field('album'));
  const album = value.album;
  return {
    id: value.id,
    name: value.name,
    artists,
    album: {
      name: optionalString(album.name, 'album.name'),
      images: images(album.images, field('album.images')),
      release_date: optionalString(album.release_date, 'album.release_date'),
      release_date_precision: optionalString(album.release_date_precision, 'album.release_date_precision'),
      total_tracks: optionalNumber(album.total_tracks, 'album.total_tracks'),
    },
    track_number: optionalNumber(value.track_number, 'track_number'),
    disc_number: optionalNumber(value.disc_number, 'disc_number'),
    duration_ms: optionalNumber(value.duration_ms, 'duration_ms'),
  };
}

/** `YYYY-MM-DD` for a day-precise release date, else its year (the SDK's `year` is one of the two). */
function yearOf(date: string | null, precision: string | null): string | null {
  const day = /^(\d{4})(-\d{2}-\d{2})?/.exec(date ?? '');
  if (!day || day[1] === '0000') return null;
  return precision === 'day' && day[2] ? day[0] : day[1]!;
}

const positive = (n: number | null): number | null => (n !== null && Number.isInteger(n) && n > 0 ? n : null);

const toSong = (t: SpotifyTrack): SearchResultSong => ({
  id: t.id,
  name: t.name,
  artist: t.artists.filter(Boolean).join(', ') || null,
  album: t.album.name || null,
  album_img: largest(t.album.images),
  year: yearOf(t.album.release_date, t.album.release_date_precision),
  tracknumber: positive(t.track_number),
  totaltracks: positive(t.album.total_tracks),
  discnumber: positive(t.disc_number),
  // The album's disc count is not in a track object (only in a full album, another request per result).
  totaldiscs: null,
  duration: t.duration_ms !== null && t.duration_ms > 0 ? Math.round(t.duration_ms / 1000) : null,
  resource: manifest.id,
});

/** Spotify's field filters end at whitespace-free tokens only when quoted; quotes in a title are dropped. */
const filter = (name: string, value: string) => `${name}:${value.replace(/"/g, ' ').replace(/\s+/g, ' ').trim()}`;

export default defineTagSource<SpotifyManifest>({
  async search({ title, artist, duration, limit }, caps) {
    // The album is not a filter: a store's album title ("… (Remastered 2009)") rarely matches a file's and would hide the song.
    if (!title?.trim() || limit <= 0) return [];
    const creds = await credentials(caps as Caps);
    const q = [filter('track', title), artist?.trim() ? filter('artist', artist) : ''].filter(Boolean).join(' ');
    const body = await api(caps as Caps, creds, '/v1/search', { q, type: 'track', limit: Math.min(Math.ceil(limit), MAX_LIMIT), market: creds.market ?? undefined });
    const tracks = items(body, 'tracks')
      // Spotify pads some result pages with null entries.
      .map((item, i) => [item, i] as const)
      .filter(([item]) => item !== null)
      .map(([item, i]) => track(item, `tracks.items[${i}]`));
    // The file's duration, when known, puts the right edit first (radio edit, remaster, live take).
    if (typeof duration === 'number' && duration > 0) {
      const distance = (t: SpotifyTrack) => (t.duration_ms === null ? Number.POSITIVE_INFINITY : Math.abs(t.duration_ms / 1000 - duration));
      tracks.sort((a, b) => distance(a) - distance(b));
    }
    return tracks.slice(0, limit).map(toSong);
  },

  async artist({ keyword }, caps): Promise<ArtistInfo | null> {
    if (typeof keyword !== 'string' || !keyword.trim()) return null;
    const creds = await credentials(caps as Caps);
    const body = await api(caps as Caps, creds, '/v1/search', { q: keyword.trim(), type: 'artist', limit: 5, market: creds.market ?? undefined });
    const artists = items(body, 'artists').flatMap((item, i) => {
      if (item === null) return [];
      if (!isObject(item) || typeof item.name !== 'string') throw shapeChanged(`artists.items[${i}].name`);
      return [{ name: item.name, image: largest(images(item.images, `artists.items[${i}].images`)) }];
    });
    const wanted = keyword.trim().toLowerCase();
    const best = artists.find((a) => a.name.trim().toLowerCase() === wanted) ?? artists[0];
    return best ? { name: best.name, image: best.image, description: null } : null;
  },
});
