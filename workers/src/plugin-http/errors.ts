/**
 * The codes a plugin's `http.fetch` fails with. They reach the plugin as its thrown error and, through the
 * plugin's failure, the dashboard (which localises them in dashboard/src/lib/server-messages.ts).
 */
import { TagsonicError, type ErrorKind } from '@tagsonic/core/errors';

export const HTTP_BAD_URL = 'TAGSONIC_ERR_PLUGIN_HTTP_BAD_URL';
export const HTTP_BAD_REQUEST = 'TAGSONIC_ERR_PLUGIN_HTTP_BAD_REQUEST';
export const HTTP_HOST_NOT_GRANTED = 'TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED';
export const HTTP_ADDRESS_REFUSED = 'TAGSONIC_ERR_PLUGIN_HTTP_ADDRESS_REFUSED';
export const HTTP_TOO_MANY_REDIRECTS = 'TAGSONIC_ERR_PLUGIN_HTTP_TOO_MANY_REDIRECTS';
export const HTTP_TOO_LARGE = 'TAGSONIC_ERR_PLUGIN_HTTP_TOO_LARGE';
export const HTTP_TIMEOUT = 'TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT';
export const HTTP_NETWORK = 'TAGSONIC_ERR_PLUGIN_HTTP_NETWORK';
export const HTTP_NOT_JSON = 'TAGSONIC_ERR_PLUGIN_HTTP_NOT_JSON';

const KIND: Record<string, ErrorKind> = {
  [HTTP_BAD_URL]: 'invalid',
  [HTTP_BAD_REQUEST]: 'invalid',
  [HTTP_HOST_NOT_GRANTED]: 'forbidden',
  [HTTP_ADDRESS_REFUSED]: 'forbidden',
  [HTTP_TOO_MANY_REDIRECTS]: 'unavailable',
  [HTTP_TOO_LARGE]: 'unavailable',
  [HTTP_TIMEOUT]: 'unavailable',
  [HTTP_NETWORK]: 'unavailable',
  [HTTP_NOT_JSON]: 'unavailable',
};

/** A failed plugin request; `details.pluginId` and `details.url` say whose and where (for the plugin's log). */
export function pluginHttpError(code: string, message: string, details: { pluginId: string; url?: string }, cause?: unknown): TagsonicError {
  return new TagsonicError(KIND[code] ?? 'internal', code, message, { cause, details });
}
