/**
 * The host side of a plugin's `http.fetch`: one guarded client per plugin, built from its manifest's host
 * grants and the administrator's base-URL override. Every hop (the first request and each redirect) is checked
 * against the grants, and the addresses a granted name resolves to are checked at connect time, so neither a
 * redirect nor a DNS answer pointing at 127.0.0.1, the LAN or the cloud metadata service gets through. Requests
 * carry no ambient credentials: no cookie jar, no proxy settings, no user:password URLs, and a plugin's own
 * Authorization/Cookie headers are dropped when a redirect leaves the origin they were meant for.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isRefusedAddress } from './address-policy.ts';
import {
  HTTP_ADDRESS_REFUSED,
  HTTP_BAD_REQUEST,
  HTTP_BUSY,
  HTTP_BAD_URL,
  HTTP_HOST_NOT_GRANTED,
  HTTP_NETWORK,
  HTTP_NOT_JSON,
  HTTP_TIMEOUT,
  HTTP_TOO_LARGE,
  HTTP_TOO_MANY_REDIRECTS,
  pluginHttpError,
} from './errors.ts';
import { grantFor, normalizeHost, type HostGrant } from './grants.ts';
import { createRateLimiter, describeRate, systemClock, type Clock } from './rate-limit.ts';

/**
 * The grants of Tagsonic's own downloads (a source's cover copied into a file): any host whose addresses are
 * public. A symbol, so no manifest (JSON) can ask for it; plugins name their hosts.
 */
export const ANY_PUBLIC_HOST: unique symbol = Symbol('tagsonic.net.any-public-host');

/** How a name resolves; tests inject one to make "api.example.test" resolve to 127.0.0.1. */
export type ResolveHost = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

export interface PluginHttpLimits {
  /** Whole request, redirects and body included; a call may ask for less, never more. */
  timeoutMs: number;
  /** Largest response body, in bytes; past it the download is aborted. */
  maxBytes: number;
  /** Requests per second for this plugin (each redirect hop counts); 0 or less: unlimited. */
  ratePerSec: number;
  /** Bucket size for bursts (default 1: evenly spaced requests). */
  burst?: number;
  /** Time to establish the TCP connection (default the smaller of timeoutMs and 10 s). */
  connectTimeoutMs?: number;
}

