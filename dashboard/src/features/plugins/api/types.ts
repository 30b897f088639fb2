/**
 * The plugin-management API's shapes (issue 11 contract, "Plugin management"), written out here because the
 * dashboard may not import server packages. Snake case as the wire carries it.
 */

/** Which list a screen shows: /mod lists tag sources, /actionMod batch actions. */
export type PluginKind = 'tag-source' | 'batch-action';

export type PermissionKind = 'http' | 'files' | 'tags' | 'ffmpeg' | 'fingerprint' | 'sources' | 'llm';

/** One grant of the manifest: `detail` is the host for http, `read`/`write` for files and tags. */
export interface PluginPermission {
  kind: PermissionKind;
  detail: string;
  reason: string;
}

export interface PluginHealth {
  calls: number;
  failures: number;
  /** null before the first call. */
  p50_ms: number | null;
  last_success_at: string | null;
  last_error: { code: string; message: string; at: string } | null;
}

export interface PluginItem {
  id: string;
  name: string;
  /** The active version. */
  version: string;
  description: string;
  kind: PluginKind;
  builtin: boolean;
  enabled: boolean;
  /** `admin`: switched off (or never on after an upload); `auto`: stopped after repeated failures. */
  disabled_reason: 'admin' | 'auto' | null;
  permissions: PluginPermission[];
  health: PluginHealth;
  updated_at: string;
}

export interface PluginPage {
  items: PluginItem[];
  total: number;
  page: number;
  page_size: number;
  total_page: number;
}

/** One field of a plugin's settings form (the SDK's ConfigField). */
export type ConfigField =
  | { type: 'string'; title: string; description?: string; default?: string; enum?: string[]; secret?: boolean }
  | { type: 'number'; title: string; description?: string; default?: number }
  | { type: 'boolean'; title: string; description?: string; default?: boolean };

/** The manifest's settings form (the SDK's ConfigSchema). */
export interface ConfigSchema {
  type: 'object';
  required?: string[];
  properties: Record<string, ConfigField>;
}

export interface PluginVersionInfo {
  version: string;
  origin: 'builtin' | 'upload';
  sha256: string;
  size: number;
  installed_at: string;
  active: boolean;
}

/** The value the server sends in place of a saved secret; sending it back keeps the secret. */
export const SECRET_MASK = '********';

export interface PluginDetail extends PluginItem {
  versions: PluginVersionInfo[];
  config_schema: ConfigSchema | null;
  settings: { base_url: string | null; config: Record<string, unknown> };
  /** From TAGSONIC_SOURCE_URL_<ID>; wins over base_url. */
  env_base_url: string | null;
}
