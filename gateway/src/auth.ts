import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import fastifyCookie from '@fastify/cookie';
import { TagsonicError } from '@tagsonic/core/errors';
import { effectiveRole, type Users, type UserDoc } from '@tagsonic/core/users';
import { issueCsrfToken, verifyCsrfToken } from '@tagsonic/core/auth';

/** What a session token carries. `role` and `isAdmin` are refreshed from the store on every request. */
export interface SessionUser {
  sub: string;
  username: string;
  role: 'V1' | 'V2';
  isAdmin: boolean;
  /** Random per sign-in: CSRF tokens are bound to it. */
  sid: string;
  /** The account's session epoch at sign-in: a password reset ends older sessions. */
  ep: number;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: SessionUser;
    user: SessionUser;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account as stored (set by `requireUser`). */
    account: UserDoc | null;
  }
}

export const SESSION_DAYS = 7;
/** The cookie and header of the spec: `AUTHORIZATION: jwt <token>`. */
export const AUTH_COOKIE = 'AUTHORIZATION';
/** Django's names, which the original dashboard client used: cookie `csrftoken`, header `X-CSRFToken`. */
export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';
const SCHEME = /^jwt\s+(\S+)$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface AuthOptions {
  jwtKey: string;
  csrfSecret: string;
  users: Users;
}

/** Where the request's token came from; cookie-borne sessions need a CSRF token on mutations. */
function credentials(request: FastifyRequest): { token: string; via: 'header' | 'cookie' } | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.trim() !== '') {
    const token = SCHEME.exec(header.trim())?.[1];
    return token ? { token, via: 'header' } : undefined;
  }
  const cookie = request.cookies?.[AUTH_COOKIE];
  if (typeof cookie === 'string') {
    const token = SCHEME.exec(cookie.trim())?.[1];
    if (token) return { token, via: 'cookie' };
  }
  return undefined;
}

export function tokenFrom(request: FastifyRequest): string | undefined {
  return credentials(request)?.token;
}

export async function registerAuth(app: FastifyInstance, options: AuthOptions): Promise<void> {
  await app.register(fastifyCookie);
  await app.register(fastifyJwt, {
    secret: options.jwtKey,
    sign: { algorithm: 'HS256', expiresIn: `${SESSION_DAYS}d` },
    verify: { algorithms: ['HS256'], extractToken: tokenFrom },
  });
  app.decorate('tagsonicAuth', options);
  app.decorateRequest('account', null);
}

declare module 'fastify' {
  interface FastifyInstance {
    tagsonicAuth: AuthOptions;
  }
}

/**
 * onRequest hook for routes that need a signed-in user. It runs before body validation, so an
 * anonymous call gets 401 (not 400), and a cookie-borne mutation without its CSRF token gets 403.
 */
export async function requireUser(this: FastifyInstance, request: FastifyRequest): Promise<void> {
  const auth = request.server.tagsonicAuth;
  const creds = credentials(request);
  if (!creds) throw new TagsonicError('unauthorized', 'TAGSONIC_ERR_AUTH_REQUIRED', 'Please sign in.');
  let claims: SessionUser;
  try {
    claims = request.server.jwt.verify<SessionUser>(creds.token);
  } catch {
    throw new TagsonicError('unauthorized', 'TAGSONIC_ERR_AUTH_INVALID', 'Your session has expired; please sign in again.');
  }
  if (creds.via === 'cookie' && !SAFE_METHODS.has(request.method)) {
    const header = request.headers[CSRF_HEADER];
    const cookie = request.cookies?.[CSRF_COOKIE];
    if (typeof header !== 'string' || header !== cookie || !verifyCsrfToken(auth.csrfSecret, claims.sid ?? '', header)) {
      throw new TagsonicError('forbidden', 'TAGSONIC_ERR_AUTH_CSRF', 'Missing or wrong CSRF token (X-CSRFToken header); reload the page and try again.');
    }
  }
  const account = await auth.users.findById(claims.sub);
  if (!account || account.username !== claims.username || (account.sessionEpoch ?? 0) !== (claims.ep ?? 0)) {
    throw new TagsonicError('unauthorized', 'TAGSONIC_ERR_AUTH_INVALID', 'Your session has ended; please sign in again.');
  }
  request.account = account;
  request.user = { ...claims, role: effectiveRole(account), isAdmin: account.isAdmin };
}

/** onRequest hook (after `requireUser`) for the admin backend. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!request.user?.isAdmin) {
    throw new TagsonicError('forbidden', 'TAGSONIC_ERR_AUTH_ADMIN_ONLY', 'Only an administrator can do this.');
  }
}

/** onRequest hook (after `requireUser`) for the spec's V2-only features; the client knows code 40302. */
export async function requireV2(request: FastifyRequest): Promise<void> {
  if (request.user?.role !== 'V2') {
    throw new TagsonicError('forbidden', 'TAGSONIC_ERR_AUTH_V1_RESTRICTED', 'V1 version restriction: this feature needs V2; activate it with a code.');
  }
}

/** Hooks for a route: signed in, plus the given gates, in order. */
export const guarded = (...gates: Array<(request: FastifyRequest) => Promise<void>>) => [requireUser, ...gates];

/** Signs a session and sets its cookies (7 days): the HttpOnly token and the readable CSRF token. */
export async function startSession(request: FastifyRequest, reply: FastifyReply, user: UserDoc): Promise<{ token: string; csrf: string }> {
  const auth = request.server.tagsonicAuth;
  const sid = randomBytes(12).toString('base64url');
  const token = request.server.jwt.sign({
    sub: user._id,
    username: user.username,
    role: effectiveRole(user),
    isAdmin: user.isAdmin,
    sid,
    ep: user.sessionEpoch ?? 0,
  });
  const csrf = issueCsrfToken(auth.csrfSecret, sid);
  const common = {
    path: '/',
    maxAge: SESSION_DAYS * 86_400,
    sameSite: 'lax' as const,
    // request.protocol honours X-Forwarded-Proto only from TAGSONIC_TRUSTED_PROXIES.
    secure: request.protocol === 'https',
  };
  reply.setCookie(AUTH_COOKIE, `jwt ${token}`, { ...common, httpOnly: true });
  reply.setCookie(CSRF_COOKIE, csrf, { ...common, httpOnly: false });
  return { token, csrf };
}

export function endSession(request: FastifyRequest, reply: FastifyReply): void {
  const secure = request.protocol === 'https';
  reply.clearCookie(AUTH_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  reply.clearCookie(CSRF_COOKIE, { path: '/', sameSite: 'lax', secure });
}
