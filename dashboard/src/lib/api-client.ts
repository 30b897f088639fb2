/**
 * The dashboard's one HTTP client. Every call: `X-Requested-With`, the CSRF header from its cookie, the
 * session cookie (credentials), a 200 000 ms timeout. It unwraps the envelope (`result`, `message`/`msg`,
 * `data`, `token`, `code`), turns failures into DashboardError, and raises the notices of the spec's error
 * catalogue here and nowhere else.
 */
import { DashboardError, type ErrorKind } from './errors.ts';
import { HTTP_TIMEOUT_MS } from './constants.ts';
import { readCookie } from './cookies.ts';
import { translate, useLang } from './i18n.ts';
import { notify, type NoticeIntent } from './notify.ts';
import { serverMessage } from './server-messages.ts';

export interface Envelope<T> {
  result: boolean;
  code: number;
  message: string;
  data: T;
  token?: string;
}

/** How a call announces itself: a title, the server's message (or `fallback`) as content, a duration. */
export interface NoticeSpec {
  title: string;
  timeout: number;
  /** Content when the server sent no message; `false` shows the title alone. */
  content?: string | false;
  fallback?: string;
  intent?: NoticeIntent;
  /** HTTP statuses that stay silent (the spec ignores a 401 on the file list). */
  silentStatuses?: number[];
  /** A button in the notice (the editor's Undo). */
  action?: { text: string; onClick: () => void };
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  /** JSON-serialised, or sent as multipart when it is a FormData. */
  body?: unknown;
  query?: Record<string, string | number | boolean>;
  /** The failure notice; `false` for none. Default: 请求异常，请刷新重试 with the server's message. */
  onError?: NoticeSpec | false;
  /** The success notice; a function builds it from the answer's data (to offer an action on it). */
  onSuccess?: NoticeSpec | ((data: unknown) => NoticeSpec);
  signal?: AbortSignal;
}

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'X-CSRFToken';
export const AUTH_COOKIE = 'AUTHORIZATION';
const GENERIC_FAILURE = '请求异常，请刷新重试';

interface Config {
  baseUrl: string;
  fetch: typeof fetch;
  cookies: () => string;
  onUnauthorized?: (path: string) => void;
}

const config: Config = {
  baseUrl: '',
  fetch: (...args) => fetch(...args),
  cookies: () => (typeof document === 'undefined' ? '' : document.cookie),
};

/** Tests and the shell adjust the transport (base URL, cookie source) and the 401 reaction. */
export function configureApiClient(next: Partial<Config>): void {
  Object.assign(config, next);
}

const KIND_BY_STATUS: Record<number, ErrorKind> = { 400: 'invalid', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'conflict', 413: 'invalid', 415: 'unsupported', 429: 'forbidden', 503: 'unavailable' };

/**
 * The failure of a call: `code` is the server's TAGSONIC_ERR_* code, `message` the text for it in the
 * interface language (server-messages.ts), `details` carry status, envelope and the server's own words.
 */
export type ApiError = DashboardError & { details: { status: number; code: number; data: unknown; serverMessage: string } };

export const isApiError = (e: unknown): e is ApiError => e instanceof DashboardError && typeof e.details?.status === 'number';

/** `clientCode` names a failure found before any envelope (network, timeout, not JSON). */
function apiError(status: number, envelope: Partial<Envelope<unknown>> & { msg?: string }, clientCode?: string): ApiError {
  const said = envelope.message || envelope.msg || '';
  const data = envelope.data as { error?: unknown } | null | undefined;
  const named = typeof data?.error === 'string' ? data.error : clientCode;
  const code = named ?? (status >= 200 && status < 300 ? 'TAGSONIC_ERR_DASHBOARD_REFUSED' : 'TAGSONIC_ERR_DASHBOARD_HTTP');
  const kind = KIND_BY_STATUS[status] ?? (status >= 500 ? 'unavailable' : 'invalid');
  // A code the catalogue knows speaks the interface language; an unknown one (or none) keeps the server's words.
  const message = (named ? serverMessage(named, said, useLang.getState().lang) : said) || (status >= 200 && status < 300 ? '' : translate(GENERIC_FAILURE));
  return new DashboardError(kind, code, message, { status, code: envelope.code ?? status * 100, data: envelope.data ?? null, serverMessage: said }) as ApiError;
}

function url(path: string, query?: CallOptions['query']): string {
  const q = query ? new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString() : '';
  return `${config.baseUrl}${path}${q ? `?${q}` : ''}`;
}

function headers(body: unknown): Record<string, string> {
  const h: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
  const cookies = config.cookies();
  const csrf = readCookie(CSRF_COOKIE, cookies);
  if (csrf) h[CSRF_HEADER] = csrf;
  // The server's session cookie is HttpOnly, so this only applies where a readable one was set by hand.
  const auth = readCookie(AUTH_COOKIE, cookies);
  if (auth) h.AUTHORIZATION = auth;
  if (body !== undefined && !(body instanceof FormData)) h['Content-Type'] = 'application/json';
  return h;
}

