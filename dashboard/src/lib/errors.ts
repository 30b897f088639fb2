/**
 * The dashboard's error: the browser bundle may not import server packages (core), so this mirrors
 * core's TagsonicError shape — a kind, a stable `TAGSONIC_ERR_<AREA>_<WHAT>` code, a message fit for
 * the user, and details (for API failures: HTTP status, envelope code, envelope data).
 */
export type ErrorKind = 'invalid' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'unsupported' | 'unavailable' | 'internal';

export class DashboardError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(kind: ErrorKind, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'DashboardError';
    this.kind = kind;
    this.code = code;
    this.details = details;
  }
}

export const invalid = (code: string, message: string, details?: Record<string, unknown>) => new DashboardError('invalid', code, message, details);
