/**
 * The plugin manifest: what a plugin is, what it needs and why. The host reads it before it runs any of the
 * plugin's code, shows the permissions and their reasons to the administrator before enabling, and builds
 * the plugin's capability object from exactly these grants. `manifest.schema.json` is the same contract as
 * a JSON Schema (for editors and other tools); {@link validateManifest} enforces it.
 */

/**
 * A plugin's role. A `tag-source` finds tags, lyrics and artist pictures for a track (it exports a
 * {@link TagSource}); a `batch-action` works over many files at once (it exports a {@link BatchAction}).
 *
 * @example
 * const kind: PluginKind = 'tag-source';
 */
export type PluginKind = 'tag-source' | 'batch-action';

/**
 * One setting of a plugin's settings form. The administrator fills it in on the plugin's page; the
 * plugin reads the value with `caps.config.get()`. Secrets are masked in forms and never logged.
 *
 * @example
 * const apiKey: ConfigField = { type: 'string', title: 'API key', secret: true };
 * const limit: ConfigField = { type: 'number', title: 'Results', default: 10 };
 * const region: ConfigField = { type: 'string', title: 'Store', enum: ['us', 'jp'], default: 'us' };
 */
export type ConfigField =
  | {
      type: 'string';
      title: string;
      description?: string;
      default?: string;
      /** The allowed values; the form shows a select. `default`, if given, must be one of them. */
      enum?: string[];
      /** Masks the value in forms and logs (API keys, tokens). */
      secret?: boolean;
    }
  | { type: 'number'; title: string; description?: string; default?: number }
  | { type: 'boolean'; title: string; description?: string; default?: boolean };

/**
 * A plugin's settings form: a small JSON Schema subset (an object of string, number and boolean fields).
 * Keys are `a-z0-9_`, starting with a letter.
 *
 * @example
 * const config: ConfigSchema = {
 *   type: 'object',
 *   required: ['client_id'],
 *   properties: {
 *     client_id: { type: 'string', title: 'Client ID' },
 *     client_secret: { type: 'string', title: 'Client secret', secret: true },
 *   },
 * };
 */
export interface ConfigSchema {
  type: 'object';
  /** Keys the administrator must fill in before the plugin can be enabled. */
  required?: string[];
  properties: Record<string, ConfigField>;
}

/**
 * One host a plugin may call over HTTP, on any port. `host` is a lowercase host name, or `*.` and a name
 * for every subdomain of it (not the bare name, as in a TLS wildcard); IPv6 literals go in brackets.
 * URLs, ports, paths and inner wildcards are rejected. Granting a loopback or private address is what
 * lets a plugin reach it; the administrator's base-URL override is granted without a manifest entry.
 *
 * @example
 * const host: HttpHostGrant = { host: 'musicbrainz.org', reason: 'Looks up recordings and releases' };
 * const cdn: HttpHostGrant = { host: '*.coverartarchive.org', reason: 'Downloads full-size album covers' };
 */
export interface HttpHostGrant {
  host: string;
  reason: string;
}

/**
 * The capabilities a plugin asks for. Anything not listed is not granted; every grant carries a human
 * `reason` the administrator reads before enabling the plugin. `config`, `text`, `log`, `progress` and
 * `kv` need no grant (they reach nothing outside the plugin).
 *
 * @example
 * const permissions: Permissions = {
 *   http: { hosts: [{ host: 'lrclib.net', reason: 'Downloads synced lyrics' }] },
 *   tags: { access: 'read', reason: 'Reads title, artist and duration to search for lyrics' },
 * };
 */
export interface Permissions {
  /** Outgoing HTTP to these hosts only (checked on the resolved address at connect time). */
  http?: { hosts: HttpHostGrant[] };
  /** Files inside the media roots; `write` includes move, copy and delete. */
  files?: { access: 'read' | 'write'; reason: string };
  /** The host's named ffmpeg presets (see {@link FfmpegCapability}). */
  ffmpeg?: { reason: string };
  /** Acoustic fingerprints with Chromaprint (see {@link FingerprintCapability}). */
  fingerprint?: { reason: string };
  /** Putting audio files into the music collection now (`caps.library.index`: import collection). */
  library?: { access: 'write'; reason: string };
  /** Tags of audio files inside the media roots; `write` includes read. */
  tags?: { access: 'read' | 'write'; reason: string };
  /**
   * Searching other installed tag sources through the host (`caps.sources.search`), by plugin id;
   * a source not listed, or not installed and enabled, cannot be searched. For aggregators such as smart_tag.
   */
  sources?: { ids: string[]; reason: string };
  /**
   * The language model the administrator configured in the system settings (`caps.llm.chat`,
   * `caps.llm.translateLyric`); the host holds the endpoint and its key, the plugin sends messages only.
   */
  llm?: { reason: string };
  /**
   * Artist pictures and biographies in the library (`caps.artists.get` / `caps.artists.set`, e.g. 刮削艺术家): a
   * picture is bytes (such as `caps.sources.cover` downloads), never a URL; a task's changes are undone with it.
   */
  artists?: { reason: string };
}

/**
 * A plugin's manifest (`manifest.json` in a plugin's folder or zip).
 *
 * @example
 * const manifest: Manifest = {
 *   id: 'lrclib',
 *   name: 'LRCLIB',
 *   version: '1.0.0',
 *   description: 'Synced lyrics from lrclib.net.',
 *   kind: 'tag-source',
 *   entry: 'index.js',
 *   permissions: { http: { hosts: [{ host: 'lrclib.net', reason: 'Searches and downloads lyrics' }] } },
 * };
 */
export interface Manifest {
  /** Lets editors complete and check the file; ignored by the host. */
  $schema?: string;
  /** Stable id: 1–64 of `a-z 0-9 _ -`, starting with a letter or digit. Also names the plugin's settings. */
  id: string;
  /** Display name, 1–80 characters. */
  name: string;
  /** Semantic version (`1.2.0`, `2.0.0-beta.1`); the host keeps installed versions for rollback. */
  version: string;
  /** One or two sentences shown in the plugin list, 1–500 characters. */
  description: string;
  kind: PluginKind;
  /** Relative path of the bundled CommonJS `.js` file inside the plugin, e.g. `index.js`. */
  entry: string;
  /** The settings form; omit when the plugin has no settings. */
  config?: ConfigSchema;
  permissions: Permissions;
}

/**
 * Types a manifest literal without widening it, so {@link CapabilitiesFor} can see which grants it holds.
 *
 * @example
 * export const manifest = defineManifest({
 *   id: 'hello', name: 'Hello', version: '0.1.0', description: 'Says hello.',
 *   kind: 'batch-action', entry: 'index.js', permissions: {},
 * });
 */
export const defineManifest = <const M extends Manifest>(manifest: M): M => manifest;
