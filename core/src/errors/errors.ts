/**
 * One error type per failure kind. Every surface (dashboard API, Subsonic, CLI) translates these in
 * one place; `message` is safe to show to a user, `cause` never leaves the process.
 */

export type ErrorKind =
  | 'invalid' // bad input from the caller
  | 'unauthorized' // not signed in / bad credentials
  | 'forbidden' // signed in but not allowed (role, edition, path outside the roots)
  | 'not_found'
  | 'conflict' // duplicate key, concurrent change, state does not allow it
  | 'unsupported' // a format or operation this build cannot do
  | 'unavailable' // a dependency (store, bus, ffmpeg) is down or missing
  | 'internal';

export class TagsonicError extends Error {
  readonly kind: ErrorKind;
  /** Stable machine code, `TAGSONIC_ERR_<AREA>_<WHAT>`. */
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(kind: ErrorKind, code: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TagsonicError';
    this.kind = kind;
    this.code = code;
    this.details = options?.details;
  }
}

export const isTagsonicError = (e: unknown): e is TagsonicError => e instanceof TagsonicError;

export const invalid = (code: string, message: string, details?: Record<string, unknown>) =>
  new TagsonicError('invalid', code, message, { details });
export const notFound = (code: string, message: string, details?: Record<string, unknown>) =>
  new TagsonicError('not_found', code, message, { details });
export const forbidden = (code: string, message: string, details?: Record<string, unknown>) =>
  new TagsonicError('forbidden', code, message, { details });
export const conflict = (code: string, message: string, details?: Record<string, unknown>) =>
  new TagsonicError('conflict', code, message, { details });
export const unsupported = (code: string, message: string, details?: Record<string, unknown>) =>
  new TagsonicError('unsupported', code, message, { details });
export const unavailable = (code: string, message: string, cause?: unknown) =>
  new TagsonicError('unavailable', code, message, { cause });
