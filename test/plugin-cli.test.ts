/**
 * The plugin author's CLI (`tagsonic plugin new|test|pack|install`) on real folders: scaffolds that pass the
 * strict manifest validator and run; `plugin test` through the real bundler, loadPlugin, sandbox and guarded
 * http against a local API (TAGSONIC_SOURCE_URL_<ID>), and a batch action writing a real file's tags; packages
 * the registry's reader accepts; an upload to a real, listening server signed in as an administrator.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPluginPackage } from '@tagsonic/core/plugins';
import { validateManifest } from '@tagsonic/sdk';
import { plugin, type Io } from '../cli/src/commands/plugin.ts';
import { runPluginTest, type PluginTestReport } from '../cli/src/commands/plugin-test.ts';
import { bundlePlugin } from '../cli/src/commands/plugin-bundle.ts';
import { builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import { ADMIN_PASSWORD, USER_PASSWORD, startHarness, type Harness } from './api-harness.ts';
import { makeAudio, probeTags } from './support/audio.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');

/** Captures what a subcommand prints. */
function io(): Io & { text(): string; errors(): string } {
  let out = '';
  let err = '';
  return { out: { write: (t: string) => (out += t) }, err: { write: (t: string) => (err += t) }, text: () => out, errors: () => err };
}

let dir: string;
/** A stand-in for the service the scaffold's tag source calls: GET /search → { data: [...] }. */
let api: Server;
let apiUrl: string;
const seen: string[] = [];
let failing = false;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-plugin-cli-'));
  api = createServer((req, res) => {
    seen.push(req.url!);
    if (failing) return void res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 7, title: 'Yesterday', artist: 'The Beatles', album: 'Help!', cover: 'https://img.example.com/7.jpg', duration: 125 }] }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => api.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('plugin new', () => {
  it('scaffolds a tag source and a batch action whose manifests pass the strict validator', async () => {
    for (const kind of ['tag-source', 'batch-action'] as const) {
      const target = path.join(dir, `new-${kind}`);
      const out = io();
      expect(await plugin(['new', kind, target], out)).toBe(0);
      expect(out.text().trim().split('\n').map((f) => path.relative(target, f)).sort()).toEqual(['README.md', 'fixture.json', 'manifest.json', 'src/index.ts', 'tsconfig.json']);
      const manifest = JSON.parse(await readFile(path.join(target, 'manifest.json'), 'utf8'));
      expect(validateManifest(manifest)).toMatchObject({ ok: true });
      expect(manifest).toMatchObject({ id: `new-${kind}`, kind, version: '0.1.0', $schema: expect.stringMatching(/manifest\.schema\.json$/) });
      const code = await readFile(path.join(target, 'src/index.ts'), 'utf8');
      expect(code).toContain(kind === 'tag-source' ? 'defineTagSource<Grants>' : 'defineBatchAction<Grants>');
      expect(code).toContain("from '@tagsonic/sdk'");
    }
  });

  it('typechecks the scaffold against the SDK', async () => {
    const target = path.join(dir, 'typed');
    await plugin(['new', 'batch-action', target, '--id', 'typed_one'], io());
    expect(JSON.parse(await readFile(path.join(target, 'manifest.json'), 'utf8')).id).toBe('typed_one');
    await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(target, 'tsconfig.json'), '--noEmit']);
  }, 60_000);

  it('refuses a folder that is not empty, leaving its files alone', async () => {
    const target = path.join(dir, 'busy');
    await mkdir(target);
    await writeFile(path.join(target, 'notes.txt'), 'mine');
    await expect(plugin(['new', 'tag-source', target], io())).rejects.toThrow(/is not empty/);
    expect(await readFile(path.join(target, 'notes.txt'), 'utf8')).toBe('mine');
    await expect(plugin(['new', 'tag-source', path.join(target, 'notes.txt')], io())).rejects.toThrow(/is a file/);
    await expect(plugin(['new', 'source', path.join(dir, 'x')], io())).rejects.toThrow(/usage: tagsonic plugin new/);
  });
});

