/**
 * The one error type that crosses the sandbox boundary. Capabilities throw it, plugins may throw it, and the
 * host reports `code` and `message` (never a host stack trace). Codes are stable; the dashboard localises by
 * code, so a plugin should pick the closest one rather than invent its own.
 */

/**
 * Why a call failed. Capabilities throw these into plugin code; a plugin throws the last group itself (or
 * rethrows what it caught). The host's own invocation failures (`TAGSONIC_ERR_PLUGIN_TIMEOUT`,
 * `…_MEMORY`, `…_THREW`, …) are reported by the host and never reach plugin code.
 *
 * From `http.fetch`:
 * - `…_HTTP_BAD_URL`: not an absolute http(s) URL. `…_HTTP_BAD_REQUEST`: a bad method, header, query or option.
 * - `…_HTTP_HOST_NOT_GRANTED`: the manifest grants no such host. `…_HTTP_ADDRESS_REFUSED`: the host resolved
 *   to a loopback, private, link-local or metadata address that is not granted.
 * - `…_HTTP_TOO_MANY_REDIRECTS`, `…_HTTP_TOO_LARGE` (response over the size cap), `…_HTTP_TIMEOUT`,
 *   `…_HTTP_NETWORK` (DNS, connection, TLS), `…_HTTP_NOT_JSON` (`responseType: 'json'` on a non-JSON body).
 * - `…_HTTP_BUSY`: the source's pacing (its requests per second) would give this request its turn only after
 *   the invocation's time is up, so it was not sent; `details.retryAfterSec` says when a turn is free. The host
 *   does not count it towards auto-disabling the plugin; a plugin should let it through (or skip the request).
 *
 * From the other capabilities:
 * - `…_DENIED`: not granted (a read-only grant asked to write, a path outside the media roots).
 * - `…_INVALID`: the options are wrong (unknown preset, empty key). `…_NOT_FOUND`: the file does not exist.
 * - `…_CONFLICT`: the target exists (move/copy without `overwrite`). `…_LIMIT`: a size cap (kv value, ffmpeg queue).
 *
 * From plugins:
 * - `…_UPSTREAM`: the remote service failed or answered in a shape the plugin no longer understands
 *   ("response shape changed: result.songs"); the /mod screen shows it as the source's last error.
 * - `…_FAILED`: anything else.
 *
 * @example
 * const code: PluginErrorCode = 'TAGSONIC_ERR_PLUGIN_UPSTREAM';
 */
export type PluginErrorCode = (typeof PLUGIN_ERROR_CODES)[number];

/**
 * Every {@link PluginErrorCode}, for hosts that check a code coming back from plugin code.
 *
 * @example
 * const code = PLUGIN_ERROR_CODES.includes(raw as PluginErrorCode) ? (raw as PluginErrorCode) : 'TAGSONIC_ERR_PLUGIN_FAILED';
 */
export const PLUGIN_ERROR_CODES = [
  'TAGSONIC_ERR_PLUGIN_HTTP_BAD_URL',
  'TAGSONIC_ERR_PLUGIN_HTTP_BAD_REQUEST',
  'TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED',
  'TAGSONIC_ERR_PLUGIN_HTTP_ADDRESS_REFUSED',
  'TAGSONIC_ERR_PLUGIN_HTTP_TOO_MANY_REDIRECTS',
  'TAGSONIC_ERR_PLUGIN_HTTP_TOO_LARGE',
  'TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT',
  'TAGSONIC_ERR_PLUGIN_HTTP_NETWORK',
  'TAGSONIC_ERR_PLUGIN_HTTP_NOT_JSON',
  'TAGSONIC_ERR_PLUGIN_HTTP_BUSY',
  'TAGSONIC_ERR_PLUGIN_DENIED',
  'TAGSONIC_ERR_PLUGIN_INVALID',
  'TAGSONIC_ERR_PLUGIN_NOT_FOUND',
  'TAGSONIC_ERR_PLUGIN_CONFLICT',
  'TAGSONIC_ERR_PLUGIN_LIMIT',
  'TAGSONIC_ERR_PLUGIN_UPSTREAM',
  'TAGSONIC_ERR_PLUGIN_FAILED',
] as const;

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
 * try { await caps.http.fetch({ url }); } catch (e) { if (isPluginError(e) && e.code === 'TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT') retry(); }
 */
export const isPluginError = (value: unknown): value is PluginError =>
  value instanceof PluginError ||
  (value instanceof Error && value.name === 'PluginError' &&
    (PLUGIN_ERROR_CODES as readonly unknown[]).includes((value as { code?: unknown }).code));
