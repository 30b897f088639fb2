/**
 * The plugin registry on the store: one `plugins` document per plugin (record, kept versions' manifests, settings,
 * health) and one `plugin_code` document per kept version (`<id>@<version>@<sha256>`, code ≤ 4 MiB, far below MongoDB's
 * 16 MB), so listing plugins never reads code. Changes that read then write a record are guarded by a revision
 * counter and retried, so two gateways (or a gateway and a worker's health flush) never lose each other's change.
 */
import { createHash } from 'node:crypto';
import { validateManifest, type Manifest } from '@tagsonic/sdk';
import { conflict, invalid, notFound, TagsonicError } from '../errors/errors.ts';
import type { Collection, Store } from '../store/port.ts';
import { resolveConfig } from './config.ts';
import { compareVersions } from './semver.ts';
import type {
  PluginHealthDelta, PluginListQuery, PluginOrigin, PluginPackage, PluginRecord, PluginRegistry, PluginSettingsRecord, PluginVersion,
} from './types.ts';

export const PLUGIN_NOT_INSTALLED = 'TAGSONIC_ERR_PLUGIN_NOT_INSTALLED';
export const PLUGIN_VERSION_EXISTS = 'TAGSONIC_ERR_PLUGIN_VERSION_EXISTS';
export const PLUGIN_VERSION_NOT_FOUND = 'TAGSONIC_ERR_PLUGIN_VERSION_NOT_FOUND';
export const PLUGIN_BUILTIN_VERSION = 'TAGSONIC_ERR_PLUGIN_BUILTIN_VERSION';
export const PLUGIN_KIND_CHANGED = 'TAGSONIC_ERR_PLUGIN_KIND_CHANGED';
export const PLUGIN_MANIFEST_INVALID = 'TAGSONIC_ERR_PLUGIN_MANIFEST_INVALID';
export const PLUGIN_CONFIG_INVALID = 'TAGSONIC_ERR_PLUGIN_CONFIG_INVALID';
export const PLUGIN_BASE_URL_INVALID = 'TAGSONIC_ERR_PLUGIN_BASE_URL_INVALID';

interface PluginDoc {
  _id: string;
  /** Bumped by every read-modify-write; the write matches on it. */
  rev: number;
  kind: PluginRecord['kind'];
  /** The active version's name and description, copied here so lists can search and sort on them. */
  name: string;
  description: string;
  activeVersion: string;
  versions: PluginVersion[];
  builtin: boolean;
  enabled: boolean;
  disabledReason: PluginRecord['disabledReason'];
  settings: PluginSettingsRecord;
  health: PluginRecord['health'];
  updatedAt: string;
  [key: string]: unknown;
}

interface CodeDoc {
  _id: string;
  pluginId: string;
  version: string;
  code: string;
  [key: string]: unknown;
}

const REVISION_RETRIES = 8;
/** The code's hash is part of the key: two racing uploads of one version never overwrite each other's code. */
const codeKey = (id: string, version: string, sha: string): string => `${id}@${version}@${sha}`;
const sha256 = (code: string): string => createHash('sha256').update(code).digest('hex');
const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const pluginNotFound = (id: string) => notFound(PLUGIN_NOT_INSTALLED, `No plugin "${id.slice(0, 64)}" is installed.`, { pluginId: id.slice(0, 64) });
const versionNotFound = (id: string, version: string) =>
  notFound(PLUGIN_VERSION_NOT_FOUND, `The plugin "${id}" has no version ${version.slice(0, 64)}.`, { pluginId: id, version: version.slice(0, 64) });

/** The manifest as stored: `$schema` is for editors only, and a `$`-key is not a safe MongoDB field name. */
function checkedManifest(manifest: unknown): Manifest {
  const result = validateManifest(manifest);
  if (!result.ok) {
    const first = result.errors[0]!;
    throw invalid(PLUGIN_MANIFEST_INVALID, `The plugin's manifest is invalid: ${first.path || 'manifest'} ${first.message}.`, { errors: result.errors });
  }
  const { $schema: _ignored, ...stored } = result.manifest;
  return stored;
}

function checkConfig(manifest: Manifest, config: Record<string, unknown>): void {
  const result = resolveConfig(manifest.config, config);
  if (!result.ok) {
    const first = result.errors[0]!;
    throw invalid(PLUGIN_CONFIG_INVALID, `The settings of "${manifest.id}" are invalid: ${first.path} ${first.message}.`, { pluginId: manifest.id, errors: result.errors });
  }
}