describe('plugin test', () => {
  let source: string;
  beforeAll(async () => {
    source = path.join(dir, 'my-source');
    await plugin(['new', 'tag-source', source], io());
  });

  it('runs search in the sandbox against the base URL override, printing the result, the requests and the log', async () => {
    const out = io();
    const env = { ...process.env, TAGSONIC_SOURCE_URL_MY_SOURCE: apiUrl };
    const report = await runPluginTest(source, { env });
    expect(report.ok).toBe(true);
    expect(report.result).toEqual([{ id: '7', name: 'Yesterday', artist: 'The Beatles', album: 'Help!', album_img: 'https://img.example.com/7.jpg', year: null, tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: 125, resource: 'my-source' }]);
    expect(report.http).toEqual([{ method: 'GET', url: `${apiUrl}/search?q=Yesterday+The+Beatles&limit=5`, status: 200, ms: expect.any(Number) }]);
    expect(report.logs).toMatchObject([{ level: 'info', message: 'search', fields: { title: 'Yesterday', results: 1 } }]);

    process.env.TAGSONIC_SOURCE_URL_MY_SOURCE = apiUrl;
    try {
      expect(await plugin(['test', source, '--export', 'search'], out)).toBe(0);
    } finally {
      delete process.env.TAGSONIC_SOURCE_URL_MY_SOURCE;
    }
    expect(out.text()).toContain(`GET ${apiUrl}/search?q=Yesterday+The+Beatles&limit=5 → 200`);
    expect(out.text()).toContain('info  search {"title":"Yesterday","results":1}');
    expect(out.text()).toContain('"name": "Yesterday"');
  });

  it('fails with the plugin error\'s code and message and exit code 1 (the real command)', async () => {
    failing = true;
    try {
      const child = run(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), 'plugin', 'test', source], { env: { ...process.env, TAGSONIC_SOURCE_URL_MY_SOURCE: apiUrl } });
      const error = await child.then(() => null, (e: { code: number; stdout: string; stderr: string }) => e);
      expect(error?.code).toBe(1);
      expect(error?.stdout).toContain(`GET ${apiUrl}/search?q=Yesterday+The+Beatles&limit=5 → 503`);
      expect(error?.stderr).toBe('failed: TAGSONIC_ERR_PLUGIN_UPSTREAM: The service answered HTTP 503.\n');
    } finally {
      failing = false;
    }
  }, 30_000);

  it('honours the grants: without the override, a loopback URL is refused by the guarded http', async () => {
    const fixture = path.join(dir, 'loopback.json');
    await writeFile(fixture, JSON.stringify({ search: { title: 'Yesterday', artist: '', album: '', limit: 1 }, settings: { config: {} } }));
    // The plugin reaches api.example.com only; pointing its own URL at the local API is not a grant.
    const code = (await readFile(path.join(source, 'src/index.ts'), 'utf8')).replace("'https://api.example.com'", `'${apiUrl}'`);
    const copy = path.join(dir, 'loopback-source');
    await plugin(['new', 'tag-source', copy], io());
    await writeFile(path.join(copy, 'src/index.ts'), code);
    const report = await runPluginTest(copy, { fixture, env: {} });
    expect(report).toMatchObject({ ok: false, error: { code: 'TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED' } });
  });

  it('runs a batch action as a task would (host expansion, then runItem per file) on real files through the journaled tag engine', async () => {
    const action = path.join(dir, 'tidy');
    await plugin(['new', 'batch-action', action], io());
    const media = path.join(dir, 'media');
    await mkdir(path.join(media, 'Album', 'CD2'), { recursive: true });
    await makeAudio(path.join(media, 'Album', '01 Track.flac'), { seconds: 1, tags: { title: '  Hello   World ' } });
    await makeAudio(path.join(media, 'Album', 'CD2', '02 Clean.mp3'), { seconds: 1, tags: { title: 'Clean' } });
    await writeFile(path.join(media, 'Album', 'notes.txt'), 'not audio');
    await writeFile(path.join(action, 'fixture.json'), JSON.stringify({ run: { paths: ['Album'], options: {} } }));
    const out = io();
    expect(await plugin(['test', action, '--media', media, '--json'], out)).toBe(0);
    const report = JSON.parse(out.text()) as PluginTestReport;
    const real = await realpath(media);
    expect(report.result).toEqual({
      items: [
        { key: path.join(real, 'Album/01 Track.flac'), paths: [path.join(real, 'Album/01 Track.flac')], status: 'success',
          changes: [{ path: path.join(real, 'Album/01 Track.flac'), kind: 'tags', field: 'title', before: '  Hello   World ', after: 'Hello World' }] },
        { key: path.join(real, 'Album/CD2/02 Clean.mp3'), paths: [path.join(real, 'Album/CD2/02 Clean.mp3')], status: 'skip', reason: 'already clean' },
      ],
      counts: { success: 1, skip: 1, fail: 0, miss: 0 },
    });
    expect(report.progress.at(-1)).toEqual({ done: 2, total: 2, message: path.join(real, 'Album/CD2/02 Clean.mp3') });
    expect(out.errors()).toBe(`note: tidy may change tags under ${media}; those changes are real, and this run's journal (what could undo them) is discarded\n`);
    expect((await probeTags(path.join(media, 'Album', '01 Track.flac'))).title).toBe('Hello World');
  }, 30_000);

  it('a batch action\'s dry run writes nothing, and one export can be called as is', async () => {
    const action = path.join(dir, 'tidy');
    const media = path.join(dir, 'media');
    await makeAudio(path.join(media, 'Album', '03 Dry.mp3'), { seconds: 1, tags: { title: 'Dry  Run' } });
    await writeFile(path.join(action, 'fixture.json'), JSON.stringify({
      run: { paths: ['Album/03 Dry.mp3'], options: {}, dry_run: true },
      runItem: { item: { key: 'x', paths: ['Album/03 Dry.mp3'] }, options: {}, dryRun: true, taskId: 't' },
    }));
    const dry = await runPluginTest(action, { media });
    expect(dry.result).toMatchObject({ items: [{ status: 'success', changes: [{ before: 'Dry  Run', after: 'Dry Run' }] }], counts: { success: 1 } });
    const one = await runPluginTest(action, { media, exportName: 'runItem' });
    expect(one.result).toMatchObject({ status: 'success', changes: [{ field: 'title', after: 'Dry Run' }] });
    expect((await probeTags(path.join(media, 'Album', '03 Dry.mp3'))).title).toBe('Dry  Run');
  }, 30_000);
});

