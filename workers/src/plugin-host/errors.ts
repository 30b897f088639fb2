import { TagsonicError, type ErrorKind } from '@tagsonic/core/errors';
import { PLUGIN_ERROR_CODES as SDK_PLUGIN_ERROR_CODES, type PluginErrorCode as SdkPluginErrorCode } from '@tagsonic/sdk';

/**
 * Why one invocation of a plugin failed. Codes are stable (the dashboard localises by code); the message is
 * the plugin's own (for `THREW`) or ours, never a host stack trace: a PluginError carries no `cause`, and its
 * `stack` is only its first line, so nothing of the host's call path leaves through it either.
 */
export const PLUGIN_ERROR_CODES = {
  /** The plugin's code threw (or rejected); the message is the plugin's. */
  threw: 'TAGSONIC_ERR_PLUGIN_THREW',
  /** The wall-clock watchdog or the CPU timeout ended the invocation. */
  timeout: 'TAGSONIC_ERR_PLUGIN_TIMEOUT',
  /** The isolate ran out of its memory limit (or died); it is recreated on the next invocation. */
  memory: 'TAGSONIC_ERR_PLUGIN_MEMORY',
  /** The result, serialised as JSON, exceeds the size cap. */
  resultTooLarge: 'TAGSONIC_ERR_PLUGIN_RESULT_TOO_LARGE',
  /** The plugin's code does not compile. */
  compile: 'TAGSONIC_ERR_PLUGIN_COMPILE',
  /** The plugin does not export a function of that name. */
  noExport: 'TAGSONIC_ERR_PLUGIN_NO_EXPORT',
  /** The options passed in are not JSON-compatible. */
  badOptions: 'TAGSONIC_ERR_PLUGIN_BAD_OPTIONS',
  /** Auto-disabled after consecutive failures (or disabled by hand); `enable()` lifts it. */
  disabled: 'TAGSONIC_ERR_PLUGIN_DISABLED',
  /** The sandbox was closed. */
  closed: 'TAGSONIC_ERR_PLUGIN_CLOSED',
} as const;

/**
 * The SDK code `http.fetch` fails with when the source's pacing turn would come after the caller's budget (the
 * host's congestion, not the plugin's fault: see stats.ts).
 */
export const HTTP_BUSY = 'TAGSONIC_ERR_PLUGIN_HTTP_BUSY' satisfies SdkPluginErrorCode;

/** The host's own invocation failures. */
export type InvocationErrorCode = (typeof PLUGIN_ERROR_CODES)[keyof typeof PLUGIN_ERROR_CODES];

/**
 * Codes of host capabilities beyond the SDK's list that keep their meaning when a plugin lets them through: the
 * language model's (core/llm, `caps.llm`), so a batch edit whose plan finds no model configured is refused as
 * not configured (409, localised by the dashboard), not as the plugin's crash.
 */
const CAPABILITY_CODE_KINDS = {
  TAGSONIC_ERR_LLM_NOT_CONFIGURED: 'conflict',
  TAGSONIC_ERR_LLM_TIMEOUT: 'unavailable',
  TAGSONIC_ERR_LLM_HTTP: 'unavailable',
  TAGSONIC_ERR_LLM_UNREACHABLE: 'unavailable',
  TAGSONIC_ERR_LLM_BAD_RESPONSE: 'unavailable',
} as const satisfies Record<string, ErrorKind>;
export type CapabilityErrorCode = keyof typeof CAPABILITY_CODE_KINDS;

/**
 * An invocation's failure code: the host's own, or one of the SDK's that the plugin threw (its
 * `TAGSONIC_ERR_PLUGIN_UPSTREAM`, or a capability's `…_HTTP_HOST_NOT_GRANTED` it let through or rethrew), or a
 * capability's own code of {@link CAPABILITY_CODE_KINDS}.
 */
export type PluginErrorCode = InvocationErrorCode | SdkPluginErrorCode | CapabilityErrorCode;

/** The SDK or capability code a plugin threw, or undefined when `code` is anything else (the failure is then `…_THREW`). */
export function pluginThrownCode(code: unknown): SdkPluginErrorCode | CapabilityErrorCode | undefined {
  if ((SDK_PLUGIN_ERROR_CODES as readonly unknown[]).includes(code)) return code as SdkPluginErrorCode;
  return typeof code === 'string' && Object.hasOwn(CAPABILITY_CODE_KINDS, code) ? (code as CapabilityErrorCode) : undefined;
}

const KIND: Record<InvocationErrorCode, ErrorKind> = {
  TAGSONIC_ERR_PLUGIN_THREW: 'unavailable',
  TAGSONIC_ERR_PLUGIN_TIMEOUT: 'unavailable',
  TAGSONIC_ERR_PLUGIN_MEMORY: 'unavailable',
  TAGSONIC_ERR_PLUGIN_RESULT_TOO_LARGE: 'unavailable',
  TAGSONIC_ERR_PLUGIN_COMPILE: 'invalid',
  TAGSONIC_ERR_PLUGIN_NO_EXPORT: 'invalid',
  TAGSONIC_ERR_PLUGIN_BAD_OPTIONS: 'invalid',
  TAGSONIC_ERR_PLUGIN_DISABLED: 'conflict',
  TAGSONIC_ERR_PLUGIN_CLOSED: 'unavailable',
};

const MAX_MESSAGE_CHARS = 2000;

export class PluginError extends TagsonicError {
  readonly pluginId: string;
  declare readonly code: PluginErrorCode;

  /** `details` are the plugin's own (its PluginError's, e.g. `{ status: 503 }`); `pluginId` is always ours. */
  constructor(pluginId: string, code: PluginErrorCode, message: string, details?: Record<string, unknown>) {
    // Capped: the text comes from untrusted code and ends up in logs and on the /mod screen.
    if (message.length > MAX_MESSAGE_CHARS) message = `${message.slice(0, MAX_MESSAGE_CHARS)}…`;
    // A code the plugin chose says what went wrong on its side; to the caller the source is unavailable.
    const kind = Object.hasOwn(KIND, code) ? KIND[code as InvocationErrorCode]
      : Object.hasOwn(CAPABILITY_CODE_KINDS, code) ? CAPABILITY_CODE_KINDS[code as CapabilityErrorCode] : 'unavailable';
    super(kind, code, message, { details: { ...details, pluginId } });
    this.name = 'PluginError';
    this.pluginId = pluginId;
    this.stack = `${this.name}: ${message}`;
  }
}
