import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { StorePluginRegistry } from '@tagsonic/core/plugins';
import { syncBuiltinPlugins } from './builtin-plugins.ts';

let dir: string;
let store: Store;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-builtins-'));
  store = await openEmbeddedStore({ dir: path.join(dir, 'store') });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function writePlugin(root: string, id: string, manifest: Record<string, unknown>, source: string): Promise<void> {
  await mkdir(path.join(root, id, 'src'), { recursive: true });
  await writeFile(path.join(root, id, 'manifest.json'), JSON.stringify(manifest));
  await writeFile(path.join(root, id, 'src', 'index.ts'), source);
}

describe('syncBuiltinPlugins', () => {
  it('records every shipped plugin enabled and skips, with a warning, one that does not build or has a bad manifest', async () => {
    const root = path.join(dir, 'plugins');
    const manifest = (id: string) => ({ id, name: id, version: '1.0.0', description: 'Shipped.', kind: 'tag-source', entry: 'index.js', permissions: {} });
    await writePlugin(root, 'good', manifest('good'), 'export const search = async (): Promise<unknown[]> => [];\n');
    await writePlugin(root, 'broken', manifest('broken'), 'export const search = (;\n');
    await writePlugin(root, 'badmanifest', { ...manifest('badmanifest'), kind: 'source' }, 'export const search = async () => [];\n');
    await mkdir(path.join(root, 'not-a-plugin'));
    const registry = new StorePluginRegistry(store);
    await registry.init();
    const warnings: string[] = [];
    const synced = await syncBuiltinPlugins(registry, { warn: (_obj, msg) => void warnings.push(msg) }, root);
    expect(synced).toEqual(['good']);
    expect(warnings).toEqual([expect.stringContaining('badmanifest'), expect.stringContaining('broken')]);
    expect(await registry.get('good')).toMatchObject({ builtin: true, enabled: true, activeVersion: '1.0.0' });
    expect((await registry.active('good'))?.code).toContain('search');
    // A second start changes nothing.
    const before = await registry.get('good');
    await syncBuiltinPlugins(registry, { warn: () => undefined }, root);
    expect(await registry.get('good')).toEqual(before);
  });
});
