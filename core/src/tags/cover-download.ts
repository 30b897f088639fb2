/**
 * A source's cover, downloaded by the server so it can be written into a file as the source serves it: the
 * editor copies a candidate's `album_img` (an https URL on music.126.net, y.gtimg.cn, mzstatic.com,
 * coverartarchive.org…), and most of those CDNs send no CORS headers, so the browser cannot read the picture,
 * and re-encoding it there would cost quality anyway.
 *
 * The URL comes from a signed-in user, so the download is the guarded client of ../net with
 * {@link ANY_PUBLIC_HOST}: any host, but every address it resolves to (redirects included) must be public —
 * no loopback, LAN, link-local or cloud-metadata address — except the origins of the administrator's source
 * base URLs (a local mirror serves its covers too). One deadline, the engine's cover bound as the size cap,
 * and the bytes must be a JPEG, PNG or WebP picture. Every failure is one code, TAGSONIC_ERR_TAGS_COVER_FETCH,
 * whose message says which of these it was.
 */
import { ANY_PUBLIC_HOST, createPluginHttp, isRefusedAddress, type ResolveHost } from '../net/index.ts';
import { TagsonicError, isTagsonicError } from '../errors/index.ts';
import { MAX_PICTURE_BYTES } from './bounds.ts';
import { sniffImage } from './image-info.ts';

export const COVER_FETCH_FAILED = 'TAGSONIC_ERR_TAGS_COVER_FETCH';

/** Why a download failed, in `details.reason` (the message says it in words). */
export type CoverFetchReason = 'bad_url' | 'refused' | 'status' | 'too_large' | 'not_picture' | 'timeout' | 'network';

export interface CoverDownloadOptions {
  /** Base URLs whose origins are reachable on any address: the administrator's source base URLs. */
  trustedOrigins?: readonly string[];
  /** Whole download, redirects included (default 20 s). */
  timeoutMs?: number;
  /** Largest picture (default the engine's cover bound, `MAX_PICTURE_BYTES`). */
  maxBytes?: number;
  /** Tests only: how names resolve, and which addresses are off limits (see ../net). */
  lookup?: ResolveHost;
  isRefused?: (address: string) => boolean;
}

export interface DownloadedCover {
  mime: 'image/jpeg' | 'image/png' | 'image/webp';
  data: Uint8Array;
  width: number;
  height: number;
}

const PICTURE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** Downloads the picture at `url` (http or https), or throws TAGSONIC_ERR_TAGS_COVER_FETCH saying why. */
export async function downloadCover(url: string, options: CoverDownloadOptions = {}): Promise<DownloadedCover> {
  const maxBytes = options.maxBytes ?? MAX_PICTURE_BYTES;
  let host = url.slice(0, 200);
  try {
    host = new URL(url).host;
  } catch {
    // The client reports the URL as not absolute.
  }
  const fail = (reason: CoverFetchReason, why: string, extra: Record<string, unknown> = {}, cause?: unknown) =>
    new TagsonicError('invalid', COVER_FETCH_FAILED, `The cover could not be downloaded from ${host}: ${why}`, { cause, details: { url: url.slice(0, 2000), reason, ...extra } });

  const client = createPluginHttp({
    pluginId: 'tagsonic',
    grants: ANY_PUBLIC_HOST,
    trustedOrigins: usableOrigins(options.trustedOrigins ?? []),
    userAgent: 'Tagsonic (cover download)',
    limits: { timeoutMs: options.timeoutMs ?? 20_000, maxBytes, ratePerSec: 0 },
    lookup: options.lookup,
    isRefused: options.isRefused ?? isRefusedAddress,
  });
  let answer;
  try {
    answer = await client.fetch(url, { responseType: 'bytes', headers: { accept: 'image/jpeg, image/png, image/webp, image/*;q=0.8' } });
  } catch (err) {
    if (!isTagsonicError(err)) throw err;
    throw fail(...reasonOf(err.code, err.message, maxBytes), { cause: err.code }, err);
  }
  if (answer.status !== 200) throw fail('status', `the server answered HTTP ${answer.status}.`, { status: answer.status });
  const data = answer.body as Uint8Array;
  const header = sniffImage(data);
  if (!header || !PICTURE_TYPES.has(header.mime)) {
    const said = answer.headers['content-type'] ? ` (${answer.headers['content-type'].slice(0, 100)})` : '';
    throw fail('not_picture', `what it sent${said} is not a JPEG, PNG or WebP picture.`, { contentType: answer.headers['content-type'] ?? null });
  }
  return { mime: header.mime as DownloadedCover['mime'], data, width: header.width, height: header.height };
}

/** The client's failure as a reason and the words after "could not be downloaded from <host>: ". */
function reasonOf(code: string, said: string, maxBytes: number): [CoverFetchReason, string] {
  const message = said.charAt(0).toLowerCase() + said.slice(1);
  switch (code) {
    case 'TAGSONIC_ERR_PLUGIN_HTTP_BAD_URL':
      return ['bad_url', message];
    case 'TAGSONIC_ERR_PLUGIN_HTTP_ADDRESS_REFUSED':
      return ['refused', `${message} Covers are downloaded only from public addresses and the sources' configured base URLs.`];
    case 'TAGSONIC_ERR_PLUGIN_HTTP_TOO_LARGE':
      return ['too_large', `the picture is larger than ${(maxBytes / 1024 / 1024).toFixed(0)} MiB, more than fits in a tag.`];
    case 'TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT':
      return ['timeout', message];
    default:
      return ['network', message];
  }
}

/** The base URLs that parse as http(s) URLs (a typo in one is reported by its own source, not here). */
function usableOrigins(urls: readonly string[]): string[] {
  return urls.filter((u) => {
    try {
      const p = new URL(u).protocol;
      return p === 'http:' || p === 'https:';
    } catch {
      return false;
    }
  });
}