export interface PluginHttpOptions {
  pluginId: string;
  /** The manifest's hosts, or {@link ANY_PUBLIC_HOST} for Tagsonic's own downloads. */
  grants: readonly HostGrant[] | typeof ANY_PUBLIC_HOST;
  /** `baseUrl`: the administrator's override (see sourceUrlOverride); its origin is reachable on any address. */
  overrides?: { baseUrl?: string | null };
  /**
   * More origins reachable on any address, as the base URL's is: for Tagsonic's own downloads, every source's
   * administrator base URL (a local mirror serves its covers too).
   */
  trustedOrigins?: readonly string[];
  /** Default `Tagsonic-plugin/<pluginId>`. */
  userAgent?: string;
  /** The source's name for messages ("iTunes is rate-limited to …"). Default the plugin id. */
  displayName?: string;
  limits: PluginHttpLimits;
  lookup?: ResolveHost;
  /**
   * Which resolved addresses are off limits (default isRefusedAddress). Tests pass one that lets a second
   * loopback address stand in for a public server; nothing else should.
   */
  isRefused?: (address: string) => boolean;
  clock?: Clock;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface PluginFetchOptions {
  method?: string;
  headers?: Readonly<Record<string, string>>;
  /** Appended to the URL's own query; arrays repeat the key; null/undefined values are left out. */
  query?: Readonly<Record<string, QueryValue | readonly QueryValue[]>>;
  /** A string or bytes as is; any other value is sent as JSON. */
  body?: string | Uint8Array | object | null;
  timeoutMs?: number;
  /** How the body comes back: parsed JSON, UTF-8 text (the default) or bytes. */
  responseType?: 'json' | 'text' | 'bytes';
}

export interface PluginFetchResult {
  status: number;
  /** Lower-case names; repeated headers joined with ", "; Set-Cookie is never passed on. */
  headers: Record<string, string>;
  body: unknown;
  /** The URL that answered, after redirects. */
  url: string;
}

/**
 * What the host knows about a call that the plugin does not say: how long its caller can still wait (a plugin
 * invocation's wall-clock limit), and a report of the time it spent waiting for its pacing turn.
 */
export interface PluginFetchContext {
  /**
   * Time left to the caller, in ms. A request whose pacing turn would leave less than {@link MIN_REQUEST_MS} of
   * it is not queued: it fails at once with `TAGSONIC_ERR_PLUGIN_HTTP_BUSY` (`details.retryAfterSec`), since
   * waiting would only end in the caller's timeout. Without it, a request waits as long as its turn takes.
   */
  budgetMs?: number;
  /** Called once per pacing decision: the ms waited for a turn, or `busy` with when a turn would be free. */
  onPacing?: (event: { waitedMs: number } | { busy: true; retryAfterMs: number }) => void;
}

/** The least time a request is left for its own exchange after waiting for its turn (see PluginFetchContext). */
export const MIN_REQUEST_MS = 1_000;

/** The SDK's one-object form of a call (`HttpRequest` in @tagsonic/sdk): the URL beside the options. */
export interface PluginFetchRequest extends PluginFetchOptions {
  url: string;
}

export interface PluginHttp {
  /** The administrator's base URL for this source, or null: the plugin uses it instead of its default. */
  readonly baseUrl: string | null;
  /**
   * `fetch(url, options)` or, as the SDK documents it, `fetch({ url, ...options })`. Arguments come from
   * plugin code, so every field is checked here, whatever the types say.
   */
  fetch(request: string | PluginFetchRequest, options?: PluginFetchOptions, context?: PluginFetchContext): Promise<PluginFetchResult>;
}

const MAX_REDIRECTS = 5;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Set by the client itself (framing, connection, encoding) or meaningless for a plugin to send. */
const HEADERS_NOT_FROM_PLUGINS = new Set([
  'host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect',
  'accept-encoding', 'proxy-authorization', 'proxy-connection',
]);
/** Credentials a plugin sent for one origin; not forwarded when a redirect leaves it. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie'];

/** Marks the lookup failure that is a refusal, to tell it from a DNS error once node has wrapped the socket. */
const REFUSAL = Symbol('tagsonic.plugin-http.refusal');

const defaultResolve: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' });

export function createPluginHttp(options: PluginHttpOptions): PluginHttp {
  const { pluginId, grants, limits } = options;
  const resolve = options.lookup ?? defaultResolve;
  const clock = options.clock ?? systemClock;
  const isRefused = options.isRefused ?? isRefusedAddress;
  const limiter = createRateLimiter(limits.ratePerSec, limits.burst, clock);
  const baseUrl = options.overrides?.baseUrl ?? null;
  const trustedOrigins = new Set([...(baseUrl ? [baseUrl] : []), ...(options.trustedOrigins ?? [])].map((u) => new URL(u).origin));
  const userAgent = options.userAgent ?? `Tagsonic-plugin/${pluginId}`;
  const fail = (code: string, message: string, url?: string, cause?: unknown) =>
    pluginHttpError(code, message, url === undefined ? { pluginId } : { pluginId, url }, cause);
  const displayName = options.displayName ?? pluginId;

  /**
   * Waits for the plugin's next pacing turn, or refuses at once with BUSY when the turn would leave the caller
   * less than MIN_REQUEST_MS of its budget (`startedAt`: when the call began, so redirects share one budget).
   */
  const takeTurn = async (url: URL, context: PluginFetchContext | undefined, startedAt: number): Promise<void> => {
    const budget = context?.budgetMs;
    const maxWaitMs = budget === undefined ? Infinity : Math.max(0, budget - (clock.now() - startedAt) - MIN_REQUEST_MS);
    const turn = await limiter.take(maxWaitMs);
    if (turn.ok) {
      context?.onPacing?.({ waitedMs: turn.waitedMs });
      return;
    }
    context?.onPacing?.({ busy: true, retryAfterMs: turn.retryAfterMs });
    const retryAfterSec = Math.max(1, Math.ceil(turn.retryAfterMs / 1000));
    throw pluginHttpError(
      HTTP_BUSY,
      `${displayName} is rate-limited to ${describeRate(limiter.ratePerSec)}; try again in ${retryAfterSec} s.`,
      { pluginId, url: url.href, retryAfterSec },
    );
  };

  /** The lookup a connection to `url` uses: resolves, then refuses if any address is off limits. */
  const guardedLookup = (url: URL, trusted: boolean): LookupFunction => (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (found) => {
        const refused = trusted ? undefined : found.find((a) => isRefused(a.address));
        if (refused || found.length === 0) {
          const err = fail(
            HTTP_ADDRESS_REFUSED,
            refused
              ? `${hostname} resolves to ${refused.address}, a loopback, private, link-local or reserved address; requests to it are refused.`
              : `${hostname} resolves to no address.`,
            url.href,
          );
          Object.assign(err, { [REFUSAL]: true });
          callback(err as unknown as NodeJS.ErrnoException, '', 0);
          return;
        }
        if (lookupOptions.all) callback(null, found.map((a) => ({ address: a.address, family: a.family })));
        else {
          const pick = found.find((a) => !lookupOptions.family || a.family === lookupOptions.family) ?? found[0]!;
          callback(null, pick.address, pick.family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };

  /** Throws unless the plugin may send a request to `url` (scheme, credentials, grant, literal address). */
  const checkTarget = (url: URL): { trusted: boolean } => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw fail(HTTP_BAD_URL, `Only http:// and https:// URLs can be fetched (got ${url.protocol}).`, url.href);
    }
    if (url.username || url.password) throw fail(HTTP_BAD_URL, 'URLs with a user name or password are not allowed.', url.href);
    if (trustedOrigins.has(url.origin)) return { trusted: true };
    const host = normalizeHost(url.hostname);
    if (grants === ANY_PUBLIC_HOST) {
      // A literal address is never looked up, so it is judged here as a resolved one is at connect time.
      if (isIP(host) === 0) return { trusted: false };
      if (isRefused(host)) {
        throw fail(HTTP_ADDRESS_REFUSED, `${host} is a loopback, private, link-local or reserved address; requests to it are refused.`, url.href);
      }
      return { trusted: true };
    }
    const grant = grantFor(host, grants);
    if (!grant) throw fail(HTTP_HOST_NOT_GRANTED, `Plugin ${pluginId} has no permission to reach ${host}.`, url.href);
    // A literal address is never looked up; a grant naming it exactly is the explicit grant the range needs.
    return { trusted: isIP(host) !== 0 };
  };

  return {
    baseUrl,
    async fetch(request, options, context) {
      const startedAt = clock.now();
      const opts: PluginFetchOptions = (typeof request === 'string' ? options : request) ?? {};
      const input: unknown = typeof request === 'string' ? request : (request as PluginFetchRequest | null)?.url;
      if (typeof opts !== 'object' || typeof input !== 'string') {
        throw fail(HTTP_BAD_REQUEST, 'http.fetch takes a URL and an options object, or one { url, ... } object.');
      }
      let url: URL;
      try {
        url = new URL(input);
      } catch {
        throw fail(HTTP_BAD_URL, `Not an absolute URL: "${input.slice(0, 200)}".`);
      }
      const bad = (message: string) => fail(HTTP_BAD_REQUEST, message, url.href);
      checkOptions(opts, bad);
      appendQuery(url, opts.query, bad);
      let method = (opts.method ?? 'GET').toUpperCase();
      if (!METHODS.has(method)) throw bad(`Unsupported HTTP method "${method.slice(0, 20)}".`);
      let headers = requestHeaders(opts.headers, userAgent, bad);
      let body = requestBody(opts.body, headers, limits.maxBytes, bad);
      const responseType = opts.responseType ?? 'text';
      const timeoutMs = Math.min(limits.timeoutMs, opts.timeoutMs ?? Infinity);
      const connectTimeoutMs = Math.min(limits.connectTimeoutMs ?? 10_000, timeoutMs);

      let target = checkTarget(url);
      await takeTurn(url, context, startedAt);
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), timeoutMs);
      try {
        for (let hop = 0; ; hop++) {
          const res = await send(url, method, headers, body, target.trusted);
          const location = res.headers.location;
          if ([301, 302, 303, 307, 308].includes(res.statusCode ?? 0) && location) {
            res.destroy();
            if (hop >= MAX_REDIRECTS) throw fail(HTTP_TOO_MANY_REDIRECTS, `More than ${MAX_REDIRECTS} redirects.`, url.href);
            let next: URL;
            try {
              next = new URL(location, url);
            } catch {
              throw fail(HTTP_BAD_URL, `The server redirected to an invalid URL: "${location.slice(0, 200)}".`, url.href);
            }
            target = checkTarget(next);
            if (next.origin !== url.origin) headers = without(headers, CREDENTIAL_HEADERS);
            if (res.statusCode === 303 ? method !== 'HEAD' : method === 'POST' && res.statusCode! <= 302) {
              method = 'GET';
              body = null;
              headers = without(headers, ['content-type']);
            }
            url = next;
            await takeTurn(url, context, startedAt);
            continue;
          }
          const bytes = method === 'HEAD' ? Buffer.alloc(0) : await readBody(res, url);
          return { status: res.statusCode ?? 0, headers: responseHeaders(res), body: decode(bytes, responseType, url), url: url.href };
        }
      } finally {
        clearTimeout(timer);
      }

      /** One request/response exchange: resolves at the response head, with the socket's failures mapped to codes. */
      function send(to: URL, verb: string, hdrs: Record<string, string>, payload: Buffer | null, trusted: boolean): Promise<IncomingMessage> {
        return new Promise((resolvePromise, reject) => {
          const client = to.protocol === 'https:' ? https : http;
          let connected = false;
          const req = client.request(to, {
            method: verb,
            headers: payload ? { ...hdrs, 'content-length': String(payload.length) } : hdrs,
            agent: false, // a fresh, checked connection per request: no socket reused past its check
            lookup: guardedLookup(to, trusted),
            signal: deadline.signal,
          });
          const connectTimer = setTimeout(() => {
            if (!connected) req.destroy(fail(HTTP_TIMEOUT, `No connection to ${to.host} within ${connectTimeoutMs} ms.`, to.href));
          }, connectTimeoutMs);
          req.once('socket', (socket) => socket.once('connect', () => (connected = true)));
          req.once('response', (res) => {
            clearTimeout(connectTimer);
            resolvePromise(res);
          });
          req.once('error', (err) => {
            clearTimeout(connectTimer);
            reject(mapError(err, to));
          });
          req.end(payload ?? undefined);
        });
      }

      /** The body up to maxBytes; aborts the download (and fails) as soon as it is known to be larger. */
      function readBody(res: IncomingMessage, from: URL): Promise<Buffer> {
        const tooLarge = () => fail(HTTP_TOO_LARGE, `The response from ${from.host} is larger than ${limits.maxBytes} bytes.`, from.href);
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > limits.maxBytes) {
          res.destroy();
          return Promise.reject(tooLarge());
        }
        return new Promise((resolveBody, reject) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > limits.maxBytes) {
              res.destroy();
              reject(tooLarge());
              return;
            }
            chunks.push(chunk);
          });
          res.once('end', () => resolveBody(Buffer.concat(chunks, size)));
          res.once('error', (err) => reject(mapError(err, from)));
          res.once('close', () => {
            if (!res.complete) reject(mapError(deadline.signal.aborted ? deadline.signal.reason : new Error('connection closed early'), from));
          });
        });
      }

      function mapError(err: unknown, at: URL): Error {
        if (err instanceof Error && (err as { [REFUSAL]?: boolean })[REFUSAL]) return err;
        if (err instanceof Error && 'code' in err && typeof err.code === 'string' && err.code.startsWith('TAGSONIC_ERR_')) return err;
        if (deadline.signal.aborted) return fail(HTTP_TIMEOUT, `No complete answer from ${at.host} within ${timeoutMs} ms.`, at.href, err);
        const why = err instanceof Error ? ((err as NodeJS.ErrnoException).code ?? err.message) : String(err);
        return fail(HTTP_NETWORK, `Could not get an answer from ${at.host} (${why}).`, at.href, err);
      }
    },
  };

  function decode(bytes: Buffer, type: 'json' | 'text' | 'bytes', from: URL): unknown {
    if (type === 'bytes') return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    const text = bytes.toString('utf8');
    if (type === 'text') return text;
    try {
      return text === '' ? null : JSON.parse(text);
    } catch (err) {
      throw fail(HTTP_NOT_JSON, `The answer from ${from.host} is not JSON.`, from.href, err);
    }
  }
}