describe('plugin pack', () => {
  it('bundles a plugin folder byte for byte as the server bundles a built-in (one bundling, two callers)', async () => {
    for (const id of ['lrclib', 'itunes']) expect(await bundlePlugin(path.join(ROOT, 'plugins', id))).toBe((await builtinPlugin(id)).code);
  });

  let source: string;
  beforeAll(async () => {
    source = path.join(dir, 'packed');
    await plugin(['new', 'tag-source', source], io());
  });

  it('writes a zip and a single script the registry\'s reader accepts', async () => {
    const zipOut = io();
    expect(await plugin(['pack', source], zipOut)).toBe(0);
    const zip = path.join(source, 'dist', 'packed-0.1.0.zip');
    expect(zipOut.text()).toBe(`${zip}\n`);
    const fromZip = await readPluginPackage(await readFile(zip), 'packed-0.1.0.zip');
    expect(fromZip.manifest).toMatchObject({ id: 'packed', version: '0.1.0', entry: 'index.js' });
    expect(fromZip.code).toContain('api.example.com');

    const js = path.join(dir, 'out', 'packed.js');
    expect(await plugin(['pack', source, '--js', '-o', js], io())).toBe(0);
    const text = await readFile(js, 'utf8');
    expect(text.startsWith('/* @tagsonic-manifest {"id":"packed"')).toBe(true);
    const fromJs = await readPluginPackage(Buffer.from(text), 'packed.js');
    // The same manifest, less the author's local `$schema` path.
    const { $schema, ...shipped } = fromZip.manifest;
    expect($schema).toMatch(/manifest\.schema\.json$/);
    expect(fromJs.manifest).toEqual(shipped);
  });

  it('keeps a manifest whose text holds */ intact in the --js comment', async () => {
    const manifestFile = path.join(source, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    await writeFile(manifestFile, JSON.stringify({ ...manifest, description: 'Covers */ and tags.' }));
    try {
      const js = path.join(dir, 'out', 'comment.js');
      await plugin(['pack', source, '--js', '-o', js], io());
      expect((await readPluginPackage(await readFile(js), 'comment.js')).manifest.description).toBe('Covers */ and tags.');
    } finally {
      await writeFile(manifestFile, JSON.stringify(manifest));
    }
  });

  it('refuses an invalid manifest with every problem by its path, writing nothing', async () => {
    const broken = path.join(dir, 'broken');
    await plugin(['new', 'tag-source', broken], io());
    const manifest = JSON.parse(await readFile(path.join(broken, 'manifest.json'), 'utf8'));
    manifest.kind = 'source';
    manifest.permissions.http.hosts[0].host = 'https://api.example.com';
    await writeFile(path.join(broken, 'manifest.json'), JSON.stringify(manifest));
    const error = await plugin(['pack', broken], io()).catch((e: Error & { code: string }) => e);
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_MANIFEST_INVALID' });
    expect((error as Error).message).toContain('kind: must be "tag-source" or "batch-action", got "source"');
    expect((error as Error).message).toContain('permissions.http.hosts[0].host: must be a lowercase host name');
    await expect(readFile(path.join(broken, 'dist', 'broken-0.1.0.zip'))).rejects.toThrow(/ENOENT/);
  });

  it('names the file and line of a build error', async () => {
    const bad = path.join(dir, 'bad-build');
    await plugin(['new', 'tag-source', bad], io());
    await writeFile(path.join(bad, 'src/index.ts'), 'export default {\n  search( {\n};\n');
    await expect(plugin(['pack', bad], io())).rejects.toThrow(/does not build: .*src\/index\.ts:3:/);
  });
});

describe('plugin install', () => {
  let h: Harness;
  let url: string;
  let zip: string;
  beforeAll(async () => {
    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    const source = path.join(dir, 'uploaded');
    await plugin(['new', 'tag-source', source], io());
    await plugin(['pack', source], io());
    zip = path.join(source, 'dist', 'uploaded-0.1.0.zip');
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('signs in as an administrator and uploads; the plugin arrives disabled', async () => {
    const out = io();
    await expect(plugin(['install', zip, '--url', url, '--user', 'admin'], out)).rejects.toThrow(/no password: pass --password or set TAGSONIC_PASSWORD/);
    expect(await plugin(['install', zip, '--url', url, '--user', 'admin', '--password', ADMIN_PASSWORD], out)).toBe(0);
    expect(out.text()).toBe('installed uploaded 0.1.0 (Uploaded)\n');
    expect(out.errors()).toContain('uploaded is disabled until an administrator enables it on /mod');
    expect(await h.rt.plugins.get('uploaded')).toMatchObject({ enabled: false, activeVersion: '0.1.0' });
  });

  it('prints the server\'s message: wrong password, not an administrator, a refused package', async () => {
    const wrong = io();
    expect(await plugin(['install', zip, '--url', url, '--password', 'nope'], wrong)).toBe(1);
    expect(wrong.errors()).toMatch(/^\/apimt\/token\/: .+ \(TAGSONIC_ERR_AUTH_BAD_CREDENTIALS\)\n$/);

    const alice = io();
    expect(await plugin(['install', zip, '--url', url, '--user', 'alice', '--password', USER_PASSWORD], alice)).toBe(1);
    expect(alice.errors()).toContain('(TAGSONIC_ERR_AUTH_ADMIN_ONLY)');

    const junk = path.join(dir, 'junk.js');
    await writeFile(junk, 'module.exports = {};');
    const refused = io();
    process.env.TAGSONIC_PASSWORD = ADMIN_PASSWORD;
    try {
      expect(await plugin(['install', junk, '--url', url], refused)).toBe(1);
    } finally {
      delete process.env.TAGSONIC_PASSWORD;
    }
    expect(refused.errors()).toContain('(TAGSONIC_ERR_PLUGIN_PACKAGE_NO_MANIFEST)');
  });

  it('runs every command of the tutorial in sdk/README.md as written (HOME a scratch folder, the local URLs ours)', async () => {
    const readme = await readFile(path.join(ROOT, 'sdk/README.md'), 'utf8');
    const tutorial = readme.slice(readme.indexOf('## Five minutes'), readme.indexOf('\n## ', readme.indexOf('## Five minutes') + 1));
    const commands = [...tutorial.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n')).map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
    expect(commands.map((c) => /\.\/run plugin (\w+)/.exec(c)?.[1])).toEqual(['new', 'test', 'test', 'pack', 'pack', 'install']);
    const home = path.join(dir, 'tutorial-home');
    await mkdir(home);
    for (const command of commands) {
      const line = command
        .replace('./run ', `"${process.execPath}" --no-node-snapshot "${path.join(ROOT, 'cli/src/main.ts')}" `)
        .replace('http://127.0.0.1:8080', apiUrl)
        .replace('http://localhost:8002', url)
        .replace('TAGSONIC_PASSWORD=…', `TAGSONIC_PASSWORD=${ADMIN_PASSWORD}`);
      const result = await run('bash', ['-c', line], { cwd: ROOT, env: { ...process.env, HOME: home } }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
      // The scaffold's own host (api.example.com) does not resolve here: that run must fail in the sandbox's http, nothing else.
      if (command.startsWith('./run plugin test') && !command.includes('TAGSONIC_SOURCE_URL')) expect(result.stderr, command).toMatch(/^(failed: TAGSONIC_ERR_PLUGIN_HTTP_\w+: .*\n)?$/);
      else expect(result.code, `${command}\n${result.stderr}`).toBe(0);
    }
    expect(await h.rt.plugins.get('my-source')).toMatchObject({ enabled: false, activeVersion: '0.1.0' });
    expect((await readFile(path.join(home, 'my-source.js'), 'utf8')).startsWith('/* @tagsonic-manifest {"id":"my-source"')).toBe(true);
  }, 60_000);
});
