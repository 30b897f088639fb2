/**
 * `tagsonic plugin pack <dir> [--js] [-o out]`: the uploadable package of a plugin folder. A `.zip` holds
 * manifest.json as written, the bundled entry under the manifest's `entry` name, and README.md / LICENSE when
 * the folder has them; `--js` writes one script whose first comment is the manifest
 * (`/* @tagsonic-manifest {…} *\/`). An invalid manifest is refused with every problem by its path, before
 * anything is built. The package is then read back by the registry's own reader (`readPluginPackage`, what the
 * upload route runs), so a package this command writes is one the server accepts.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ZipFile } from 'yazl';
import { readPluginPackage } from '@tagsonic/core/plugins';
import { CliError } from '../cli-error.ts';
import { bundlePlugin, readPluginSource } from './plugin-bundle.ts';
import type { Io } from './plugin-io.ts';

export const PACK_USAGE = `usage: tagsonic plugin pack DIR [--js] [-o FILE]
  writes DIR/dist/<id>-<version>.zip (or .js with --js), the file to upload on /mod or with plugin install`;

/** Files beside manifest.json that travel in a zip when present (the registry ignores them; people read them). */
const EXTRAS = ['README.md', 'LICENSE', 'LICENSE.md', 'LICENSE.txt', 'icon.png'];

export async function pluginPack(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { js: { type: 'boolean' }, o: { type: 'string', short: 'o' }, output: { type: 'string' } } });
  if (positionals.length !== 1) throw new CliError(PACK_USAGE);
  const { file, id, version, bytes } = await packPlugin(path.resolve(positionals[0]!), { js: values.js, out: values.o ?? values.output });
  io.out.write(`${file}\n`);
  io.err.write(`packed ${id} ${version} (${(bytes / 1024).toFixed(1)} KiB); upload it on /mod (插件市场) or with: tagsonic plugin install ${path.relative(process.cwd(), file) || file}\n`);
  return 0;
}

export async function packPlugin(dir: string, options: { js?: boolean; out?: string } = {}): Promise<{ file: string; id: string; version: string; bytes: number }> {
  const { manifest, manifestText } = await readPluginSource(dir);
  const ext = options.js ? '.js' : '.zip';
  const file = path.resolve(options.out ?? path.join(dir, 'dist', `${manifest.id}-${manifest.version}${ext}`));
  if (path.extname(file).toLowerCase() !== ext) throw new CliError(`the output of pack${options.js ? ' --js' : ''} must end in ${ext}: ${file}`);

  let bytes: Buffer;
  if (options.js) {
    // `$schema` is for the author's editor (a local path); `*/` inside a JSON string would end the comment
    // early, and `*\/` is the same text in JSON.
    const { $schema: _schema, ...shipped } = manifest;
    const banner = `/* @tagsonic-manifest ${JSON.stringify(shipped).replace(/\*\//g, '*\\/')} */`;
    bytes = Buffer.from(await bundlePlugin(dir, { banner }), 'utf8');
  } else {
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from(manifestText, 'utf8'), 'manifest.json');
    zip.addBuffer(Buffer.from(await bundlePlugin(dir), 'utf8'), manifest.entry);
    for (const name of EXTRAS) {
      const extra = await readFile(path.join(dir, name)).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
      if (extra) zip.addBuffer(extra, name);
    }
    bytes = await zipBytes(zip);
  }
  // The registry's reader is the judge: limits, manifest, entry present, code that compiles.
  await readPluginPackage(bytes, path.basename(file));
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
  return { file, id: manifest.id, version: manifest.version, bytes: bytes.length };
}

function zipBytes(zip: ZipFile): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
    zip.end();
  });
}
