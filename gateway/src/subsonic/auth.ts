/**
 * Who is calling: Subsonic `u` + `p` (clear or `enc:` hex), `u` + `t` + `s` (md5 token), or the
 * OpenSubsonic `apiKey`. Usernames match exactly; empty or unknown values never match; mixing
 * mechanisms is error 43. Also checks the protocol version `v` and the client name `c`.
 */
import { TagsonicError } from '@tagsonic/core/errors';
import type { SubsonicCredentials, UserDoc } from '@tagsonic/core/users';
import { ErrorCodes, missingParam } from './errors.ts';
import { API_VERSION } from './model.ts';
import type { Params } from './params.ts';

/** Query/form parameters that carry secrets: never logged. */
export const SECRET_PARAMS = ['p', 't', 's', 'apiKey'] as const;

const fail = (kind: 'unauthorized' | 'invalid' | 'unsupported', code: string, message: string) => new TagsonicError(kind, code, message);

const wrongCredentials = () => fail('unauthorized', ErrorCodes.WRONG_CREDENTIALS, 'Wrong username or password.');

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

/** The authenticated account, or a TagsonicError carrying the Subsonic auth failure. */
export async function authenticate(params: Params, credentials: SubsonicCredentials): Promise<UserDoc> {
  const u = params.str('u');
  const p = params.str('p');
  const t = params.str('t');
  const s = params.str('s');
  const apiKey = params.str('apiKey');
  if (params.has('jwt')) {
    throw fail('unsupported', ErrorCodes.MECHANISM_UNSUPPORTED, 'JWT authentication is not supported: use u with p or t+s, or an API key (apiKey).');
  }
  if (apiKey !== undefined) {
    if (u !== undefined || p !== undefined || t !== undefined || s !== undefined) {
      throw fail('invalid', ErrorCodes.CONFLICTING_AUTH, 'Multiple conflicting authentication mechanisms provided: with apiKey, send no u, p, t or s.');
    }
    const user = apiKey === '' ? null : await credentials.verifyApiKey(apiKey);
    if (!user) throw fail('unauthorized', ErrorCodes.INVALID_API_KEY, 'Invalid API key.');
    return user;
  }
  if (u === undefined || u === '') throw missingParam('u');
  if (p !== undefined && (t !== undefined || s !== undefined)) {
    throw fail('invalid', ErrorCodes.CONFLICTING_AUTH, 'Multiple conflicting authentication mechanisms provided: send either p or t+s.');
  }
  if (t !== undefined || s !== undefined) {
    if (t === undefined || t === '') throw missingParam('t');
    if (s === undefined || s === '') throw missingParam('s');
    const user = await credentials.verifySubsonicToken(u, t, s);
    if (!user) throw wrongCredentials();
    return user;
  }
  if (p === undefined) throw missingParam('p');
  const user = p === '' ? null : await credentials.verifySubsonicPassword(u, p);
  if (!user) throw wrongCredentials();
  return user;
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
