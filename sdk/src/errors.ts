/**
 * The one error type that crosses the sandbox boundary. Capabilities throw it, plugins may throw it, and the
 * host reports `code` and `message` (never a host stack trace). Codes are stable; the dashboard localises by
 * code, so a plugin should pick the closest one rather than invent its own.
 */

/**
 * Why a call failed.
 * - `TAGSONIC_ERR_PLUGIN_DENIED`: the manifest does not grant this (host, file access, capability).
 * - `TAGSONIC_ERR_PLUGIN_INVALID`: the options are wrong (bad path, unknown preset, key too long).
 * - `TAGSONIC_ERR_PLUGIN_NOT_FOUND`: the file or item the call names does not exist.
 * - `TAGSONIC_ERR_PLUGIN_CONFLICT`: the target already exists (move/copy without `overwrite`).
 * - `TAGSONIC_ERR_PLUGIN_TIMEOUT`: the call or the whole invocation ran out of time.
 * - `TAGSONIC_ERR_PLUGIN_LIMIT`: a size, memory or rate limit was hit.
 * - `TAGSONIC_ERR_PLUGIN_UPSTREAM`: the remote service failed or answered in a shape the plugin no longer
 *   understands ("response shape changed: <field>").
 * - `TAGSONIC_ERR_PLUGIN_FAILED`: anything else.
 *
 * @example
 * const code: PluginErrorCode = 'TAGSONIC_ERR_PLUGIN_UPSTREAM';
 */
export type PluginErrorCode =
  | 'TAGSONIC_ERR_PLUGIN_DENIED'
  | 'TAGSONIC_ERR_PLUGIN_INVALID'
  | 'TAGSONIC_ERR_PLUGIN_NOT_FOUND'
  | 'TAGSONIC_ERR_PLUGIN_CONFLICT'
  | 'TAGSONIC_ERR_PLUGIN_TIMEOUT'
  | 'TAGSONIC_ERR_PLUGIN_LIMIT'
  | 'TAGSONIC_ERR_PLUGIN_UPSTREAM'
  | 'TAGSONIC_ERR_PLUGIN_FAILED';

/** Every {@link PluginErrorCode}, for hosts that validate a code coming back from plugin code. */
export const PLUGIN_ERROR_CODES: readonly PluginErrorCode[] = [
  'TAGSONIC_ERR_PLUGIN_DENIED',
  'TAGSONIC_ERR_PLUGIN_INVALID',
  'TAGSONIC_ERR_PLUGIN_NOT_FOUND',
  'TAGSONIC_ERR_PLUGIN_CONFLICT',
  'TAGSONIC_ERR_PLUGIN_TIMEOUT',
  'TAGSONIC_ERR_PLUGIN_LIMIT',
  'TAGSONIC_ERR_PLUGIN_UPSTREAM',
  'TAGSONIC_ERR_PLUGIN_FAILED',
];

/**
 * A failure with a stable code. `details` must be plain JSON (it is copied across the boundary).
 *
 * @example
 * if (typeof body.songs !== 'object') {
 *   throw new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', 'response shape changed: songs', { status: 200 });
 * }
 */
export class PluginError extends Error {
  override readonly name = 'PluginError';
  readonly code: PluginErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: PluginErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    if (details !== undefined) this.details = details;
  }
}

/**
 * True for a {@link PluginError}, including one rebuilt on the other side of the sandbox boundary (where
 * `instanceof` cannot work because the class was defined in another realm).
 *
 * @example
 * try { await caps.http.fetch({ url }); } catch (e) { if (isPluginError(e) && e.code === 'TAGSONIC_ERR_PLUGIN_TIMEOUT') retry(); }
 */
export const isPluginError = (value: unknown): value is PluginError =>
  value instanceof PluginError ||
  (value instanceof Error && value.name === 'PluginError' &&
    PLUGIN_ERROR_CODES.includes((value as { code?: unknown }).code as PluginErrorCode));
