/**
 * Subsonic error codes and the ONE function that turns any failure into a Subsonic error body.
 * Handlers throw TagsonicError (core's kinds); the few Subsonic-specific situations (version,
 * authentication mechanisms) have their own TAGSONIC_ERR_SUBSONIC_* codes listed here.
 */
import type { FastifyError } from 'fastify';
import { isTagsonicError, TagsonicError, type ErrorKind } from '@tagsonic/core/errors';
import type { SubsonicErrorBody } from './model.ts';

export const SubsonicCode = {
  GENERIC: 0,
  MISSING_PARAMETER: 10,
  CLIENT_TOO_OLD: 20,
  SERVER_TOO_OLD: 30,
  WRONG_CREDENTIALS: 40,
  TOKEN_AUTH_UNSUPPORTED: 41,
  AUTH_MECHANISM_UNSUPPORTED: 42,
  CONFLICTING_AUTH: 43,
  INVALID_API_KEY: 44,
  NOT_AUTHORIZED: 50,
  TRIAL_EXPIRED: 60,
  NOT_FOUND: 70,
} as const;

/** TagsonicError codes raised by the Subsonic surface itself. */
export const ErrorCodes = {
  MISSING_PARAM: 'TAGSONIC_ERR_SUBSONIC_MISSING_PARAM',
  BAD_PARAM: 'TAGSONIC_ERR_SUBSONIC_BAD_PARAM',
  BAD_INDEX: 'TAGSONIC_ERR_SUBSONIC_BAD_INDEX',
  CLIENT_TOO_OLD: 'TAGSONIC_ERR_SUBSONIC_CLIENT_TOO_OLD',
  SERVER_TOO_OLD: 'TAGSONIC_ERR_SUBSONIC_SERVER_TOO_OLD',
  WRONG_CREDENTIALS: 'TAGSONIC_ERR_SUBSONIC_WRONG_CREDENTIALS',
  TOKEN_UNSUPPORTED: 'TAGSONIC_ERR_SUBSONIC_TOKEN_UNSUPPORTED',
  MECHANISM_UNSUPPORTED: 'TAGSONIC_ERR_SUBSONIC_MECHANISM_UNSUPPORTED',
  CONFLICTING_AUTH: 'TAGSONIC_ERR_SUBSONIC_CONFLICTING_AUTH',
  INVALID_API_KEY: 'TAGSONIC_ERR_SUBSONIC_INVALID_API_KEY',
  NOT_AUTHORIZED: 'TAGSONIC_ERR_SUBSONIC_NOT_AUTHORIZED',
  NOT_IMPLEMENTED: 'TAGSONIC_ERR_SUBSONIC_NOT_IMPLEMENTED',
  UNKNOWN_METHOD: 'TAGSONIC_ERR_SUBSONIC_UNKNOWN_METHOD',
} as const;

/** Codes whose Subsonic number is not their kind's. */
const BY_CODE: Record<string, number> = {
  [ErrorCodes.MISSING_PARAM]: SubsonicCode.MISSING_PARAMETER,
  [ErrorCodes.BAD_INDEX]: SubsonicCode.MISSING_PARAMETER,
  TAGSONIC_ERR_LIBRARY_MISSING_PARAM: SubsonicCode.MISSING_PARAMETER,
  TAGSONIC_ERR_LIBRARY_NO_ID: SubsonicCode.MISSING_PARAMETER,
  TAGSONIC_ERR_RADIO_NO_NAME: SubsonicCode.MISSING_PARAMETER,
  TAGSONIC_ERR_RADIO_NO_STREAM_URL: SubsonicCode.MISSING_PARAMETER,
  [ErrorCodes.CLIENT_TOO_OLD]: SubsonicCode.CLIENT_TOO_OLD,
  [ErrorCodes.SERVER_TOO_OLD]: SubsonicCode.SERVER_TOO_OLD,
  [ErrorCodes.TOKEN_UNSUPPORTED]: SubsonicCode.TOKEN_AUTH_UNSUPPORTED,
  [ErrorCodes.MECHANISM_UNSUPPORTED]: SubsonicCode.AUTH_MECHANISM_UNSUPPORTED,
  [ErrorCodes.CONFLICTING_AUTH]: SubsonicCode.CONFLICTING_AUTH,
  [ErrorCodes.INVALID_API_KEY]: SubsonicCode.INVALID_API_KEY,
};

const BY_KIND: Record<ErrorKind, number> = {
  invalid: SubsonicCode.GENERIC,
  unauthorized: SubsonicCode.WRONG_CREDENTIALS,
  forbidden: SubsonicCode.NOT_AUTHORIZED,
  not_found: SubsonicCode.NOT_FOUND,
  conflict: SubsonicCode.GENERIC,
  unsupported: SubsonicCode.GENERIC,
  unavailable: SubsonicCode.GENERIC,
  internal: SubsonicCode.GENERIC,
};

export interface MappedError {
  body: SubsonicErrorBody;
  /** HTTP status: 200 like every Subsonic answer, except methods we do not implement (501) and unknown ones (404). */
  status: number;
  /** A server-side failure worth logging (details never reach the client). */
  internal: boolean;
}

/** The one translation from any thrown value to what a Subsonic client sees. */
export function toSubsonicError(e: unknown): MappedError {
  if (isTagsonicError(e)) {
    const internal = e.kind === 'internal';
    const status = e.code === ErrorCodes.NOT_IMPLEMENTED ? 501 : e.code === ErrorCodes.UNKNOWN_METHOD ? 404 : 200;
    return { body: { code: BY_CODE[e.code] ?? BY_KIND[e.kind], message: internal ? 'Internal error' : e.message }, status, internal };
  }
  const fe = e as Partial<FastifyError>;
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Fastify's own refusals (body too large, bad content type, malformed form body).
    return { body: { code: SubsonicCode.GENERIC, message: fe.message ?? 'Bad request' }, status: 200, internal: false };
  }
  return { body: { code: SubsonicCode.GENERIC, message: 'Internal error' }, status: 200, internal: true };
}

export const missingParam = (name: string) =>
  new TagsonicError('invalid', ErrorCodes.MISSING_PARAM, `Required parameter "${name}" is missing.`, { details: { param: name } });

export const badParam = (name: string, expected: string) =>
  new TagsonicError('invalid', ErrorCodes.BAD_PARAM, `Parameter "${name}" must be ${expected}.`, { details: { param: name } });

export const notAuthorized = (what: string) => new TagsonicError('forbidden', ErrorCodes.NOT_AUTHORIZED, `You are not authorized to ${what}.`);
