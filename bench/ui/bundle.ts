/**
 * The dashboard's download size, from what `node dashboard/build.ts` wrote into dashboard/dist:
 *   node bench/ui/bundle.ts [--no-build]
 *
 * Startup: index.html's main-*.js and main-*.css plus every chunk main imports statically (transitively) — what a
 * first visit downloads before any screen. Lazy: every chunk reached only through a dynamic import(), each named by
 * the source files of the dashboard it holds (from its source map), so a screen that lost its laziness shows up as
 * a missing row and a bigger startup. Sizes raw, gzipped (zlib level 9) and served: the build's brotli copy, which the
 * gateway sends to a browser that accepts br (the raw file when the build wrote none).
 * Walking from index.html skips the older builds' chunks dist keeps for 30 minutes.
 * Prints a table, a one-line summary and a JSON line.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { printTable, round } from './browser.ts';

const { values } = parseArgs({ options: { 'no-build': { type: 'boolean', default: false } } });
const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = path.join(ROOT, 'dashboard/dist');
const ASSETS = path.join(DIST, 'assets');

if (!values['no-build']) execFileSync(process.execPath, [path.join(ROOT, 'dashboard/build.ts')], { cwd: ROOT, stdio: 'inherit' });

const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
const mainJs = /src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
const mainCss = /href="\/assets\/([^"]+\.css)"/.exec(html)?.[1];
if (!mainJs) throw new Error('dashboard/dist/index.html names no main script: build the dashboard first');

const read = (file: string) => readFileSync(path.join(ASSETS, file));
const kb = (n: number) => round(n / 1024, 1);
const sizes = (file: string) => {
  const bytes = read(file);
  const br = path.join(ASSETS, `${file}.br`);
  return { raw: bytes.length, gz: gzipSync(bytes, { level: 9 }).length, served: existsSync(br) ? statSync(br).size : bytes.length };
};

/** esbuild's ESM output names its chunks by the public path: `from"/assets/chunk-X.js"` (or a bare import) and `import("/assets/chunk-X.js")`. */
function imports(file: string): { statics: string[]; dynamics: string[] } {
  const code = read(file).toString('utf8');
  const statics = new Set<string>();
  const dynamics = new Set<string>();
  for (const m of code.matchAll(/(?:from|import)\s*"(?:\.\/|\/assets\/)([\w.-]+\.js)"/g)) statics.add(m[1]!);
  for (const m of code.matchAll(/import\(\s*"(?:\.\/|\/assets\/)([\w.-]+\.js)"\s*\)/g)) dynamics.add(m[1]!);
  for (const d of dynamics) statics.delete(d);
  return { statics: [...statics], dynamics: [...dynamics] };
}