function checkBaseUrl(baseUrl: string | null): string | null {
  if (baseUrl === null || baseUrl.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw invalid(PLUGIN_BASE_URL_INVALID, `The base URL "${baseUrl.slice(0, 200)}" is not a URL.`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
    throw invalid(PLUGIN_BASE_URL_INVALID, 'A base URL starts with http:// or https:// and holds no user name or password.');
  }
  return url.href.replace(/\/+$/, '');
}

const sortVersions = (versions: PluginVersion[]): PluginVersion[] =>
  [...versions].sort((a, b) => compareVersions(b.version, a.version) || b.installedAt.localeCompare(a.installedAt));

/**
 * The record as callers see it. Settings are shown for the active version's form only: values of keys another kept
 * version declares stay stored (rolling forward again restores them) but would be refused by this version's form.
 */
function toRecord(doc: PluginDoc): PluginRecord {
  const properties = doc.versions.find((v) => v.version === doc.activeVersion)?.manifest.config?.properties ?? {};
  const config = Object.fromEntries(Object.entries(doc.settings.config).filter(([key]) => Object.hasOwn(properties, key)));
  return {
    id: doc._id,
    kind: doc.kind,
    activeVersion: doc.activeVersion,
    versions: doc.versions,
    builtin: doc.builtin,
    enabled: doc.enabled,
    disabledReason: doc.disabledReason,
    settings: { baseUrl: doc.settings.baseUrl, config },
    health: doc.health,
    updatedAt: doc.updatedAt,
  };
}

/** The fields that follow the active version. */
function activeFields(versions: PluginVersion[], activeVersion: string): Pick<PluginDoc, 'activeVersion' | 'name' | 'description'> {
  const manifest = versions.find((v) => v.version === activeVersion)!.manifest;
  return { activeVersion, name: manifest.name, description: manifest.description };
}

export class StorePluginRegistry implements PluginRegistry {
  private readonly plugins: Collection<PluginDoc>;
  private readonly codes: Collection<CodeDoc>;

  constructor(store: Store) {
    this.plugins = store.collection<PluginDoc>('plugins');
    this.codes = store.collection<CodeDoc>('plugin_code');
  }

  async init(): Promise<void> {
    await this.plugins.createIndexes([{ keys: { kind: 1, name: 1 } }]);
    await this.codes.createIndexes([{ keys: { pluginId: 1 } }]);
  }

  async syncBuiltins(packages: PluginPackage[]): Promise<void> {
    for (const pkg of packages) {
      const manifest = checkedManifest(pkg.manifest);
      const existing = await this.plugins.findOne({ _id: manifest.id });
      const kept = existing?.versions.find((v) => v.version === manifest.version);
      if (kept && kept.origin === 'upload') continue;
      if (kept) {
        // The same shipped version rebuilt (a checkout changed without a version bump): the checkout is the truth.
        if (kept.sha256 !== sha256(pkg.code)) await this.refreshBuiltin(manifest, pkg.code);
        continue;
      }
      await this.add(manifest, pkg.code, 'builtin');
    }
  }

  async list(query: PluginListQuery): Promise<{ items: PluginRecord[]; total: number }> {
    const filter: Record<string, unknown> = { kind: query.kind };
    const search = query.search?.trim();
    if (search) {
      const pattern = { $regex: escapeRegex(search.slice(0, 200)), $options: 'i' };
      filter.$or = [{ _id: pattern }, { name: pattern }, { description: pattern }];
    }
    const pageSize = Math.max(1, Math.floor(query.pageSize));
    const page = Math.max(1, Math.floor(query.page));
    const [docs, total] = await Promise.all([
      this.plugins.find(filter, { sort: { name: 1 }, skip: (page - 1) * pageSize, limit: pageSize }),
      this.plugins.countDocuments(filter),
    ]);
    return { items: docs.map(toRecord), total };
  }

  async get(id: string): Promise<PluginRecord | null> {
    if (typeof id !== 'string' || id === '') return null;
    const doc = await this.plugins.findOne({ _id: id });
    return doc ? toRecord(doc) : null;
  }

  async active(id: string): Promise<(PluginPackage & { record: PluginRecord }) | null> {
    const record = await this.get(id);
    if (!record || !record.enabled) return null;
    const version = record.versions.find((v) => v.version === record.activeVersion)!;
    return { manifest: version.manifest, code: await this.code(id, version.version), record };
  }

  async code(id: string, version: string): Promise<string> {
    const kept = (await this.get(id))?.versions.find((v) => v.version === version);
    const doc = kept ? await this.codes.findOne({ _id: codeKey(id, version, kept.sha256) }) : null;
    if (!doc) throw versionNotFound(id, version);
    return doc.code;
  }

  async install(pkg: PluginPackage, origin: PluginOrigin): Promise<PluginRecord> {
    return this.add(checkedManifest(pkg.manifest), pkg.code, origin);
  }

  async setEnabled(id: string, enabled: boolean, reason: 'admin' | 'auto' = 'admin'): Promise<PluginRecord> {
    return this.mutate(id, (doc) => {
      if (enabled) checkConfig(this.activeManifest(doc), toRecord(doc).settings.config);
      return { enabled, disabledReason: enabled ? null : reason };
    });
  }

  async configure(id: string, settings: Partial<PluginSettingsRecord>): Promise<PluginRecord> {
    return this.mutate(id, (doc) => {
      const next: PluginSettingsRecord = { ...doc.settings };
      if (settings.baseUrl !== undefined) next.baseUrl = checkBaseUrl(settings.baseUrl);
      if (settings.config !== undefined) {
        // Only what the administrator set is kept: defaults stay the manifest's, so a new version's defaults apply.
        const config = Object.fromEntries(Object.entries(settings.config ?? {}).filter(([, v]) => v !== undefined && v !== null && v !== ''));
        checkConfig(this.activeManifest(doc), config);
        // Settings of other kept versions' forms are not in this form: they stay for those versions.
        const properties = this.activeManifest(doc).config?.properties ?? {};
        const others = Object.entries(doc.settings.config).filter(([key]) => !Object.hasOwn(properties, key));
        next.config = { ...Object.fromEntries(others), ...config };
      }
      return { settings: next };
    });
  }

  async activate(id: string, version: string): Promise<PluginRecord> {
    return this.mutate(id, (doc) => {
      if (!doc.versions.some((v) => v.version === version)) throw versionNotFound(id, version);
      return activeFields(doc.versions, version);
    });
  }

  async remove(id: string, version?: string): Promise<PluginRecord | null> {
    for (let attempt = 0; attempt < REVISION_RETRIES; attempt++) {
      const doc = await this.plugins.findOne({ _id: id });
      if (!doc) throw pluginNotFound(id);
      let removed: PluginVersion[];
      if (version !== undefined) {
        const target = doc.versions.find((v) => v.version === version);
        if (!target) throw versionNotFound(id, version);
        if (target.origin === 'builtin') {
          throw conflict(PLUGIN_BUILTIN_VERSION, `Version ${version} of "${id}" is shipped with Tagsonic and cannot be removed.`, { pluginId: id, version });
        }
        removed = [target];
      } else {
        removed = doc.versions.filter((v) => v.origin === 'upload');
        if (removed.length === 0) {
          throw conflict(PLUGIN_BUILTIN_VERSION, `"${id}" is shipped with Tagsonic and cannot be removed; disable it instead.`, { pluginId: id });
        }
      }
      const left = doc.versions.filter((v) => !removed.includes(v));
      if (left.length === 0) {
        const res = await this.plugins.deleteOne({ _id: id, rev: doc.rev });
        if (res.deletedCount === 0) continue;
      } else {
        const activeVersion = left.some((v) => v.version === doc.activeVersion) ? doc.activeVersion : left[0]!.version;
        const res = await this.plugins.updateOne(
          { _id: id, rev: doc.rev },
          { $set: { versions: left, ...activeFields(left, activeVersion), updatedAt: new Date().toISOString() }, $inc: { rev: 1 } },
        );
        if (res.matchedCount === 0) continue;
      }
      await this.codes.deleteMany({ pluginId: id, version: { $in: removed.map((v) => v.version) } });
      return left.length === 0 ? null : this.getOrThrow(id);
    }
    throw busy(id);
  }

  async recordHealth(id: string, delta: PluginHealthDelta): Promise<void> {
    const set: Record<string, unknown> = {};
    if (delta.p50Ms !== null) set['health.p50Ms'] = delta.p50Ms;
    if (delta.lastSuccessAt !== null) set['health.lastSuccessAt'] = delta.lastSuccessAt;
    if (delta.lastError !== null) set['health.lastError'] = delta.lastError;
    const update: Record<string, unknown> = { $inc: { 'health.calls': delta.calls, 'health.failures': delta.failures } };
    if (Object.keys(set).length > 0) update.$set = set;
    // A plugin removed since the worker loaded it has nothing left to record against.
    await this.plugins.updateOne({ _id: id }, update);
    if (delta.autoDisabled) {
      // Only an enabled plugin: an administrator's "disabled" stays theirs (and is not turned into "auto").
      await this.plugins.updateOne({ _id: id, enabled: true }, { $set: { enabled: false, disabledReason: 'auto', updatedAt: new Date().toISOString() }, $inc: { rev: 1 } });
    }
  }

  private activeManifest(doc: PluginDoc): Manifest {
    return doc.versions.find((v) => v.version === doc.activeVersion)!.manifest;
  }

  private async getOrThrow(id: string): Promise<PluginRecord> {
    const record = await this.get(id);
    if (!record) throw pluginNotFound(id);
    return record;
  }

  /** Applies `change` to the current document, retrying when another writer got there first. */
  private async mutate(id: string, change: (doc: PluginDoc) => Partial<PluginDoc>): Promise<PluginRecord> {
    for (let attempt = 0; attempt < REVISION_RETRIES; attempt++) {
      const doc = await this.plugins.findOne({ _id: id });
      if (!doc) throw pluginNotFound(id);
      const fields = change(doc);
      const updated = await this.plugins.findOneAndUpdate(
        { _id: id, rev: doc.rev },
        { $set: { ...fields, updatedAt: new Date().toISOString() }, $inc: { rev: 1 } },
      );
      if (updated) return toRecord(updated);
    }
    throw busy(id);
  }

  /** Stores a version's code, then records the version (code first: a recorded version always has its code). */
  private async add(manifest: Manifest, code: string, origin: PluginOrigin): Promise<PluginRecord> {
    const id = manifest.id;
    const version: PluginVersion = { version: manifest.version, origin, manifest, sha256: sha256(code), size: Buffer.byteLength(code), installedAt: new Date().toISOString() };
    for (let attempt = 0; attempt < REVISION_RETRIES; attempt++) {
      const doc = await this.plugins.findOne({ _id: id });
      if (doc && doc.kind !== manifest.kind) {
        throw conflict(PLUGIN_KIND_CHANGED, `"${id}" is a ${doc.kind}; a new version cannot make it a ${manifest.kind} (use another id).`, { pluginId: id, kind: doc.kind });
      }
      const kept = doc?.versions.find((v) => v.version === manifest.version);
      if (doc && kept) {
        if (kept.sha256 === version.sha256) return toRecord(doc);
        throw conflict(PLUGIN_VERSION_EXISTS, `Version ${manifest.version} of "${id}" is already installed with different code; raise the version.`, { pluginId: id, version: manifest.version });
      }
      await this.putCode(id, manifest.version, version.sha256, code);
      const now = new Date().toISOString();
      if (!doc) {
        const enabled = origin === 'builtin' && resolveConfig(manifest.config, {}).ok;
        const fresh: PluginDoc = {
          _id: id, rev: 0, kind: manifest.kind, ...activeFields([version], version.version), versions: [version], builtin: origin === 'builtin',
          enabled, disabledReason: enabled ? null : 'admin', settings: { baseUrl: null, config: {} },
          health: { calls: 0, failures: 0, p50Ms: null, lastSuccessAt: null, lastError: null }, updatedAt: now,
        };
        try {
          await this.plugins.insertOne(fresh);
          return toRecord(fresh);
        } catch (error) {
          if (error instanceof TagsonicError && error.code === 'TAGSONIC_ERR_STORE_DUPLICATE_KEY') continue;
          throw error;
        }
      }
      const versions = sortVersions([...doc.versions, version]);
      const active = doc.versions.find((v) => v.version === doc.activeVersion)!;
      // An upload always becomes active; a shipped version replaces a shipped one, or an older upload.
      const makeActive = origin === 'upload' || active.origin === 'builtin' || compareVersions(version.version, active.version) > 0;
      const updated = await this.plugins.findOneAndUpdate(
        { _id: id, rev: doc.rev },
        {
          $set: { versions, ...activeFields(versions, makeActive ? version.version : doc.activeVersion), builtin: doc.builtin || origin === 'builtin', updatedAt: now },
          $inc: { rev: 1 },
        },
      );
      if (updated) return toRecord(updated);
    }
    throw busy(id);
  }

  private async putCode(id: string, version: string, sha: string, code: string): Promise<void> {
    const _id = codeKey(id, version, sha);
    await this.codes.replaceOne({ _id }, { _id, pluginId: id, version, code }, { upsert: true });
  }

  private async refreshBuiltin(manifest: Manifest, code: string): Promise<void> {
    await this.putCode(manifest.id, manifest.version, sha256(code), code);
    await this.mutate(manifest.id, (doc) => {
      const versions = doc.versions.map((v) => v.version === manifest.version ? { ...v, manifest, sha256: sha256(code), size: Buffer.byteLength(code) } : v);
      return { versions, ...activeFields(versions, doc.activeVersion) };
    });
    const current = codeKey(manifest.id, manifest.version, sha256(code));
    await this.codes.deleteMany({ pluginId: manifest.id, version: manifest.version, _id: { $ne: current } });
  }
}

const busy = (id: string) =>
  conflict('TAGSONIC_ERR_PLUGIN_BUSY', `"${id}" is being changed by someone else right now; try again.`, { pluginId: id });
