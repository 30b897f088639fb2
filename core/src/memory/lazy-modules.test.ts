/**
 * The server's main thread does not load the WASM engines it may never use: re2-wasm instantiates a
 * 16 MiB memory as it is loaded and taglib-wasm costs ~14 MB resident to import, so both are loaded on
 * first use (a user's regular expression; a tag write, which runs on writer threads) — not with the
 * modules `tagsonic start` imports. So is the NATS client (@nats-io/*), which only a NATS bus needs. A child process records every module it loads through a resolve hook.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** The modules loaded by importing cli/src/main.ts's start command, then running `after` (inside the child). */
function loadedModules(after = ''): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = [];
    registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.push(r.url); return r; } });
    const start = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'cli/src/commands/start.ts')).href)});
    if (typeof start.start !== 'function') throw new Error('no start command');
    ${after}
    process.stdout.write(JSON.stringify(seen));
  `;
  const child = spawnSync(process.execPath, ['--no-node-snapshot', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  if (child.status !== 0) throw new Error(`child failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout) as string[];
}

const lazyPackages = (urls: string[]) => urls.filter((u) => /\/node_modules\/(re2-wasm|taglib-wasm|@nats-io)\//.test(u)).map((u) => u.replace(/.*\/node_modules\/(@nats-io\/[^/]+|[^/]+)\/.*/, '$1'));

describe('WASM engines load on first use', () => {
  it('starting the embedded server loads neither re2-wasm, taglib-wasm nor the NATS client', { timeout: 90_000 }, () => {
    expect(lazyPackages(loadedModules())).toEqual([]);
  });

  it('the first regular expression loads re2-wasm, and it works', { timeout: 90_000 }, () => {
    const templates = pathToFileURL(path.join(ROOT, 'core/src/templates/index.ts')).href;
    const urls = loadedModules(`
      const { compileSafeRegex } = await import(${JSON.stringify(templates)});
      const m = compileSafeRegex('(?<n>\\\\d+) - (?<t>.+)').match('07 - Song');
      if (m?.groups.n !== '07' || m.groups.t !== 'Song') throw new Error('bad match ' + JSON.stringify(m));
    `);
    expect(new Set(lazyPackages(urls))).toEqual(new Set(['re2-wasm']));
  });
});
