import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Manifest } from '@tagsonic/sdk';
import { openEmbeddedStore } from '../store/index.ts';
import type { Store } from '../store/port.ts';
import { compareVersions } from './semver.ts';
import { StorePluginRegistry } from './registry.ts';
import type { PluginPackage } from './types.ts';

let dir: string;
let store: Store;
let registry: StorePluginRegistry;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-registry-'));
  store = await openEmbeddedStore({ dir });
  registry = new StorePluginRegistry(store);
  await registry.init();
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const manifest = (over: Partial<Manifest> = {}): Manifest => ({
  id: 'demo', name: 'Demo', version: '1.0.0', description: 'A demo source.', kind: 'tag-source', entry: 'index.js',
  permissions: { http: { hosts: [{ host: 'example.org', reason: 'Searches' }] } }, ...over,
});
const pkg = (over: Partial<Manifest> = {}, code = `module.exports = { search: async () => [] }; // ${over.version ?? '1.0.0'}`): PluginPackage =>
  ({ manifest: manifest(over), code });

describe('StorePluginRegistry', () => {
  it('installs an upload disabled, keeps versions newest first, rolls back and forward, and serves the active code only when enabled', async () => {
    const first = await registry.install(pkg(), 'upload');
    expect(first).toMatchObject({ id: 'demo', kind: 'tag-source', activeVersion: '1.0.0', builtin: false, enabled: false, disabledReason: 'admin' });
    expect(first.versions[0]).toMatchObject({ version: '1.0.0', origin: 'upload', size: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await registry.active('demo')).toBeNull();

    await registry.install(pkg({ version: '1.10.0', name: 'Demo X' }), 'upload');
    const second = await registry.install(pkg({ version: '1.2.0' }), 'upload');
    expect(second.versions.map((v) => v.version)).toEqual(['1.10.0', '1.2.0', '1.0.0']);
    expect(second.activeVersion).toBe('1.2.0');

    await registry.setEnabled('demo', true);
    const active = await registry.active('demo');
    expect(active?.manifest.version).toBe('1.2.0');
    expect(active?.code).toContain('// 1.2.0');

    const rolled = await registry.activate('demo', '1.10.0');
    expect(rolled.activeVersion).toBe('1.10.0');
    expect((await registry.list({ kind: 'tag-source', page: 1, pageSize: 10, search: 'demo x' })).items.map((r) => r.id)).toEqual(['demo']);
    await expect(registry.activate('demo', '9.9.9')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_VERSION_NOT_FOUND', kind: 'not_found' });
  });

  it('refuses the same version with other code, a kind change and an invalid manifest; the same code again is a no-op', async () => {
    await registry.install(pkg(), 'upload');
    expect((await registry.install(pkg(), 'upload')).versions).toHaveLength(1);
    await expect(registry.install(pkg({}, 'module.exports = {};'), 'upload')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_VERSION_EXISTS', kind: 'conflict' });
    await expect(registry.install(pkg({ version: '2.0.0', kind: 'batch-action' }), 'upload')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_KIND_CHANGED' });
    await expect(registry.install(pkg({ id: 'Bad Id' }), 'upload')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_MANIFEST_INVALID', kind: 'invalid' });
    expect(await registry.code('demo', '1.0.0')).toContain('search');
  });

  it('checks settings against the active config form, and refuses enabling until required settings are set', async () => {
    const config = { type: 'object' as const, required: ['token'], properties: { token: { type: 'string' as const, title: 'Token', secret: true }, limit: { type: 'number' as const, title: 'Limit', default: 5 } } };
    await registry.install(pkg({ config }), 'upload');
    await expect(registry.setEnabled('demo', true)).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_CONFIG_INVALID' });
    await expect(registry.configure('demo', { config: { token: 'x', limit: 'ten' } })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_CONFIG_INVALID' });
    await expect(registry.configure('demo', { config: { token: 'x', nope: 1 } })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_CONFIG_INVALID' });
    await expect(registry.configure('demo', { baseUrl: 'ftp://mirror' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_BASE_URL_INVALID' });
    const configured = await registry.configure('demo', { baseUrl: 'https://mirror.example/api/', config: { token: 'secret' } });
    expect(configured.settings).toEqual({ baseUrl: 'https://mirror.example/api', config: { token: 'secret' } });
    expect((await registry.setEnabled('demo', true)).enabled).toBe(true);
    // A new version keeps the enabled state and the settings.
    expect(await registry.install(pkg({ version: '1.1.0', config }), 'upload')).toMatchObject({ enabled: true, settings: { config: { token: 'secret' } } });
    expect(await registry.setEnabled('demo', false)).toMatchObject({ enabled: false, disabledReason: 'admin' });

    // A setting only a newer version has is kept but not handed to an older one (its form would refuse it).
    const withRegion = { ...config, properties: { ...config.properties, region: { type: 'string' as const, title: 'Region' } } };
    await registry.install(pkg({ version: '1.2.0', config: withRegion }), 'upload');
    await registry.configure('demo', { config: { token: 'secret', region: 'jp' } });
    expect((await registry.activate('demo', '1.1.0')).settings.config).toEqual({ token: 'secret' });
    expect((await registry.setEnabled('demo', true)).enabled).toBe(true);
    await registry.configure('demo', { config: { token: 'other' } });
    expect((await registry.activate('demo', '1.2.0')).settings.config).toEqual({ token: 'other', region: 'jp' });
  });

  it('removes uploaded versions (moving the active one) and whole uploads; shipped versions stay', async () => {
    await registry.install(pkg(), 'upload');
    await registry.install(pkg({ version: '1.1.0' }), 'upload');
    const after = await registry.remove('demo', '1.1.0');
    expect(after?.activeVersion).toBe('1.0.0');
    await expect(registry.code('demo', '1.1.0')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_VERSION_NOT_FOUND' });
    expect(await registry.remove('demo')).toBeNull();
    expect(await registry.get('demo')).toBeNull();
    expect(await store.collection('plugin_code').countDocuments({ pluginId: 'demo' })).toBe(0);
    await expect(registry.remove('demo')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_NOT_INSTALLED', kind: 'not_found' });

    await registry.syncBuiltins([pkg({ id: 'shipped' })]);
    await registry.install(pkg({ id: 'shipped', version: '2.0.0' }), 'upload');
    await expect(registry.remove('shipped', '1.0.0')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_BUILTIN_VERSION' });
    const back = await registry.remove('shipped');
    expect(back).toMatchObject({ activeVersion: '1.0.0', builtin: true });
    await expect(registry.remove('shipped')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_BUILTIN_VERSION' });
  });

  it('syncs built-ins: new ones enabled, a rebuilt version refreshed, a newer upload kept active, a newer shipped version activated', async () => {
    const needsKey = pkg({ id: 'keyed', config: { type: 'object', required: ['key'], properties: { key: { type: 'string', title: 'Key' } } } });
    await registry.syncBuiltins([pkg({ id: 'lrc' }), needsKey]);
    expect(await registry.get('lrc')).toMatchObject({ enabled: true, builtin: true, disabledReason: null });
    expect(await registry.get('keyed')).toMatchObject({ enabled: false, disabledReason: 'admin' });

    await registry.syncBuiltins([pkg({ id: 'lrc' }, 'module.exports = { rebuilt: 1 };')]);
    expect(await registry.code('lrc', '1.0.0')).toContain('rebuilt');
    expect(await store.collection('plugin_code').countDocuments({ pluginId: 'lrc' })).toBe(1);

    await registry.install(pkg({ id: 'lrc', version: '1.5.0' }), 'upload');
    await registry.syncBuiltins([pkg({ id: 'lrc', version: '1.1.0' })]);
    expect((await registry.get('lrc'))?.activeVersion).toBe('1.5.0');
    await registry.syncBuiltins([pkg({ id: 'lrc', version: '2.0.0' })]);
    const record = await registry.get('lrc');
    expect(record?.activeVersion).toBe('2.0.0');
    expect(record?.versions.map((v) => `${v.version}:${v.origin}`)).toEqual(['2.0.0:builtin', '1.5.0:upload', '1.1.0:builtin', '1.0.0:builtin']);
  });

  it('adds workers\' health deltas and auto-disables', async () => {
    await registry.syncBuiltins([pkg()]);
    const base = { p50Ms: null, lastSuccessAt: null, lastError: null, autoDisabled: false };
    await registry.recordHealth('demo', { ...base, calls: 3, failures: 1, p50Ms: 12, lastSuccessAt: '2026-01-01T00:00:00.000Z' });
    await registry.recordHealth('demo', { ...base, calls: 2, failures: 2, lastError: { code: 'X', message: 'boom', at: '2026-01-02T00:00:00.000Z' }, autoDisabled: true });
    await registry.recordHealth('gone', { ...base, calls: 1, failures: 0 });
    expect(await registry.get('demo')).toMatchObject({
      enabled: false, disabledReason: 'auto',
      health: { calls: 5, failures: 3, p50Ms: 12, lastSuccessAt: '2026-01-01T00:00:00.000Z', lastError: { code: 'X', message: 'boom' } },
    });
    expect(await registry.get('gone')).toBeNull();
    // An administrator's switch-off is not turned into an automatic one.
    await registry.setEnabled('demo', true);
    await registry.setEnabled('demo', false);
    await registry.recordHealth('demo', { ...base, calls: 1, failures: 1, autoDisabled: true });
    expect(await registry.get('demo')).toMatchObject({ enabled: false, disabledReason: 'admin', health: { calls: 6 } });
  });

  it('pages and searches by kind', async () => {
    for (const id of ['b-one', 'a-two', 'c-three']) await registry.install(pkg({ id, name: id.toUpperCase() }), 'upload');
    await registry.install(pkg({ id: 'act', kind: 'batch-action' }), 'upload');
    const page = await registry.list({ kind: 'tag-source', page: 2, pageSize: 2 });
    expect(page).toMatchObject({ total: 3, items: [{ id: 'c-three' }] });
    expect((await registry.list({ kind: 'tag-source', page: 1, pageSize: 5, search: '.*' })).total).toBe(0);
    expect((await registry.list({ kind: 'batch-action', page: 1, pageSize: 5 })).items.map((r) => r.id)).toEqual(['act']);
  });

  it('orders versions by semver precedence', () => {
    expect(['1.0.0', '1.0.0-beta.2', '1.0.0-beta.10', '0.9.1', '1.0.0-alpha', '10.0.0'].sort(compareVersions))
      .toEqual(['0.9.1', '1.0.0-alpha', '1.0.0-beta.2', '1.0.0-beta.10', '1.0.0', '10.0.0']);
  });
});