/** `message` is already in the interface language (a failure's catalogue text, or a translated success). */
function announce(spec: NoticeSpec, message: string, intent: NoticeIntent): void {
  const content = spec.content === false ? undefined : spec.content ?? (message || (spec.fallback !== undefined ? translate(spec.fallback) : undefined));
  notify({ intent: spec.intent ?? intent, title: translate(spec.title), content, timeout: spec.timeout, action: spec.action });
}

/** Calls the dashboard API; resolves with the unwrapped envelope, rejects with an ApiError (already announced). */
export async function apiCall<T>(path: string, options: CallOptions = {}): Promise<Envelope<T>> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const timeout = AbortSignal.timeout(HTTP_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let status = 0;
  let envelope: Partial<Envelope<T>> & { msg?: string };
  // Failures the browser sees before any envelope (network, timeout, not JSON) get the client's own codes.
  let clientCode: string | undefined;
  try {
    const res = await config.fetch(url(path, options.query), {
      method,
      headers: headers(options.body),
      body: options.body === undefined ? undefined : options.body instanceof FormData ? options.body : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal,
    });
    status = res.status;
    const text = await res.text();
    try {
      envelope = text ? (JSON.parse(text) as typeof envelope) : {};
    } catch {
      const answered = status >= 200 && status < 300;
      clientCode = answered ? 'TAGSONIC_ERR_DASHBOARD_NOT_JSON' : 'TAGSONIC_ERR_DASHBOARD_HTTP';
      envelope = { result: false, message: answered ? 'The server answered with something that is not JSON.' : GENERIC_FAILURE };
    }
  } catch (e) {
    if (options.signal?.aborted) throw e;
    // The spec's client turns a network failure into code 500 with the error's message.
    status = 500;
    const message = timeout.aborted ? `No answer within ${HTTP_TIMEOUT_MS / 1000} s` : e instanceof Error ? e.message : String(e);
    clientCode = timeout.aborted ? 'TAGSONIC_ERR_DASHBOARD_TIMEOUT' : 'TAGSONIC_ERR_DASHBOARD_NETWORK';
    envelope = { result: false, code: 500, message };
  }

  const ok = status >= 200 && status < 300 && envelope.result === true;
  if (!ok) {
    const error = apiError(status, envelope, clientCode);
    if (status === 401 && config.onUnauthorized) config.onUnauthorized(path);
    const spec = options.onError;
    if (spec !== false && !spec?.silentStatuses?.includes(status)) {
      const outside = status < 200 || status >= 300;
      announce(spec ?? { title: GENERIC_FAILURE, timeout: 5000, content: outside ? error.message : undefined }, error.message, 'danger');
    }
    throw error;
  }
  const message = envelope.message || envelope.msg || '';
  // Success messages are the spec's Chinese texts (上传成功！); English mode shows their translation.
  if (options.onSuccess) announce(typeof options.onSuccess === 'function' ? options.onSuccess(envelope.data) : options.onSuccess, message && translate(message), 'success');
  return { result: true, code: envelope.code ?? 0, message, data: envelope.data as T, token: envelope.token };
}

/**
 * GET on the Subsonic API (`/rest/*`, JSON) with the u/t/s credentials the dashboard keeps in its
 * cookies (username, hash = md5(password + salt), salt). Its errors are Subsonic's, not the envelope:
 * callers decide whether to show them (the header search shows nothing).
 */
export async function subsonicGet<T>(endpoint: string, params: Record<string, string | number>, signal?: AbortSignal): Promise<T> {
  const cookies = config.cookies();
  const u = readCookie('username', cookies);
  const t = readCookie('hash', cookies);
  const s = readCookie('salt', cookies);
  if (!u || !t || !s) {
    const code = 'TAGSONIC_ERR_DASHBOARD_NO_SUBSONIC';
    throw new DashboardError('unauthorized', code, serverMessage(code, '', useLang.getState().lang));
  }
  const query = { u, t, s, v: '1.16.1', c: 'tagsonic-dashboard', f: 'json', ...params };
  const timeout = AbortSignal.timeout(HTTP_TIMEOUT_MS);
  const res = await config.fetch(url(`/rest/${endpoint}`, query), {
    headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
    credentials: 'same-origin',
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  const body = (await res.json().catch(() => null)) as { 'subsonic-response'?: { status?: string; error?: { code: number; message: string } } & T } | null;
  const answer = body?.['subsonic-response'];
  if (!res.ok || !answer || answer.status !== 'ok') {
    // The Subsonic code stays in details: 40 (wrong credentials) is the library's "no streaming password" case.
    throw new DashboardError('unavailable', 'TAGSONIC_ERR_DASHBOARD_SUBSONIC', answer?.error?.message ?? `Subsonic ${endpoint} answered ${res.status}`, { status: res.status, subsonicCode: answer?.error?.code ?? null });
  }
  return answer;
}
