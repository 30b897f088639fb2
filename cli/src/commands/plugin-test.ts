/**
 * `tagsonic plugin test <dir> [--fixture f.json] [--export name] [--media DIR]`: runs one export of a plugin
 * being written exactly as a worker would — bundled like a built-in, loaded by `loadPlugin` (the manifest check,
 * the isolated-vm sandbox, the capabilities its grants give and nothing else, the guarded http with
 * `TAGSONIC_SOURCE_URL_<ID>` honoured) — and prints the result and what the plugin did to get it: each HTTP
 * request (method, URL, status, time), its log lines and progress reports. A failure prints the error's code and
 * message, the ones the /mod screen would show, and the exit code is 1.
 *
 * The fixture is a JSON object: the options of each export by name (`{ "search": { "title": … } }`), and
 * optionally `settings` (`{ "base_url"?, "config"? }`, what the administrator would set on /mod). Files and
 * tags are confined to `--media` (default: the current folder); tag writes go through the real journaled tag
 * engine on a scratch store, so they are real writes to those files.
 *
 * A batch action's default export name, `run`, is not a plugin export but the task a worker would run:
 * `"run": { "paths": [...], "options": {...}, "dry_run"?: true }` → the plugin's `plan` (or the host's default
 * expansion: one item per audio file, folders walked) → `runItem` for each item, one after another, with a
 * failing item reported and the next one run. `--export plan` or `--export runItem` call one export as is.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore } from '@tagsonic/core/store';
import { createTagJournal } from '@tagsonic/core/tags';
import { expandSelection } from '@tagsonic/core/tasks';
import { loadPlugin, type LoadedPlugin, type PluginLogEntry } from '@tagsonic/workers/plugin-runtime';
import { CliError } from '../cli-error.ts';
import { bundlePlugin, readPluginSource } from './plugin-bundle.ts';
import type { Io } from './plugin-io.ts';

export const TEST_USAGE = `usage: tagsonic plugin test DIR [--fixture FILE] [--export NAME] [--media DIR] [--json]
  runs export NAME (default: search for a tag source; for a batch action, run: plan then runItem per item,
  as a task would) with FILE's options (default DIR/fixture.json); --media confines files and tags
  (default: the current folder)`;

/** One HTTP exchange the plugin made (each redirect hop is its own). */
export interface HttpCall {
  method: string;
  url: string;
  /** null when no answer came (refused, timed out, network error). */
  status: number | null;
  ms: number;
  error?: string;
}

export interface PluginTestReport {
  /** The plugin id. */
  source: string;
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
  http: HttpCall[];
  logs: PluginLogEntry[];
  progress: Array<{ done: number; total: number; message?: string }>;
  /** What the grants let the plugin change under the media folder (`tags`, `files`, `tags and files`), or null. */
  writes: string | null;
}

export async function pluginTest(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { fixture: { type: 'string' }, export: { type: 'string' }, media: { type: 'string' }, json: { type: 'boolean' } },
  });
  if (positionals.length !== 1) throw new CliError(TEST_USAGE);
  const dir = path.resolve(positionals[0]!);
  const report = await runPluginTest(dir, { fixture: values.fixture, exportName: values.export, media: values.media });
  if (report.writes) io.err.write(`note: ${report.source} may change ${report.writes}s under ${path.resolve(values.media ?? '.')}; those changes are real, and this run's journal (what could undo them) is discarded\n`);
  if (values.json) io.out.write(JSON.stringify(report, null, 2) + '\n');
  else printReport(report, io);
  return report.ok ? 0 : 1;
}

