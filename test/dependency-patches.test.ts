/**
 * Our patches (patches/, applied by patch-package on every install) are written against one version of a
 * dependency. A caret range let npm pick a newer version the patch no longer applies to, so each patched
 * package must be pinned to exactly the patch's version wherever a workspace depends on it, be installed at
 * that version, and the installed files must carry the patch.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

type Manifest = { name: string; workspaces?: string[]; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
const readJson = async <T>(file: string) => JSON.parse(await readFile(path.join(ROOT, file), 'utf8')) as T;

/** `music-metadata+12.1.0.patch` → name and version (patch-package's naming; `@scope+name+1.2.3.patch` for scoped packages). */
function parsePatchName(file: string): { name: string; version: string } {
  const m = /^(.+)\+(\d+\.\d+\.\d+(?:[-+][\w.-]+)?)\.patch$/.exec(file);
  if (!m || m[1].includes('++')) throw new Error(`${file}: not a patch of a top-level package (name+version.patch)`);
  return { name: m[1].replace(/^(@[^+]+)\+/, '$1/'), version: m[2] };
}

const patchFiles = (await readdir(path.join(ROOT, 'patches'))).filter((f) => f.endsWith('.patch')).sort();

describe('dependency patches', () => {
  it('there are patches to check', () => {
    expect(patchFiles.length).toBeGreaterThan(0);
  });

  for (const file of patchFiles) {
    it(`${file}: pinned exactly where it is declared, installed at that version, and applied`, async () => {
      const { name, version } = parsePatchName(file);
      const root = await readJson<Manifest>('package.json');
      const manifests = ['package.json', ...(root.workspaces ?? []).map((w) => `${w}/package.json`)];
      const declared: Array<{ where: string; range: string }> = [];
      for (const where of manifests) {
        const m = await readJson<Manifest>(where);
        const range = m.dependencies?.[name] ?? m.devDependencies?.[name];
        if (range !== undefined) declared.push({ where, range });
      }
      expect(declared.length, `${name} is patched but no package.json declares it`).toBeGreaterThan(0);
      for (const d of declared) expect(`${d.where}: ${d.range}`).toBe(`${d.where}: ${version}`);

      const installed = await readJson<{ version: string }>(`node_modules/${name}/package.json`);
      expect(installed.version).toBe(version);
      const lock = await readJson<{ packages: Record<string, { version?: string }> }>('package-lock.json');
      expect(lock.packages[`node_modules/${name}`]?.version).toBe(version);

      // The patch only touches that package, and the installed files already carry it.
      const patch = await readFile(path.join(ROOT, 'patches', file), 'utf8');
      for (const [, target] of patch.matchAll(/^diff --git a\/(\S+)/gm)) expect(target.startsWith(`node_modules/${name}/`)).toBe(true);
      await run('git', ['apply', '--check', '--reverse', path.join('patches', file)], { cwd: ROOT });
    });
  }
});
