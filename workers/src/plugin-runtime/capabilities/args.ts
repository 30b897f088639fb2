/**
 * Checks of capability arguments. They come from plugin code as JSON copies, so every field is re-checked
 * here, and every failure is one of the SDK's codes (the plugin may branch on it; the dashboard localises it).
 */
import { TagsonicError, isTagsonicError } from '@tagsonic/core/errors';

export const DENIED = 'TAGSONIC_ERR_PLUGIN_DENIED';
export const INVALID = 'TAGSONIC_ERR_PLUGIN_INVALID';
export const NOT_FOUND = 'TAGSONIC_ERR_PLUGIN_NOT_FOUND';
export const CONFLICT = 'TAGSONIC_ERR_PLUGIN_CONFLICT';
export const LIMIT = 'TAGSONIC_ERR_PLUGIN_LIMIT';
export const FAILED = 'TAGSONIC_ERR_PLUGIN_FAILED';

export const denied = (message: string) => new TagsonicError('forbidden', DENIED, message);
export const invalidArgument = (message: string) => new TagsonicError('invalid', INVALID, message);
export const limit = (message: string) => new TagsonicError('invalid', LIMIT, message);
export const failed = (message: string) => new TagsonicError('unavailable', FAILED, message);

/** The one options object every capability takes. */
export function optionsOf(args: readonly unknown[], what: string): Record<string, unknown> {
  const value = args[0];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidArgument(`${what} takes one options object`);
  return value as Record<string, unknown>;
}

export function stringField(options: Record<string, unknown>, key: string, what: string, maxLength = 4096): string {
  const value = options[key];
  if (typeof value !== 'string' || value.length === 0) throw invalidArgument(`${what}: ${key} must be a non-empty string`);
  if (value.length > maxLength) throw limit(`${what}: ${key} is longer than ${maxLength} characters`);
  return value;
}

export function optionalNumber(options: Record<string, unknown>, key: string, what: string, min: number, max: number): number | undefined {
  const value = options[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw invalidArgument(`${what}: ${key} must be a number from ${min} to ${max}`);
  }
  return value;
}

/**
 * The media layer's refusals in the SDK's words: a path outside the roots (or a malformed one) is `DENIED`,
 * a missing file `NOT_FOUND`; the media layer's message (which names the path) is kept.
 */
export function asPluginError(error: unknown): unknown {
  if (!isTagsonicError(error)) return error;
  switch (error.code) {
    case 'TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS':
    case 'TAGSONIC_ERR_MEDIA_BAD_PATH':
    case 'TAGSONIC_ERR_MEDIA_NO_ROOT':
      return new TagsonicError('forbidden', DENIED, error.message);
    case 'TAGSONIC_ERR_MEDIA_NOT_FOUND':
      return new TagsonicError('not_found', NOT_FOUND, error.message);
    default:
      return error;
  }
}
