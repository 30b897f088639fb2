/**
 * The project's documents must stand alone in a clone: links and file paths they name exist in the
 * repository (README.md pointed at ../shared/ARCHITECTURE.md, which a clone does not have), and the
 * commands they show are commands the `tagsonic` program has.
 */
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOCS = ['README.md', 'docs/architecture.md', 'core/README.md', 'workers/README.md', 'cli/README.md', 'sdk/README.md'];
const exists = (file: string) => access(file).then(() => true, () => false);

describe('documentation', () => {
  for (const doc of DOCS) {
    it(`${doc}: every link and named file is inside the repository and exists`, async () => {
      const text = await readFile(path.join(ROOT, doc), 'utf8');
      const dir = path.dirname(path.join(ROOT, doc));
      const targets = [
        ...[...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)].map((m) => ({ target: m[1], from: [dir] })),
        // Paths in code spans (`core/src/store/README.md`, or `src/main.ts` in a package's README).
        ...[...text.matchAll(/`((?:[\w.-]+\/)+[\w.-]+\.(?:md|ts|cjs|yaml))`/g)].map((m) => ({ target: m[1], from: [ROOT, dir] })),
      ].filter(({ target }) => !/^[a-z]+:/.test(target));
      for (const { target, from } of targets) {
        const files = [from].flat().map((base) => path.resolve(base, target));
        for (const file of files) expect(path.relative(ROOT, file).startsWith('..'), `${doc} points outside the repository: ${target}`).toBe(false);
        expect((await Promise.all(files.map(exists))).some(Boolean), `${doc} names ${target}, which does not exist`).toBe(true);
      }
    });
  }

  it('README shows commands the way they really run (./run <command>, each one the program has)', async () => {
    const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).not.toMatch(/npx tagsonic/);
    const main = await readFile(path.join(ROOT, 'cli/src/main.ts'), 'utf8');
    const commands = new Set([...main.matchAll(/case '([a-z-]+)':/g)].map((m) => m[1]));
    const runScript = await readFile(path.join(ROOT, 'run'), 'utf8');
    for (const m of runScript.matchAll(/^\s{2}([a-z]+)\)$/gm)) commands.add(m[1]);
    const shown = [...readme.matchAll(/\.\/run ([a-z][a-z-]*)/g)].map((m) => m[1]);
    expect(shown.length).toBeGreaterThan(5);
    for (const cmd of shown) expect(commands, `./run ${cmd}`).toContain(cmd);
  });

  it('core, workers, cli and sdk each say what they hold and what may import them', async () => {
    for (const pkg of ['core', 'workers', 'cli', 'sdk']) {
      const text = await readFile(path.join(ROOT, pkg, 'README.md'), 'utf8');
      expect(text, pkg).toMatch(/^# /);
      expect(text, pkg).toMatch(/import/);
    }
  });
});
