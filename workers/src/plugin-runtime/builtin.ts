/**
 * The built-in plugins (`plugins/<id>/` in the checkout): their manifest and their code, bundled from TypeScript
 * at first use. They run through {@link loadPlugin} exactly like an uploaded plugin — same manifest check, same
 * sandbox, same guarded http — so a built-in source has no privilege a third-party one could not have.
 *
 * Bundling needs esbuild at run time, like `dashboard/build.ts` at `./run start`. It is a devDependency, so an
 * image installed with `npm ci --omit=dev` (the Dockerfile) lacks it; it is imported lazily so that only
 * loading a built-in fails there, with `TAGSONIC_ERR_PLUGIN_BUILTIN_UNAVAILABLE`, not the server's start.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TagsonicError } from '@tagsonic/core/errors';

export const PLUGIN_BUILTIN_NOT_FOUND = 'TAGSONIC_ERR_PLUGIN_BUILTIN_NOT_FOUND';
export const PLUGIN_BUILTIN_UNAVAILABLE = 'TAGSONIC_ERR_PLUGIN_BUILTIN_UNAVAILABLE';

/** `plugins/` at the root of the checkout (or of /opt/tagsonic in the image). */
export const BUILTIN_PLUGINS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../plugins');

/** What {@link loadPlugin} needs of a plugin, plus where it came from. */
export interface BuiltinPlugin {
  readonly id: string;
  readonly dir: string;
  /** The parsed manifest.json, not yet validated (loadPlugin validates it). */
  readonly manifest: unknown;
  /** The bundled CommonJS entry script. */
  readonly code: string;
}

/** Same rule as the manifest's `id`, checked before the id becomes a path. */
const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const cache = new Map<string, Promise<BuiltinPlugin>>();

/**
 * The built-in plugin `id`, bundled once per process (later calls share the first build; a failed build is
 * not kept, so a fixed checkout is picked up on the next call). Throws `TAGSONIC_ERR_PLUGIN_BUILTIN_NOT_FOUND`
 * for an unknown id and `TAGSONIC_ERR_PLUGIN_BUILTIN_UNAVAILABLE` when esbuild is missing or the source does
 * not build.
 *
 * @example
 * const { manifest, code } = await builtinPlugin('lrclib');
 * const plugin = loadPlugin({ manifest, code, env: process.env });
 */
export function builtinPlugin(id: string, options: { dir?: string } = {}): Promise<BuiltinPlugin> {
  const root = options.dir ?? BUILTIN_PLUGINS_DIR;
  const key = `${root}\0${id}`;
  let entry = cache.get(key);
  if (!entry) {
    entry = bundle(id, root);
    entry.catch(() => cache.delete(key));
    cache.set(key, entry);
  }
  return entry;
}

async function bundle(id: string, root: string): Promise<BuiltinPlugin> {
  if (!ID.test(id)) throw notFound(id);
  const dir = path.join(root, id);
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(id);
    throw new TagsonicError('internal', PLUGIN_BUILTIN_UNAVAILABLE, `The built-in plugin ${id} has an unreadable manifest.json.`, { cause: error, details: { pluginId: id } });
  }
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch (error) {
    throw new TagsonicError('unavailable', PLUGIN_BUILTIN_UNAVAILABLE,
      `The built-in plugin ${id} cannot be built: esbuild is not installed (install the dev dependencies).`, { cause: error, details: { pluginId: id } });
  }
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
    });
    return { id, dir, manifest, code: result.outputFiles[0]!.text };
  } catch (error) {
    throw new TagsonicError('internal', PLUGIN_BUILTIN_UNAVAILABLE, `The built-in plugin ${id} does not build: ${firstBuildError(error)}`, { cause: error, details: { pluginId: id } });
  }
}

const notFound = (id: string) =>
  new TagsonicError('not_found', PLUGIN_BUILTIN_NOT_FOUND, `There is no built-in plugin "${id.slice(0, 64)}".`, { details: { pluginId: id.slice(0, 64) } });

/** esbuild's first message (file:line and text), without the stack. */
function firstBuildError(error: unknown): string {
  const first = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors?.[0];
  if (!first) return error instanceof Error ? error.message : String(error);
  return first.location ? `${first.location.file}:${first.location.line}: ${first.text}` : first.text;
}