/** The shapes TypeScript promises but plugin code need not keep. */
function checkOptions(opts: PluginFetchOptions, bad: (message: string) => Error): void {
  if (opts.method !== undefined && typeof opts.method !== 'string') throw bad('method must be a string.');
  if (opts.headers !== undefined && (typeof opts.headers !== 'object' || opts.headers === null)) throw bad('headers must be an object.');
  if (opts.query !== undefined && (typeof opts.query !== 'object' || opts.query === null)) throw bad('query must be an object.');
  if (opts.timeoutMs !== undefined && !(typeof opts.timeoutMs === 'number' && opts.timeoutMs > 0)) throw bad('timeoutMs must be a positive number.');
  if (opts.responseType !== undefined && !['json', 'text', 'bytes'].includes(opts.responseType)) {
    throw bad('responseType must be "json", "text" or "bytes".');
  }
}

function appendQuery(url: URL, query: PluginFetchOptions['query'], bad: (message: string) => Error): void {
  if (!query) return;
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v === null || v === undefined) continue;
      if (typeof v === 'object' || typeof v === 'function') throw bad(`query "${key.slice(0, 100)}" must be a string, number or boolean (or a list of them).`);
      url.searchParams.append(key, String(v));
    }
  }
}

function requestHeaders(given: PluginFetchOptions['headers'], userAgent: string, bad: (message: string) => Error): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': userAgent, 'accept-encoding': 'identity' };
  for (const [rawName, value] of Object.entries(given ?? {})) {
    const name = rawName.toLowerCase();
    if (HEADERS_NOT_FROM_PLUGINS.has(name)) continue;
    try {
      http.validateHeaderName(name);
      http.validateHeaderValue(name, value);
    } catch {
      throw bad(`Header "${rawName.slice(0, 100)}" has an invalid name or value.`);
    }
    if (typeof value !== 'string') throw bad(`Header "${rawName}" must be a string.`);
    headers[name] = value;
  }
  return headers;
}

function requestBody(body: PluginFetchOptions['body'], headers: Record<string, string>, maxBytes: number, bad: (message: string) => Error): Buffer | null {
  if (body === null || body === undefined) return null;
  let bytes: Buffer;
  if (typeof body === 'string') bytes = Buffer.from(body, 'utf8');
  else if (body instanceof Uint8Array) bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  else {
    bytes = Buffer.from(JSON.stringify(body), 'utf8');
    headers['content-type'] ??= 'application/json';
  }
  if (bytes.length > maxBytes) throw bad(`The request body is larger than ${maxBytes} bytes.`);
  return bytes;
}

function responseHeaders(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (name === 'set-cookie' || value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function without(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  const out = { ...headers };
  for (const n of names) delete out[n];
  return out;
}
