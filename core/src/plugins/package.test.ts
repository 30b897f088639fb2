import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { PACKAGE_LIMITS, readPluginPackage } from './package.ts';

const manifest = {
  id: 'hello', name: 'Hello', version: '1.0.0', description: 'Says hello.', kind: 'tag-source', entry: 'index.js',
  permissions: { http: { hosts: [{ host: 'example.org', reason: 'Searches' }] } },
};
const CODE = 'module.exports = { search: async () => [] };';

interface ZipEntry {
  name: string;
  data?: string | Buffer;
  stream?: () => Readable;
  mode?: number;
}

/** A real zip written by yazl. */
async function zip(entries: ZipEntry[]): Promise<Buffer> {
  const file = new yazl.ZipFile();
  for (const e of entries) {
    if (e.stream) file.addReadStream(e.stream(), e.name, { mode: e.mode });
    else file.addBuffer(Buffer.from(e.data ?? ''), e.name, { mode: e.mode });
  }
  file.end();
  const chunks: Buffer[] = [];
  for await (const chunk of file.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** yazl refuses unsafe names, so write a same-length placeholder and patch it in every header. */
function rename(bytes: Buffer, from: string, to: string): Buffer {
  expect(to.length).toBe(from.length);
  const out = Buffer.from(bytes);
  let at = out.indexOf(from);
  expect(at).toBeGreaterThanOrEqual(0);
  while (at >= 0) {
    out.write(to, at, 'latin1');
    at = out.indexOf(from, at + 1);
  }
  return out;
}

/** Sets the declared uncompressed size of every central-directory record (what readers trust). */
function lieAboutSizes(bytes: Buffer, size: number): Buffer {
  const out = Buffer.from(bytes);
  for (let at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) {
    out.writeUInt32LE(size, at + 24);
  }
  return out;
}

const zeros = (bytes: number) => () => Readable.from((function* () {
  const chunk = Buffer.alloc(1024 * 1024);
  for (let left = bytes; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
})());

describe('readPluginPackage', () => {
  it('reads a zip with the manifest at the root or inside one folder, ignoring other files', async () => {
    const flat = await readPluginPackage(await zip([
      { name: 'manifest.json', data: JSON.stringify(manifest) }, { name: 'index.js', data: CODE }, { name: 'README.md', data: '# hi' },
    ]), 'hello.zip');
    expect(flat).toEqual({ manifest, code: CODE });
    const nested = await readPluginPackage(await zip([
      { name: 'hello/manifest.json', data: JSON.stringify({ ...manifest, entry: 'dist/index.js' }) }, { name: 'hello/dist/index.js', data: CODE },
    ]), 'Hello.ZIP');
    expect(nested.code).toBe(CODE);
  });

  it('reads a single .js whose first comment is the manifest', async () => {
    const js = `/* @tagsonic-manifest ${JSON.stringify(manifest)} */\n${CODE}`;
    expect(await readPluginPackage(Buffer.from(js), 'hello.js')).toEqual({ manifest, code: js });
    await expect(readPluginPackage(Buffer.from(CODE), 'hello.js')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_PACKAGE_NO_MANIFEST', kind: 'invalid' });
  });

  it('refuses other file types, oversized uploads and broken zips', async () => {
    await expect(readPluginPackage(Buffer.from('x'), 'hello.tar.gz')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_PACKAGE_UNSUPPORTED_TYPE' });
    await expect(readPluginPackage(Buffer.alloc(PACKAGE_LIMITS.uploadBytes + 1), 'big.zip')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_PACKAGE_TOO_LARGE' });
    await expect(readPluginPackage(Buffer.from('not a zip at all'), 'x.zip')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_PACKAGE_CORRUPT' });
  });

  it('refuses zip-slip names, absolute paths and symlink entries, even in files it would ignore', async () => {
    const slip = rename(await zip([
      { name: 'manifest.json', data: JSON.stringify(manifest) }, { name: 'index.js', data: CODE }, { name: 'xx/evil.sh', data: 'rm -rf' },
    ]), 'xx/evil.sh', '../evil.sh');
    await expect(readPluginPackage(slip, 'slip.zip')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_PACKAGE_UNSAFE_PATH', message: expect.stringContaining('../evil.sh') });
    const nestedSlip = rename(await zip([{ name: 'manifest.json', data: JSON.stringify(manifest) }, { name: 'a/xx/xx/b', data: 'x' }]), 'a/xx/xx/b', 'a/../../b');
    await expect(readPluginPackage(nestedSlip, 'slip.zip')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_PACKAGE_UNSAFE_PATH' });
    const absolute = rename(await zip([{ name: 'manifest.json', data: JSON.stringify(manifest) }, { name: 'etc/passwd', data: 'x' }]), 'etc/passwd', '/tc/passwd');
    await expect(readPluginPackage(absolute, 'abs.zip')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_PACKAGE_UNSAFE_PATH', message: expect.stringContaining('absolute') });
    const symlink = await zip([
      { name: 'manifest.json', data: JSON.stringify(manifest) }, { name: 'index.js', data: CODE }, { name: 'link', data: '/etc/passwd', mode: 0o120777 },
    ]);
    await expect(readPluginPackage(symlink, 'link.zip')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_PACKAGE_SYMLINK' });
  });

  it('refuses too many entries and a decompression bomb without inflating it', async () => {
    const many = await zip([{ name: 'manifest.json', data: JSON.stringify(manifest) }, ...Array.from({ length: PACKAGE_LIMITS.entries }, (_, i) => ({ name: `f${i}`, data: '' }))]);
    await expect(readPluginPackage(many, 'many.zip')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_PACKAGE_TOO_MANY_ENTRIES' });

    // 1 GiB of zeros, about 1 MB compressed: under the upload limit, far over the unpacked one.
    const bomb = await zip([{ name: 'manifest.json', data: JSON.stringify(manifest) }, { name: 'index.js', stream: zeros(1024 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(PACKAGE_LIMITS.uploadBytes);
    const before = process.memoryUsage().rss;
    await expect(readPluginPackage(bomb, 'bomb.zip')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_PACKAGE_UNPACKED_TOO_LARGE' });
    // The same bomb declaring small sizes: inflating stops at the declared size instead of trusting the data.
    const started = Date.now();
    await expect(readPluginPackage(lieAboutSizes(bomb, 1000), 'bomb.zip')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_PACKAGE_CORRUPT' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  }, 60_000);

  it('refuses a missing or invalid manifest, a missing entry and code that does not compile, without running it', async () => {
    await expect(readPluginPackage(await zip([{ name: 'index.js', data: CODE }]), 'a.zip')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_PACKAGE_NO_MANIFEST' });
    await expect(readPluginPackage(await zip([{ name: 'manifest.json', data: '{ nope' }, { name: 'index.js', data: CODE }]), 'a.zip'))
      .rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_MANIFEST_INVALID', message: expect.stringContaining('not valid JSON') });
    await expect(readPluginPackage(await zip([{ name: 'manifest.json', data: JSON.stringify({ ...manifest, permision: {} }) }, { name: 'index.js', data: CODE }]), 'a.zip'))
      .rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_MANIFEST_INVALID', message: expect.stringContaining('permision') });
    await expect(readPluginPackage(await zip([{ name: 'manifest.json', data: JSON.stringify(manifest) }, { name: 'main.js', data: CODE }]), 'a.zip'))
      .rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_PACKAGE_NO_ENTRY', message: expect.stringContaining('index.js') });
    await expect(readPluginPackage(await zip([{ name: 'manifest.json', data: JSON.stringify(manifest) }, { name: 'index.js', data: 'module.exports = {' }]), 'a.zip'))
      .rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_COMPILE' });
    // Compiled, never run: this would throw (and set a global) if it ran.
    const ran = `globalThis.__ran = true; throw new Error('ran');`;
    expect((await readPluginPackage(await zip([{ name: 'manifest.json', data: JSON.stringify(manifest) }, { name: 'index.js', data: ran }]), 'a.zip')).code).toBe(ran);
    expect((globalThis as Record<string, unknown>).__ran).toBeUndefined();
  });
});