/** What a chunk holds (from its .map): the dashboard's source files, and the npm packages by their share of the bytes. */
function sourcesOf(file: string): { own: string[]; packages: string[] } {
  try {
    const map = JSON.parse(read(`${file}.map`).toString('utf8')) as { sources: string[]; sourcesContent?: Array<string | null> };
    const own = map.sources.filter((s) => !s.includes('node_modules/') && s.includes('src/')).map((s) => s.replace(/^.*?src\//, ''));
    const bytes = new Map<string, number>();
    map.sources.forEach((s, i) => {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s);
      if (m) bytes.set(m[1]!, (bytes.get(m[1]!) ?? 0) + (map.sourcesContent?.[i]?.length ?? 1));
    });
    return { own, packages: [...bytes].sort((a, b) => b[1] - a[1]).map(([name]) => name) };
  } catch {
    return { own: [], packages: [] };
  }
}

const startup = new Set<string>();
const lazyRoots = new Set<string>();
const walk = (file: string) => {
  if (startup.has(file)) return;
  startup.add(file);
  const { statics, dynamics } = imports(file);
  statics.forEach(walk);
  dynamics.forEach((d) => lazyRoots.add(d));
};
walk(mainJs);

// A lazy chunk's own static imports that are not in the startup set load with it (shared by several screens).
const lazy = new Map<string, Set<string>>();
const lazyWalk = (file: string, root: string) => {
  if (startup.has(file)) return;
  const owners = lazy.get(file) ?? new Set<string>();
  if (owners.has(root)) return;
  owners.add(root);
  lazy.set(file, owners);
  const { statics, dynamics } = imports(file);
  statics.forEach((s) => lazyWalk(s, root));
  dynamics.forEach((d) => lazyWalk(d, d));
};
for (const root of lazyRoots) lazyWalk(root, root);

const startupRows = [...startup].map((f) => ({ file: f, ...sizes(f) }));
if (mainCss) startupRows.push({ file: mainCss, ...sizes(mainCss) });
const startupJs = startupRows.filter((r) => r.file.endsWith('.js'));
const total = startupRows.reduce((s, r) => ({ raw: s.raw + r.raw, gz: s.gz + r.gz, served: s.served + r.served }), { raw: 0, gz: 0, served: 0 });
const jsGz = startupJs.reduce((s, r) => s + r.gz, 0);
const cssGz = startupRows.filter((r) => r.file.endsWith('.css')).reduce((s, r) => s + r.gz, 0);

const isScreen = (source: string) => /\/pages\/[^/]+\.tsx$/.test(source);
const describe = (file: string) => {
  const { own, packages } = sourcesOf(file);
  const pages = own.filter(isScreen);
  const named = pages.length ? pages : own.length ? own : packages;
  if (named.length === 0) return '';
  const shown = named.slice(0, 2).join(', ');
  return named.length > 2 ? `${shown} +${named.length - 2}` : shown;
};
/** Screens (features/<f>/pages/*.tsx) bundled into the startup files: each should be a lazy chunk of its own. */
const eagerScreens = [...startup].flatMap((f) => sourcesOf(f).own.filter(isScreen));
const lazyRows = [...lazy.keys()].map((f) => ({ file: f, ...sizes(f), holds: describe(f), shared: lazy.get(f)!.size }));
lazyRows.sort((a, b) => b.gz - a.gz);

printTable(
  ['startup file', 'raw KB', 'gzip KB', 'served KB', 'holds'],
  [...startupRows.map((r) => [r.file, kb(r.raw), kb(r.gz), kb(r.served), r.file === mainJs ? 'entry' : r.file.endsWith('.css') ? 'styles' : describe(r.file)]), ['total', kb(total.raw), kb(total.gz), kb(total.served), '']],
);
process.stdout.write('\n');
printTable(
  ['lazy chunk', 'raw KB', 'gzip KB', 'loaded by', 'holds'],
  lazyRows.map((r) => [r.file, kb(r.raw), kb(r.gz), r.shared > 1 ? `${r.shared} screens` : 'one screen', r.holds]),
);
const lazyGz = lazyRows.reduce((s, r) => s + r.gz, 0);
process.stdout.write(
  `\nsummary: startup ${kb(total.gz)} KB gzip (JS ${kb(jsGz)} + CSS ${kb(cssGz)}; ${kb(total.raw)} KB raw, ${kb(total.served)} KB served with br, ${startupRows.length} files) ; ${lazyRows.length} lazy chunks, ${kb(lazyGz)} KB gzip; ${eagerScreens.length ? `screens in the startup files: ${eagerScreens.join(', ')}` : 'every screen under features/*/pages is lazy'}\n`,
);
process.stdout.write(
  `JSON ${JSON.stringify({ bench: 'ui-bundle', startupGzKB: kb(total.gz), startupJsGzKB: kb(jsGz), startupCssGzKB: kb(cssGz), startupRawKB: kb(total.raw), startupServedKB: kb(total.served), startupFiles: startupRows.length, eagerScreens, lazyChunks: lazyRows.map((r) => ({ file: r.file, gzKB: kb(r.gz), holds: r.holds })) })}\n`,
);
