import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import { TagsonicError } from '@tagsonic/core/errors';

/** What a session token carries. */
export interface SessionUser {
  sub: string;
  username: string;
  role: 'V1' | 'V2';
  isAdmin: boolean;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: SessionUser;
    user: SessionUser;
  }
}

export const SESSION_DAYS = 7;
/** The spec's scheme: `AUTHORIZATION: jwt <token>` (header, or the cookie of the same name). */
const SCHEME = /^jwt\s+(\S+)$/i;

export function tokenFrom(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string') return SCHEME.exec(header.trim())?.[1];
  return undefined;
}

export async function registerAuth(app: FastifyInstance, jwtKey: string): Promise<void> {
  await app.register(fastifyJwt, {
    secret: jwtKey,
    sign: { algorithm: 'HS256', expiresIn: `${SESSION_DAYS}d` },
    verify: { algorithms: ['HS256'], extractToken: tokenFrom },
  });
}

/** onRequest hook for routes that need a signed-in user (runs before body validation, so anonymous calls get 401, not 400). */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!tokenFrom(request)) throw new TagsonicError('unauthorized', 'TAGSONIC_ERR_AUTH_REQUIRED', 'Please sign in.');
  try {
    await request.jwtVerify();
  } catch {
    throw new TagsonicError('unauthorized', 'TAGSONIC_ERR_AUTH_INVALID', 'Your session has expired; please sign in again.');
  }
}
