/**
 * Builds the dashboard into dashboard/dist: index.html, hashed JS/CSS chunks and Blueprint's icon
 * fonts. `node dashboard/build.ts` builds once; `--watch` rebuilds on change; `--dev` skips minifying
 * (readable profiles).
 *
 * The page loads no inline script: the gateway's CSP is `script-src 'self'`. A production build also writes brotli and
 * gzip copies of the text assets (precompress), which the gateway sends to browsers that accept them.
 */
import { build, context, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { access, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const ROOT = import.meta.dirname;
const OUT = path.join(ROOT, 'dist');
const ASSETS = 'assets';
/** How long an older build's chunks are kept beside a new build (pages opened before it lazy-load them). */
const STALE_MS = 30 * 60_000;

/** Files worth compressing (woff/woff2 and pictures are compressed already; source maps only a debugger reads). */
const COMPRESSIBLE = /\.(js|css|svg|ttf|eot|txt)$/;
const ENCODINGS = [
  { suffix: '.br', encode: promisify(brotliCompress), options: { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } } },
  { suffix: '.gz', encode: promisify(gzip), options: { level: 9 } },
] as const;

/**
 * Writes `<file>.br` and `<file>.gz` beside each compressible file of `dir` (the gateway serves them to browsers that
 * accept them: @fastify/static `preCompressed`). Names are content hashes, so an existing one is current and kept.
 * A compressed copy no smaller than the file is not written. → how many files were compressed now.
 */
export async function precompress(dir: string, files: Iterable<string>): Promise<number> {
  const exists = (p: string) => access(p).then(() => true, () => false);
  const jobs: Promise<boolean>[] = [];
  for (const file of files) {
    if (!COMPRESSIBLE.test(file)) continue;
    const full = path.join(dir, file);
    jobs.push(
      (async () => {
        const missing = [];
        for (const encoding of ENCODINGS) if (!(await exists(full + encoding.suffix))) missing.push(encoding);
        if (missing.length === 0) return false;
        const raw = await readFile(full);
        const wrote = await Promise.all(
          missing.map(async ({ suffix, encode, options }) => {
            const packed = await encode(raw, options);
            if (packed.length >= raw.length) return false;
            await writeFile(`${full}${suffix}.tmp`, packed);
            await rename(`${full}${suffix}.tmp`, full + suffix);
            return true;
          }),
        );
        return wrote.some(Boolean);
      })(),
    );
  }
  return (await Promise.all(jobs)).filter(Boolean).length;
}

/**
 * Blueprint's icons barrel re-exports `allPaths` (every icon's SVG paths, ~600 KB raw / 200 KB gzip), which pulls them
 * into the first page although Blueprint loads the paths it draws on demand (`Icons.load`). Nothing here or in
 * @blueprintjs/core/table imports IconSvgPaths16/20 or getIconPaths, so the barrel is loaded without that line.
 */
function iconsWithoutAllPaths(): Plugin {
  return {
    name: 'blueprint-icons-without-all-paths',
    setup(b) {
      b.onLoad({ filter: /@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/]index\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const contents = source.replace(/^export \{[^}]*\} from "\.\/allPaths";$/m, '');
        if (contents === source) throw new Error(`@blueprintjs/icons changed: no allPaths export in ${args.path}`);
        return { contents, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

const options: BuildOptions = {
  absWorkingDir: ROOT,
  entryPoints: { main: 'src/main.tsx' },
  bundle: true,
  // Splitting lets Blueprint's icon paths load lazily instead of bloating the first page.
  splitting: true,
  format: 'esm',
  target: ['chrome110', 'firefox110', 'safari16'],
  outdir: path.join(OUT, ASSETS),
  publicPath: `/${ASSETS}`,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  assetNames: '[name]-[hash]',
  jsx: 'automatic',
  minify: !process.argv.includes('--dev'),
  sourcemap: 'linked',
  metafile: true,
  legalComments: 'linked',
  loader: { '.woff': 'file', '.woff2': 'file', '.ttf': 'file', '.eot': 'file', '.svg': 'file', '.png': 'file', '.jpg': 'file' },
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
  plugins: [iconsWithoutAllPaths()],
};

const page = (js: string, css: string | undefined): string => `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Tagsonic</title>
<link rel="icon" href="data:,">
${css ? `<link rel="stylesheet" href="/${ASSETS}/${css}">\n` : ''}<script type="module" src="/${ASSETS}/${js}"></script>
</head>
<body>
<div id="root"></div>
</body>
</html>
`;

/** Writes index.html for the build's entry files and removes files an older build left behind. */
async function finish(metafile: Metafile, compress: boolean): Promise<{ js: string; css?: string; files: number }> {
  const outputs = Object.entries(metafile.outputs);
  const entry = outputs.find(([, o]) => o.entryPoint !== undefined && o.entryPoint.endsWith('main.tsx'));
  if (!entry) throw new Error('esbuild produced no output for src/main.tsx');
  const js = path.basename(entry[0]);
  const css = entry[1].cssBundle ? path.basename(entry[1].cssBundle) : undefined;
  await writeFile(path.join(OUT, 'index.html'), page(js, css));
  // Deleting stale files only after the new ones exist keeps a running server's page loadable; files of a build
  // from the last STALE_MS stay too, so a page opened before this build can still load its lazy chunks.
  const fresh = new Set(outputs.map(([file]) => path.basename(file)));
  const assetDir = path.join(OUT, ASSETS);
  if (compress) await precompress(assetDir, fresh);
  const cutoff = Date.now() - STALE_MS;
  for (const file of await readdir(assetDir)) {
    // A compressed copy goes with its file.
    if (fresh.has(file.replace(/\.(br|gz)$/, ''))) continue;
    const st = await stat(path.join(assetDir, file)).catch(() => null);
    if (st && st.mtimeMs < cutoff) await rm(path.join(assetDir, file), { force: true });
  }
  return { js, css, files: fresh.size };
}

/** One production build of the dashboard; returns what it wrote and how long it took. */
export async function buildDashboard(): Promise<{ js: string; css?: string; files: number; ms: number }> {
  const started = performance.now();
  await mkdir(path.join(OUT, ASSETS), { recursive: true });
  const result = await build(options);
  return { ...(await finish(result.metafile!, true)), ms: Math.round(performance.now() - started) };
}

if (import.meta.main) {
  if (process.argv.includes('--watch')) {
    await mkdir(path.join(OUT, ASSETS), { recursive: true });
    const ctx = await context({
      ...options,
      minify: false,
      plugins: [
        {
          name: 'index-html',
          setup(b) {
            b.onEnd(async (result) => {
              if (result.errors.length > 0 || !result.metafile) return;
              const out = await finish(result.metafile, false);
              process.stdout.write(`[dashboard] rebuilt ${out.js}\n`);
            });
          },
        },
      ],
    });
    await ctx.watch();
    process.stdout.write('[dashboard] watching dashboard/src\n');
  } else {
    const out = await buildDashboard();
    process.stdout.write(`[dashboard] built ${out.files} files into dashboard/dist in ${out.ms} ms (${out.js})\n`);
  }
}
