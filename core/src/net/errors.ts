/**
 * The codes a plugin's `http.fetch` fails with. They reach the plugin as its thrown error and, through the
 * plugin's failure, the dashboard (which localises them in dashboard/src/lib/server-messages.ts). The list is
 * the SDK's `PLUGIN_ERROR_CODES` (the codes plugin authors are promised): each constant below must be one of
 * them, and every `…_HTTP_` code of the SDK must have a kind here, or this file does not compile.
 */
import { TagsonicError, type ErrorKind } from '../errors/index.ts';
import type { PluginErrorCode } from '@tagsonic/sdk';

/** The SDK's `http.fetch` codes. */
export type PluginHttpErrorCode = Extract<PluginErrorCode, `TAGSONIC_ERR_PLUGIN_HTTP_${string}`>;

export const HTTP_BAD_URL = 'TAGSONIC_ERR_PLUGIN_HTTP_BAD_URL' satisfies PluginHttpErrorCode;
export const HTTP_BAD_REQUEST = 'TAGSONIC_ERR_PLUGIN_HTTP_BAD_REQUEST' satisfies PluginHttpErrorCode;
export const HTTP_HOST_NOT_GRANTED = 'TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED' satisfies PluginHttpErrorCode;
export const HTTP_ADDRESS_REFUSED = 'TAGSONIC_ERR_PLUGIN_HTTP_ADDRESS_REFUSED' satisfies PluginHttpErrorCode;
export const HTTP_TOO_MANY_REDIRECTS = 'TAGSONIC_ERR_PLUGIN_HTTP_TOO_MANY_REDIRECTS' satisfies PluginHttpErrorCode;
export const HTTP_TOO_LARGE = 'TAGSONIC_ERR_PLUGIN_HTTP_TOO_LARGE' satisfies PluginHttpErrorCode;
export const HTTP_TIMEOUT = 'TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT' satisfies PluginHttpErrorCode;
export const HTTP_NETWORK = 'TAGSONIC_ERR_PLUGIN_HTTP_NETWORK' satisfies PluginHttpErrorCode;
export const HTTP_NOT_JSON = 'TAGSONIC_ERR_PLUGIN_HTTP_NOT_JSON' satisfies PluginHttpErrorCode;
/** The pacing turn would come after the caller's time budget: refused at once, not sent (the host's congestion). */
export const HTTP_BUSY = 'TAGSONIC_ERR_PLUGIN_HTTP_BUSY' satisfies PluginHttpErrorCode;

const KIND: Record<PluginHttpErrorCode, ErrorKind> = {
  [HTTP_BAD_URL]: 'invalid',
  [HTTP_BAD_REQUEST]: 'invalid',
  [HTTP_HOST_NOT_GRANTED]: 'forbidden',
  [HTTP_ADDRESS_REFUSED]: 'forbidden',
  [HTTP_TOO_MANY_REDIRECTS]: 'unavailable',
  [HTTP_TOO_LARGE]: 'unavailable',
  [HTTP_TIMEOUT]: 'unavailable',
  [HTTP_NETWORK]: 'unavailable',
  [HTTP_NOT_JSON]: 'unavailable',
  [HTTP_BUSY]: 'unavailable',
};

/** A failed plugin request; `details.pluginId` and `details.url` say whose and where (for the plugin's log). */
export function pluginHttpError(code: PluginHttpErrorCode | (string & {}), message: string, details: { pluginId: string; url?: string; retryAfterSec?: number }, cause?: unknown): TagsonicError {
  return new TagsonicError(Object.hasOwn(KIND, code) ? KIND[code as PluginHttpErrorCode] : 'internal', code, message, { cause, details });
}
