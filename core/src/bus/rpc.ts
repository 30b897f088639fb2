import { invalid, isTagsonicError, TagsonicError, type ErrorKind } from '../errors/index.ts';
import { decodePayload, encodePayload, errorMessage } from './codec.ts';
import type { RequestHandler, ServeOptions } from './port.ts';

/** Prefix of every request/reply subject. */
export const RPC_PREFIX = 'tagsonic.rpc.';

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

const KINDS: readonly ErrorKind[] = ['invalid', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'unsupported', 'unavailable', 'internal'];

/** What travels back to the caller: the handler's value, or its error with everything but the stack and cause. */
type Reply = { ok: true; value: unknown } | { ok: false; error: { kind: ErrorKind; code: string; message: string; details?: Record<string, unknown> } };

export function assertServeOptions(options: ServeOptions): void {
  if (typeof options?.queue !== 'string' || options.queue === '' || /[\s.*>]/.test(options.queue)) {
    throw invalid('TAGSONIC_ERR_BUS_OPTIONS_INVALID', 'serve() needs a queue name without blanks, dots or wildcards.');
  }
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw invalid('TAGSONIC_ERR_BUS_OPTIONS_INVALID', 'serve() needs a concurrency of at least 1.');
  }
}

export function assertTimeout(timeoutMs: number): void {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw invalid('TAGSONIC_ERR_BUS_OPTIONS_INVALID', 'A request timeout must be a positive number of milliseconds.');
  }
}

/**
 * Runs the handler and encodes its outcome as JSON. An error that is not a TagsonicError is a bug in the
 * responder: it crosses as `internal` (the gateway never shows an internal message to clients).
 */
export async function answer(handler: RequestHandler<unknown>, json: string): Promise<string> {
  let reply: Reply;
  try {
    const value = await handler(decodePayload(json));
    reply = { ok: true, value: value ?? null };
  } catch (error) {
    reply = isTagsonicError(error)
      ? { ok: false, error: { kind: error.kind, code: error.code, message: error.message, details: error.details } }
      : { ok: false, error: { kind: 'internal', code: 'TAGSONIC_ERR_BUS_HANDLER_FAILED', message: errorMessage(error) } };
  }
  try {
    return encodePayload(reply);
  } catch (error) {
    return encodePayload({ ok: false, error: { kind: 'internal', code: 'TAGSONIC_ERR_BUS_HANDLER_FAILED', message: errorMessage(error) } });
  }
}

/** A reply carrying only this error (for failures of the transport around the handler). */
export function encodeError(error: TagsonicError): string {
  return encodePayload({ ok: false, error: { kind: error.kind, code: error.code, message: error.message, details: error.details } });
}

export const replyTooLarge = (subject: string, bytes: number, max: number) =>
  new TagsonicError('unavailable', 'TAGSONIC_ERR_BUS_REPLY_TOO_LARGE', `The reply to ${subject} (${bytes} bytes) is larger than the bus carries (${max} bytes).`, {
    details: { subject, bytes, max },
  });

/** The caller's side of `answer`: the value, or the responder's error rebuilt as a TagsonicError. */
export function settle<T>(json: string, subject: string): T {
  let reply: Reply;
  try {
    reply = decodePayload<Reply>(json);
  } catch (cause) {
    throw new TagsonicError('internal', 'TAGSONIC_ERR_BUS_REPLY_INVALID', `The reply to ${subject} is not JSON: ${errorMessage(cause)}`);
  }
  if (reply?.ok === true) return reply.value as T;
  const e = reply?.ok === false ? reply.error : undefined;
  if (!e || typeof e.code !== 'string' || typeof e.message !== 'string') {
    throw new TagsonicError('internal', 'TAGSONIC_ERR_BUS_REPLY_INVALID', `The reply to ${subject} has no value and no error.`);
  }
  const kind = KINDS.includes(e.kind) ? e.kind : 'internal';
  throw new TagsonicError(kind, e.code, e.message, { details: e.details ?? undefined });
}

export const noResponder = (subject: string) =>
  new TagsonicError('unavailable', 'TAGSONIC_ERR_BUS_NO_RESPONDER', `Nothing answers ${subject}: no worker is running.`, { details: { subject } });

export const requestTimeout = (subject: string, timeoutMs: number) =>
  new TagsonicError('unavailable', 'TAGSONIC_ERR_BUS_TIMEOUT', `No answer to ${subject} within ${timeoutMs} ms.`, { details: { subject, timeoutMs } });

/** Bounds how many requests one responder handles at once; the rest wait in arrival order. */
export class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly idle: (() => void)[] = [];
  private readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }

  async run<R>(fn: () => Promise<R>): Promise<R> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      const next = this.waiting.shift();
      if (next) next();
      else if (this.running === 0) for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  /** Resolves once nothing is running or waiting. */
  drained(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }
}

/** The request/reply subjects; like commands, the payload carries the ids. */
export const RPC_SUBJECTS = {
  /** A plugin export run by a worker's plugin pool: payload {@link PluginInvokeRequest}, reply the export's JSON result. */
  pluginsInvoke: 'tagsonic.rpc.plugins.invoke',
} as const;

/**
 * One call of a plugin export. For a tag source's `search` the reply is the candidates with the host's
 * `title_score` / `artist_score` / `album_score` added (the pool scores, so every caller sees the same).
 */
export interface PluginInvokeRequest {
  pluginId: string;
  export: string;
  options?: unknown;
}
