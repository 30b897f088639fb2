/**
 * The plugin registry's contract: what is installed (built-in and uploaded plugins, every kept version), which
 * version is active, whether it is enabled, the administrator's settings, and the health the workers report.
 *
 * The gateway changes it (upload, enable, configure, roll back, remove) and publishes
 * {@link PLUGIN_CHANGED_EVENT}; every worker's plugin pool reads the active version from it and drops its loaded
 * sandbox when that event names the plugin. One store collection, so embedded and distributed mode behave alike.
 */
import type { Manifest, PluginKind } from '@tagsonic/sdk';

/** Event published after any change to a plugin (payload {@link PluginChanged}); workers reload that plugin. */
export const PLUGIN_CHANGED_EVENT = 'tagsonic.evt.plugin.changed';

export interface PluginChanged {
  id: string;
}

/** Where a version came from: shipped in `plugins/` or uploaded by an administrator. */
export type PluginOrigin = 'builtin' | 'upload';

/** One kept version of a plugin. The code itself is read with {@link PluginRegistry.code}. */
export interface PluginVersion {
  version: string;
  origin: PluginOrigin;
  /** The validated manifest of this version. */
  manifest: Manifest;
  /** Hex SHA-256 of the bundled code (the pool's cache key, shown on the details screen). */
  sha256: string;
  /** Bytes of bundled code. */
  size: number;
  /** ISO time. */
  installedAt: string;
}

/** Health as kept in the store: the workers' counters summed, and the latest success and error of any worker. */
export interface PluginHealthRecord {
  calls: number;
  failures: number;
  /** Median latency in ms reported by the most recent flush; null before the first call. */
  p50Ms: number | null;
  lastSuccessAt: string | null;
  lastError: { code: string; message: string; at: string } | null;
}

/** A health report from one worker since its previous report (counts are deltas). */
export interface PluginHealthDelta {
  calls: number;
  failures: number;
  p50Ms: number | null;
  lastSuccessAt: string | null;
  lastError: { code: string; message: string; at: string } | null;
  /** True when the worker disabled the plugin after repeated failures in a row. */
  autoDisabled: boolean;
}

/** The administrator's settings of one plugin. */
export interface PluginSettingsRecord {
  /** Base URL of the source (a self-hosted mirror); `TAGSONIC_SOURCE_URL_<ID>` in the environment wins. */
  baseUrl: string | null;
  /** Values of the manifest's config form; secret values are kept, and masked by the routes. */
  config: Record<string, unknown>;
}

export interface PluginRecord {
  id: string;
  kind: PluginKind;
  /** Name, description and permissions shown in lists come from the active version's manifest. */
  activeVersion: string;
  /** Newest first. */
  versions: PluginVersion[];
  /** True when a version is shipped in `plugins/` (that version cannot be removed). */
  builtin: boolean;
  enabled: boolean;
  /** Why it is disabled: `admin` (switched off, or never switched on after an upload) or `auto` (repeated failures). */
  disabledReason: 'admin' | 'auto' | null;
  settings: PluginSettingsRecord;
  health: PluginHealthRecord;
  updatedAt: string;
}

export interface PluginListQuery {
  kind: PluginKind;
  /** 1-based. */
  page: number;
  pageSize: number;
  /** Matches id, name or description, case-insensitively. */
  search?: string;
}

/** A plugin package read from an upload or from `plugins/<id>/`: the manifest (validated) and the bundled code. */
export interface PluginPackage {
  manifest: Manifest;
  code: string;
}

export interface PluginRegistry {
  /** Creates indexes. */
  init(): Promise<void>;
  /**
   * Records the built-in plugins shipped with this checkout: a new built-in is installed enabled; a built-in
   * version already present is left alone; an uploaded newer version stays active over the shipped one.
   */
  syncBuiltins(packages: PluginPackage[]): Promise<void>;
  list(query: PluginListQuery): Promise<{ items: PluginRecord[]; total: number }>;
  get(id: string): Promise<PluginRecord | null>;
  /** The active version's package of an enabled plugin, or null (unknown or disabled). What the pool loads. */
  active(id: string): Promise<(PluginPackage & { record: PluginRecord }) | null>;
  /** The code of one kept version. */
  code(id: string, version: string): Promise<string>;
  /**
   * Installs a version and makes it active. A new plugin starts disabled (`disabledReason: 'admin'`) so its
   * permissions are seen before it runs; an existing one keeps its enabled state and settings. Re-uploading a
   * version that exists with different code is refused (`TAGSONIC_ERR_PLUGIN_VERSION_EXISTS`).
   */
  install(pkg: PluginPackage, origin: PluginOrigin): Promise<PluginRecord>;
  setEnabled(id: string, enabled: boolean, reason?: 'admin' | 'auto'): Promise<PluginRecord>;
  /** Validated against the active manifest's config form (`TAGSONIC_ERR_PLUGIN_CONFIG_INVALID`). */
  configure(id: string, settings: Partial<PluginSettingsRecord>): Promise<PluginRecord>;
  /** Makes a kept version active (roll back or forward). */
  activate(id: string, version: string): Promise<PluginRecord>;
  /** Removes one uploaded version, or (no version) the whole uploaded plugin. Built-in versions stay. */
  remove(id: string, version?: string): Promise<PluginRecord | null>;
  /** Adds a worker's counters; sets enabled false with `auto` when `autoDisabled`. */
  recordHealth(id: string, delta: PluginHealthDelta): Promise<void>;
}
