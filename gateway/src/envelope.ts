import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { isTagsonicError, type ErrorKind } from '@tagsonic/core/errors';

/**
 * The dashboard API's response envelope, as the spec's client reads it: `result`, `message` (and
 * `msg`), `data`, plus a numeric `code`. Every /apimt and /user error goes through `sendError`.
 */
export interface Envelope<T = unknown> {
  result: boolean;
  code: number;
  message: string;
  msg: string;
  data: T;
}

export function ok<T>(data: T, message = 'ok'): Envelope<T> {
  return { result: true, code: 0, message, msg: message, data };
}

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unsupported: 415,
  unavailable: 503,
  internal: 500,
};

/** Numeric codes: the HTTP status × 100, plus a few named ones the spec's client knows (40302). */
const NAMED_CODES: Record<string, number> = {
  TAGSONIC_ERR_AUTH_V1_RESTRICTED: 40302,
  TAGSONIC_ERR_AUTH_RATE_LIMITED: 42900,
};

/** Error codes whose HTTP status is not their kind's default. */
const NAMED_STATUS: Record<string, number> = {
  TAGSONIC_ERR_AUTH_RATE_LIMITED: 429,
  TAGSONIC_ERR_UPLOAD_TOO_LARGE: 413,
};

export function errorEnvelope(e: unknown): { status: number; body: Envelope<{ error: string } | null> } {
  if (isTagsonicError(e)) {
    const status = NAMED_STATUS[e.code] ?? STATUS[e.kind];
    const message = status >= 500 && e.kind === 'internal' ? 'Internal error' : e.message;
    return {
      status,
      body: { result: false, code: NAMED_CODES[e.code] ?? status * 100, message, msg: message, data: { error: e.code } },
    };
  }
  const fe = e as Partial<FastifyError>;
  if (fe.validation) {
    const message = `Invalid request: ${fe.message ?? 'bad input'}`;
    return { status: 400, body: { result: false, code: 40000, message, msg: message, data: { error: 'TAGSONIC_ERR_HTTP_INVALID' } } };
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    const message = fe.message ?? 'Bad request';
    return {
      status: fe.statusCode,
      body: { result: false, code: fe.statusCode * 100, message, msg: message, data: { error: fe.code ?? 'TAGSONIC_ERR_HTTP' } },
    };
  }
  return { status: 500, body: { result: false, code: 50000, message: 'Internal error', msg: 'Internal error', data: { error: 'TAGSONIC_ERR_INTERNAL' } } };
}

export function sendError(reply: FastifyReply, e: unknown): FastifyReply {
  const { status, body } = errorEnvelope(e);
  if (status >= 500) reply.log.error({ err: e }, 'request failed');
  return reply.status(status).send(body);
}

/** Installs the envelope error handler on an encapsulated context (the dashboard API). */
export function useEnvelopeErrors(app: FastifyInstance): void {
  app.setErrorHandler((error, _request, reply) => sendError(reply, error));
}

/** The answer for a path no route serves (the app's not-found handler decides between this and the dashboard page). */
export function notFoundEnvelope(method: string, url: string): Envelope<{ error: string }> {
  const message = `No route ${method} ${url}`;
  return { result: false, code: 40400, message, msg: message, data: { error: 'TAGSONIC_ERR_HTTP_NO_ROUTE' } };
}
