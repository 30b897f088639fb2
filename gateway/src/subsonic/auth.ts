/**
 * Who is calling: Subsonic `u` + `p` (clear or `enc:` hex), `u` + `t` + `s` (md5 token), or the
 * OpenSubsonic `apiKey`. Usernames match exactly; empty values are ignored and unknown ones never
 * match; mixing mechanisms is error 43; failures are throttled per address and account (core's
 * LoginThrottle, scope "subsonic"). Also checks the protocol version `v` and the client name `c`.
 */
import { TagsonicError } from '@tagsonic/core/errors';
import type { LoginThrottle } from '@tagsonic/core/auth';
import type { SubsonicCredentials, UserDoc } from '@tagsonic/core/users';
import { ErrorCodes, missingParam } from './errors.ts';
import { API_VERSION } from './model.ts';
import type { Params } from './params.ts';

/** Query/form parameters that carry secrets: never logged. */
export const SECRET_PARAMS = ['p', 't', 's', 'apiKey'] as const;

const fail = (kind: 'unauthorized' | 'invalid' | 'unsupported', code: string, message: string) => new TagsonicError(kind, code, message);

const wrongCredentials = () => fail('unauthorized', ErrorCodes.WRONG_CREDENTIALS, 'Wrong username or password.');
const invalidApiKey = () => fail('unauthorized', ErrorCodes.INVALID_API_KEY, 'Invalid API key.');

/** Checks `v` (required) against the version we speak: another major, or a newer minor, cannot work. */
export function checkVersion(v: string | undefined): void {
  if (v === undefined || v === '') throw missingParam('v');
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?$/.exec(v.trim());
  if (!m) throw fail('invalid', ErrorCodes.BAD_PARAM, `Parameter "v" must be a protocol version such as ${API_VERSION}.`);
  const [major, minor] = [Number(m[1]), Number(m[2])];
  const [ourMajor, ourMinor] = API_VERSION.split('.').map(Number) as [number, number];
  if (major < ourMajor) throw fail('invalid', ErrorCodes.CLIENT_TOO_OLD, `Incompatible Subsonic REST protocol version ${v}: the client must upgrade (server speaks ${API_VERSION}).`);
  if (major > ourMajor || (major === ourMajor && minor > ourMinor)) {
    throw fail('invalid', ErrorCodes.SERVER_TOO_OLD, `Incompatible Subsonic REST protocol version ${v}: the server speaks ${API_VERSION}.`);
  }
}

/** Where a request comes from and the limiter its failures count in (absent: no limit, as in unit tests). */
export interface AuthGuard {
  throttle: LoginThrottle;
  /** The client address (`request.ip`: X-Forwarded-For only from a trusted proxy). */
  ip: string;
}

/**
 * The authenticated account, or a TagsonicError carrying the Subsonic auth failure. With a guard, wrong
 * credentials are counted per address and account, an address over its limit is refused (error 40 with
 * the retry time) before and after its credentials are checked, and a right answer costs no store access.
 */
export async function authenticate(params: Params, credentials: SubsonicCredentials, guard?: AuthGuard): Promise<UserDoc> {
  const claim = readCredentials(params);
  const check = () => verify(claim, credentials);
  const user = guard ? await guard.throttle.attempt(guard.ip, claim.username, check, { slowFailures: true }) : await check();
  if (!user) throw claim.kind === 'apiKey' ? invalidApiKey() : wrongCredentials();
  return user;
}

type Claim =
  | { kind: 'apiKey'; username: undefined; apiKey: string | undefined }
  | { kind: 'token'; username: string; t: string; s: string }
  | { kind: 'password'; username: string; p: string | undefined };

/**
 * Which mechanism the request uses. An empty `p`, `t`, `s` or `apiKey` is no credential and is ignored
 * (as Navidrome does: airsonic-refix sends `p=` beside a valid `t`+`s`); sent alone it still fails as a
 * wrong password or API key rather than a missing parameter.
 */
function readCredentials(params: Params): Claim {
  const given = (name: string) => {
    const v = params.str(name);
    return v === '' ? undefined : v;
  };
  const u = given('u');
  const p = given('p');
  const t = given('t');
  const s = given('s');
  const apiKey = given('apiKey');
  if (params.has('jwt')) {
    throw fail('unsupported', ErrorCodes.MECHANISM_UNSUPPORTED, 'JWT authentication is not supported: use u with p or t+s, or an API key (apiKey).');
  }
  if (apiKey !== undefined || (u === undefined && params.has('apiKey'))) {
    if (u !== undefined || p !== undefined || t !== undefined || s !== undefined) {
      throw fail('invalid', ErrorCodes.CONFLICTING_AUTH, 'Multiple conflicting authentication mechanisms provided: with apiKey, send no u, p, t or s.');
    }
    return { kind: 'apiKey', username: undefined, apiKey };
  }
  if (u === undefined) throw missingParam('u');
  if (p !== undefined && (t !== undefined || s !== undefined)) {
    throw fail('invalid', ErrorCodes.CONFLICTING_AUTH, 'Multiple conflicting authentication mechanisms provided: send either p or t+s.');
  }
  if (t !== undefined || s !== undefined) {
    if (t === undefined) throw missingParam('t');
    if (s === undefined) throw missingParam('s');
    return { kind: 'token', username: u, t, s };
  }
  if (p === undefined && !params.has('p')) throw missingParam('p');
  return { kind: 'password', username: u, p };
}

async function verify(claim: Claim, credentials: SubsonicCredentials): Promise<UserDoc | null> {
  switch (claim.kind) {
    case 'apiKey':
      return claim.apiKey === undefined ? null : credentials.verifyApiKey(claim.apiKey);
    case 'token':
      return credentials.verifySubsonicToken(claim.username, claim.t, claim.s);
    case 'password':
      return claim.p === undefined ? null : credentials.verifySubsonicPassword(claim.username, claim.p);
  }
}

/** The URL with the values of secret parameters replaced (every occurrence), for logs. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const rawName = eq < 0 ? part : part.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed escape is logged as sent; it cannot be a parameter we read either.
      }
      return (SECRET_PARAMS as readonly string[]).includes(name) ? `${rawName}=[redacted]` : part;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}
