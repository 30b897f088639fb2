/**
 * `caps.files.hashMany` and `caps.files.statMany` (capabilities/files-many.ts) through the real loadPlugin and
 * sandbox on real files: each answer is what `files.hash` / `files.stat` answers for that path, in the order asked,
 * `null` for a file that is not there; a path out of the roots (`..`, absolute, a symlink out) refuses the whole
 * call before anything is read; a folder is not hashed; more than 1000 paths are refused; bad options are invalid.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { createTagJournal, type TagJournal } from '@tagsonic/core/tags';
import { loadPlugin, type LoadedPlugin } from '@tagsonic/workers/plugin-runtime';

const CODE = `
exports.call = async ({ name, options }, caps) => {
  try { return { value: await caps.files[name](options) }; } catch (e) { return { code: e.code ?? null, message: e.message }; }
};
`;

let dir: string;
let media: string;
let store: Store;
let journal: TagJournal;
let plugin: LoadedPlugin;

type Answer = { value?: any; code?: string; message?: string };
const call = (name: string, options: unknown) => plugin.invoke('call', { name, options }) as Promise<Answer>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-files-many-'));
  media = path.join(dir, 'media');
  await mkdir(path.join(media, 'A'), { recursive: true });
  await mkdir(path.join(dir, 'outside'), { recursive: true });
  const big = Buffer.alloc(300 * 1024);
  for (let i = 0; i < big.length; i++) big[i] = (i * 7) & 0xff;
  await writeFile(path.join(media, 'A', 'big.bin'), big);
  const other = Buffer.from(big);
  other[big.length >> 1] ^= 0xff;
  await writeFile(path.join(media, 'A', 'big-mid.bin'), other);
  await writeFile(path.join(media, 'A', 'small.bin'), 'small file');
  await writeFile(path.join(dir, 'outside', 'secret.bin'), 'secret');
  await symlink(path.join(dir, 'outside', 'secret.bin'), path.join(media, 'A', 'link-out.bin'));
  const roots = await MediaRoots.open({ media });
  store = await openEmbeddedStore({ dir: path.join(dir, 'store') });
  journal = createTagJournal({ store, blobDir: path.join(dir, 'blobs') });
  const manifest = { id: 'manyprobe', name: 'Many probe', version: '1.0.0', description: 'Calls files.', kind: 'batch-action', entry: 'index.js',
    permissions: { files: { access: 'read', reason: 'test' } } };
  plugin = loadPlugin({ manifest, code: CODE, env: {}, host: { roots, journal, store } });
}, 30_000);

afterAll(async () => {
  plugin?.close();
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('files.hashMany', () => {
  it('answers each path as files.hash does, in order, null for a missing file', async () => {
    const paths = ['A/big.bin', 'A/big-mid.bin', 'A/missing.bin', 'A/small.bin'];
    for (const range of ['edges', 'full'] as const) {
      const { value } = await call('hashMany', { paths, range });
      const one = await Promise.all(paths.map(async (p) => {
        const answer = await call('hash', { path: p, range });
        return answer.code === 'TAGSONIC_ERR_PLUGIN_NOT_FOUND' ? null : answer.value;
      }));
      expect(value.results).toEqual(one);
      expect(value.results[2]).toBeNull();
    }
    const edges = (await call('hashMany', { paths: ['A/big.bin', 'A/big-mid.bin'], range: 'edges' })).value.results;
    expect(edges[0]).toMatchObject({ complete: false, size: 300 * 1024 });
    expect(edges[0].sha256).toBe(edges[1].sha256);
    const full = (await call('hashMany', { paths: ['A/big.bin', 'A/big-mid.bin'] })).value.results;
    expect(full[0]).toMatchObject({ complete: true });
    expect(full[0].sha256).not.toBe(full[1].sha256);
  });

  it('refuses the whole call for a path out of the roots, a folder, too many paths or bad options', async () => {
    expect((await call('hashMany', { paths: ['A/big.bin', '../../etc/passwd'] })).code).toBe('TAGSONIC_ERR_PLUGIN_DENIED');
    expect((await call('hashMany', { paths: ['A/big.bin', '/etc/passwd'] })).code).toBe('TAGSONIC_ERR_PLUGIN_DENIED');
    expect((await call('hashMany', { paths: ['A/link-out.bin'] })).code).toBe('TAGSONIC_ERR_PLUGIN_DENIED');
    expect((await call('hashMany', { paths: ['A'] })).code).toBe('TAGSONIC_ERR_PLUGIN_INVALID');
    expect((await call('hashMany', { paths: 'A/big.bin' })).code).toBe('TAGSONIC_ERR_PLUGIN_INVALID');
    expect((await call('hashMany', { paths: ['A/big.bin'], range: 'middle' })).code).toBe('TAGSONIC_ERR_PLUGIN_INVALID');
    expect((await call('hashMany', { paths: Array.from({ length: 1001 }, () => 'A/big.bin') })).code).toBe('TAGSONIC_ERR_PLUGIN_LIMIT');
    expect((await call('hashMany', { paths: [] })).value).toEqual({ results: [] });
  });
});

describe('files.statMany', () => {
  it('answers each path as files.stat does, in order, null for a missing one; a path out refuses the call', async () => {
    const paths = ['A/small.bin', 'A/missing.bin', 'A'];
    const { value } = await call('statMany', { paths });
    expect(value.entries).toEqual(await Promise.all(paths.map(async (p) => (await call('stat', { path: p })).value)));
    expect(value.entries[0]).toMatchObject({ name: 'small.bin', type: 'file', size: 10 });
    expect(value.entries[1]).toBeNull();
    expect(value.entries[2]).toMatchObject({ name: 'A', type: 'directory' });
    expect((await call('statMany', { paths: ['A/small.bin', 'A/link-out.bin'] })).code).toBe('TAGSONIC_ERR_PLUGIN_DENIED');
  });
});
