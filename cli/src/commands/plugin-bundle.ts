/**
 * A plugin author's folder (`manifest.json` + `src/index.ts`) read and bundled the way the server bundles a
 * built-in plugin (workers/src/plugin-runtime/builtin.ts: esbuild, one CommonJS script, platform neutral,
 * es2022), so what `plugin test` runs and what `plugin pack` ships is the code the server will run. The one
 * difference: `@tagsonic/sdk` resolves to the SDK beside this CLI, so a folder outside the checkout (no
 * node_modules of its own) builds too.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TagsonicError } from '@tagsonic/core/errors';
import { validateManifest, type Manifest } from '@tagsonic/sdk';
import { CliError } from '../cli-error.ts';

/** The same code the registry and the runtime use for a manifest that breaks the contract. */
const MANIFEST_INVALID = 'TAGSONIC_ERR_PLUGIN_MANIFEST_INVALID';

/** `sdk/src/index.ts`, what `import … from '@tagsonic/sdk'` means in a plugin. */
export const SDK_ENTRY = fileURLToPath(import.meta.resolve('@tagsonic/sdk'));
/** `sdk/src/manifest.schema.json`, for the `$schema` of a new manifest. */
export const MANIFEST_SCHEMA = path.join(path.dirname(SDK_ENTRY), 'manifest.schema.json');

export interface PluginSource {
  dir: string;
  /** manifest.json as written (validated), for packing it unchanged. */
  manifestText: string;
  manifest: Manifest;
}

/**
 * Reads and validates `<dir>/manifest.json`. An invalid manifest throws `TAGSONIC_ERR_PLUGIN_MANIFEST_INVALID`
 * listing every problem by its path, one a line, as the validator reports them.
 */
export async function readPluginSource(dir: string): Promise<PluginSource> {
  const file = path.join(dir, 'manifest.json');
  let manifestText: string;
  try {
    manifestText = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`${dir} is not a plugin folder: it has no manifest.json (tagsonic plugin new makes one).`);
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(manifestText);
  } catch (error) {
    throw new TagsonicError('invalid', MANIFEST_INVALID, `${file} is not JSON: ${(error as Error).message}`);
  }
  const validation = validateManifest(parsed);
  if (!validation.ok) {
    const lines = validation.errors.map((e) => `  ${e.path || '(manifest)'}: ${e.message}`);
    throw new TagsonicError('invalid', MANIFEST_INVALID, `${file} is invalid:\n${lines.join('\n')}`, { details: { errors: validation.errors } });
  }
  return { dir, manifestText, manifest: validation.manifest };
}

/**
 * Bundles `<dir>/src/index.ts` into one CommonJS script; `banner` goes first (pack --js puts the manifest
 * comment there). A build error names the file and line.
 */
export async function bundlePlugin(dir: string, options: { banner?: string } = {}): Promise<string> {
  const esbuild = await import('esbuild');
  try {
    const result = await esbuild.build({
      entryPoints: [path.join(dir, 'src', 'index.ts')],
      absWorkingDir: dir,
      bundle: true,
      format: 'cjs',
      platform: 'neutral',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
      alias: { '@tagsonic/sdk': SDK_ENTRY },
      ...(options.banner ? { banner: { js: options.banner } } : {}),
    });
    return result.outputFiles[0]!.text;
  } catch (error) {
    const first = (error as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }).errors?.[0];
    if (!first) throw error;
    const where = first.location ? `${path.resolve(dir, first.location.file)}:${first.location.line}:${first.location.column}: ` : '';
    throw new CliError(`the plugin does not build: ${where}${first.text}`);
  }
}
