/**
 * URLs of a library item's cover and of a song's audio on our own /rest, signed with the u/t/s the
 * dashboard keeps in its cookies (an <img> or <audio> cannot send headers, so the credentials ride in
 * the query like every Subsonic client's).
 */
import { readCookie } from '../../../lib/cookies.ts';

/**
 * Shown when an item has no cover id at all (getCoverArt answers its own default for an id without art,
 * but needs an id). Inline so it costs no request and never 404s; the page's CSP allows data: images.
 */
export const DEFAULT_COVER =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="#8a9ba8"/>' +
      '<circle cx="50" cy="50" r="30" fill="#5c7080"/><circle cx="50" cy="50" r="8" fill="#ced9e0"/></svg>',
  );

const CLIENT = 'tagsonic-dashboard';

function signed(endpoint: string, params: Record<string, string | number>, cookies: string): string {
  const query = new URLSearchParams({
    ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
    u: readCookie('username', cookies) ?? '',
    t: readCookie('hash', cookies) ?? '',
    s: readCookie('salt', cookies) ?? '',
    v: '1.16.1',
    c: CLIENT,
    f: 'json',
  });
  return `/rest/${endpoint}.view?${query.toString()}`;
}

const documentCookies = (): string => (typeof document === 'undefined' ? '' : document.cookie);

/**
 * Covers changed in this session (an edit saved a new picture), with when. getCoverArt answers may be cached
 * for a day under the same URL, so a changed cover's URL carries that time and the browser fetches it anew.
 */
const changed = new Map<string, number>();

/** Call after saving a new picture for `coverArt` (its screens re-render with a URL the cache has not seen). */
export function coverChanged(coverArt: string, at = Date.now()): void {
  changed.set(coverArt, at);
}

/** The cover of an album, artist, song or playlist (`coverArt` id), scaled by the server to `size` px. */
export function coverUrl(coverArt?: string | null, size = 300, cookies = documentCookies()): string {
  if (!coverArt) return DEFAULT_COVER;
  const at = changed.get(coverArt);
  return signed('getCoverArt', at === undefined ? { id: coverArt, size } : { id: coverArt, size, _: at }, cookies);
}

/**
 * The song's original bytes (ranges supported), for the player's <audio>; with `format`, transcoded by the server to
 * that format at up to 320 kbps (a file the browser cannot play).
 */
export function streamUrl(id: string, cookies = documentCookies(), format?: string): string {
  return signed('stream', format ? { id, format, maxBitRate: 320 } : { id }, cookies);
}
