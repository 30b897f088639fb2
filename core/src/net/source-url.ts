/**
 * The administrator's base URL for a source (a self-hosted MusicBrainz mirror, a LrcApi server): the environment
 * variable `TAGSONIC_SOURCE_URL_<ID>` (id upper-cased, `-` as `_`) wins over the settings key, so a deployment can
 * pin it. The URL's origin is granted to that plugin even on loopback or a private network.
 */
import { HTTP_BAD_URL, pluginHttpError } from './errors.ts';

/** The environment variable that overrides plugin `id`'s base URL. */
export function sourceUrlVariable(id: string): string {
  return `TAGSONIC_SOURCE_URL_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * The override for plugin `id`, or null when none is set. `settings` is the per-source settings map
 * (`{ [pluginId]: baseUrl }`). A value that is not an http(s) URL without credentials is a configuration
 * error, reported rather than ignored so a typo does not silently send lookups to the public service.
 */
export function sourceUrlOverride(
  id: string,
  env: Readonly<Record<string, string | undefined>>,
  settings?: Readonly<Record<string, string | null | undefined>>,
): string | null {
  const name = sourceUrlVariable(id);
  const fromEnv = env[name]?.trim();
  const raw = fromEnv || settings?.[id]?.trim() || null;
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    url = new URL('invalid:');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
    throw pluginHttpError(HTTP_BAD_URL, `${fromEnv ? name : `The base URL set for ${id}`} must be an http:// or https:// URL without a user name or password (got "${raw}").`, { pluginId: id });
  }
  return url.href.replace(/\/+$/, '');
}