export async function runPluginTest(dir: string, options: { fixture?: string; exportName?: string; media?: string; env?: NodeJS.ProcessEnv } = {}): Promise<PluginTestReport> {
  const source = await readPluginSource(dir);
  const exportName = options.exportName ?? (source.manifest.kind === 'tag-source' ? 'search' : 'run');
  const fixture = await readFixture(options.fixture ? path.resolve(options.fixture) : path.join(dir, 'fixture.json'));
  if (!(exportName in fixture)) {
    throw new CliError(`the fixture has no options for "${exportName}"; add "${exportName}": { … } to it (it has: ${Object.keys(fixture).join(', ') || 'nothing'})`);
  }
  const settings = fixture.settings as { base_url?: string | null; config?: Record<string, unknown> } | undefined;
  const code = await bundlePlugin(dir);
  const { tags, files } = source.manifest.permissions;
  const writes = [tags?.access === 'write' && 'tag', files?.access === 'write' && 'file'].filter(Boolean).join(' and ') || null;

  const scratch = await mkdtemp(path.join(tmpdir(), 'tagsonic-plugin-test-'));
  const store = await openEmbeddedStore({ dir: path.join(scratch, 'store') });
  const progress: PluginTestReport['progress'] = [];
  const http = recordHttp();
  let plugin: LoadedPlugin | undefined;
  try {
    const host = {
      roots: await MediaRoots.open({ media: path.resolve(options.media ?? '.') }),
      journal: createTagJournal({ store, blobDir: path.join(scratch, 'blobs') }),
      store,
      progress: (p: { done: number; total: number; message?: string }) => void progress.push(p),
    };
    plugin = loadPlugin({
      manifest: JSON.parse(source.manifestText),
      code,
      env: options.env ?? process.env,
      settings: settings && { baseUrl: settings.base_url ?? null, config: settings.config },
      host,
    });
    try {
      const result = source.manifest.kind === 'batch-action' && exportName === 'run'
        ? await runBatch(plugin, host, fixture.run, (p) => void progress.push(p))
        : await plugin.invoke(exportName, fixture[exportName]);
      return { source: source.manifest.id, ok: true, result, http: http.calls, logs: plugin.logs(), progress, writes };
    } catch (error) {
      const e = error as { code?: unknown; message?: unknown };
      return { source: source.manifest.id, ok: false, error: { code: typeof e.code === 'string' ? e.code : 'TAGSONIC_ERR_PLUGIN_FAILED', message: String(e.message ?? error) }, http: http.calls, logs: plugin.logs(), progress, writes };
    }
  } finally {
    plugin?.close();
    http.stop();
    await store.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** One item's outcome in a batch action's `run`: the item and what `runItem` returned (or the error it threw). */
export interface BatchRunItem {
  key: string;
  paths: string[];
  status: string;
  reason?: string;
  changes?: unknown;
  report?: unknown;
}

/**
 * A batch action run as a task would run it, in this process: the items from the plugin's `plan`, or from the
 * host's default expansion when it has none, then `runItem` for each (a throw is that item's `fail`).
 */
async function runBatch(
  plugin: LoadedPlugin,
  host: { roots: MediaRoots },
  run: unknown,
  progress: (p: { done: number; total: number; message?: string }) => void,
): Promise<{ items: BatchRunItem[]; counts: Record<'success' | 'skip' | 'fail' | 'miss', number> }> {
  const input = (typeof run === 'object' && run !== null && !Array.isArray(run) ? run : {}) as { paths?: unknown; options?: unknown; dry_run?: unknown };
  if (!Array.isArray(input.paths) || !input.paths.every((p) => typeof p === 'string')) {
    throw new CliError('the fixture\'s "run" needs "paths": a list of files or folders inside --media, e.g. { "run": { "paths": ["Album"], "options": {}, "dry_run": true } }');
  }
  const paths = input.paths as string[];
  const options = (typeof input.options === 'object' && input.options !== null ? input.options : {}) as Record<string, unknown>;
  const dryRun = input.dry_run === true;
  let items: Array<{ key: string; paths: string[]; data?: unknown }>;
  try {
    items = ((await plugin.invoke('plan', { paths, options })) as { items: typeof items }).items;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'TAGSONIC_ERR_PLUGIN_NO_EXPORT') throw error;
    items = await expandSelection(host.roots, paths);
  }
  const results: BatchRunItem[] = [];
  const counts = { success: 0, skip: 0, fail: 0, miss: 0 };
  for (const [i, item] of items.entries()) {
    let outcome: Omit<BatchRunItem, 'key' | 'paths'>;
    try {
      outcome = (await plugin.invoke('runItem', { item, options, dryRun, taskId: 'plugin-test' })) as unknown as typeof outcome;
    } catch (error) {
      outcome = { status: 'fail', reason: String((error as Error).message ?? error) };
    }
    if (outcome.status in counts) counts[outcome.status as keyof typeof counts]++;
    results.push({ key: item.key, paths: item.paths, ...outcome });
    progress({ done: i + 1, total: items.length, message: item.key });
  }
  return { items: results, counts };
}

async function readFixture(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`no fixture at ${file}; pass one with --fixture (a JSON object of options by export name)`);
    throw error;
  }
  let fixture: unknown;
  try {
    fixture = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file} is not JSON: ${(error as Error).message}`);
  }
  if (typeof fixture !== 'object' || fixture === null || Array.isArray(fixture)) throw new CliError(`${file} must be a JSON object of options by export name, e.g. { "search": { "title": "Yesterday" } }`);
  return fixture as Record<string, unknown>;
}

/**
 * Records the HTTP exchanges node's http client makes while the plugin runs, from node's diagnostics channels
 * (the guarded client is node:http/https underneath), so the runtime needs no test hook. The command runs one
 * plugin in its own process: every client request in that window is the plugin's.
 */
function recordHttp(): { calls: HttpCall[]; stop(): void } {
  const calls: HttpCall[] = [];
  const open = new WeakMap<ClientRequest, HttpCall & { started: number }>();
  const url = (r: ClientRequest) => `${r.protocol}//${String(r.getHeader('host') ?? r.host)}${r.path}`;
  const finish = (request: ClientRequest, status: number | null, error?: string) => {
    const call = open.get(request);
    if (!call) return;
    open.delete(request);
    calls.push({ method: call.method, url: call.url, status, ms: Math.round(performance.now() - call.started), ...(error ? { error } : {}) });
  };
  const onStart = (message: unknown) => {
    const { request } = message as { request: ClientRequest };
    open.set(request, { method: request.method, url: url(request), status: null, ms: 0, started: performance.now() });
  };
  const onResponse = (message: unknown) => {
    const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
    finish(request, response.statusCode ?? null);
  };
  const onError = (message: unknown) => {
    const { request, error } = message as { request: ClientRequest; error: Error };
    finish(request, null, error.message);
  };
  subscribe('http.client.request.start', onStart);
  subscribe('http.client.response.finish', onResponse);
  subscribe('http.client.request.error', onError);
  return {
    calls,
    stop() {
      unsubscribe('http.client.request.start', onStart);
      unsubscribe('http.client.response.finish', onResponse);
      unsubscribe('http.client.request.error', onError);
    },
  };
}

function printReport(report: PluginTestReport, io: Io): void {
  const lines: string[] = [];
  if (report.http.length) {
    lines.push('http:');
    for (const c of report.http) lines.push(`  ${c.method} ${c.url} → ${c.status ?? c.error ?? 'no answer'} (${c.ms} ms)`);
  }
  if (report.logs.length) {
    lines.push('log:');
    for (const l of report.logs) lines.push(`  ${l.level.padEnd(5)} ${l.message}${l.fields ? ` ${JSON.stringify(l.fields)}` : ''}`);
  }
  if (report.progress.length) {
    const last = report.progress.at(-1)!;
    lines.push(`progress: ${last.done}/${last.total}${last.message ? ` ${last.message}` : ''} (${report.progress.length} reports)`);
  }
  if (report.ok) {
    lines.push('result:', JSON.stringify(report.result, null, 2));
    io.out.write(lines.join('\n') + '\n');
  } else {
    io.out.write(lines.length ? lines.join('\n') + '\n' : '');
    io.err.write(`failed: ${report.error!.code}: ${report.error!.message}\n`);
  }
}
