/**
 * What following edits costs a batch edit, and how soon the library shows it (workers/src/scanner/follow-edits.ts).
 *   node --no-node-snapshot bench/scan/follow-edits.ts [--files 10000] [--follow on|off]
 * The real server in embedded mode (as bench/tasks/server.ts starts it) over the 10k library hard-linked into the
 * media folder and scanned once; then the batch edit of bench/tasks/edit.ts (replace_text, regex `^(.+)$` → `$1 ·b`
 * on the title, every titled file changes), timed from the POST to the task's end. `--follow on` gives the worker
 * its scanner (so it follows edits, as `tagsonic start` runs it) and also times until the library lists every new
 * title, counting the library revisions the follower made; `off` runs the worker without one (the library learns
 * nothing until a scan). Run each mode in its own process, one after the other, to compare.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@tagsonic/core/config';
import type { Manifest } from '@tagsonic/sdk';
import { buildApp } from '@tagsonic/gateway';
import { startWorker } from '@tagsonic/workers';
import { Scanner } from '@tagsonic/workers/scanner';
import { builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import { gatewayDeps, openRuntime } from '@tagsonic/cli';
import { library, linkLibrary, load, log, round, timed } from '../tasks/server.ts';

const { values } = parseArgs({ options: { files: { type: 'string', default: '10000' }, follow: { type: 'string', default: 'on' } } });
const files = Number(values.files);
const follow = values.follow !== 'off';
const SUFFIX = ' ·b';
const PASSWORD = 'bench-admin-password';

const lib = await library();
const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-bench-follow-'));
const rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
await rt.users.ensureAdmin(PASSWORD);
const { manifest, code } = await builtinPlugin('replace-text');
await rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
const media = rt.roots.root('media').dir;
const linked = await linkLibrary(lib, path.join(media, 'edit'), files);
const scanner = new Scanner({ roots: rt.roots, library: rt.library.store, catalog: rt.library.catalog, bus: rt.bus });
log(`scanning ${linked.length} files …`);
const scan = await scanner.scan();
log(`scanned: ${scan.added} tracks in ${round(scan.durationMs / 1000)} s`);
const worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: rt.config.workerConcurrency,
  ...(follow ? { scanner } : {}), plugins: { registry: rt.plugins, store: rt.store } });
const app = await buildApp(gatewayDeps(rt, { buildId: 'bench', dashboardDir: path.join(home, 'no-dashboard') }));
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const token = await fetch(`${base}/apimt/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: PASSWORD }) })
  .then(async (res) => ((await res.json()) as { token: string }).token);

const withSuffix = async () => {
  await rt.library.catalog.sync();
  let n = 0;
  for (const t of rt.library.catalog.tracks.values()) if (t.title?.endsWith(SUFFIX)) n++;
  return n;
};
const revBefore = rt.library.catalog.revision;
const loadBefore = load();
let taskId = '';
let counts: Record<string, number> = {};
const started = Date.now();
const engine = await timed(async () => {
  const res = await fetch(`${base}/apimt/replace_text/`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `jwt ${token}` },
    body: JSON.stringify({ file_full_path: media, select_data: ['edit'], replace_mode: 'regex', replace_text_list: [{ before: '^(.+)$', after: `$1${SUFFIX}` }], modify_list: ['title'] }) });
  taskId = ((await res.json()) as { data: { task_id: string } }).data.task_id;
  for (;;) {
    const task = await rt.tasks.get(taskId);
    if (task.status !== 'running') {
      counts = task.counts as unknown as Record<string, number>;
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
});
const taskEnded = Date.now();
const row: Record<string, unknown> = {
  follow, files: linked.length, load: [loadBefore, load()],
  engine: { seconds: round(engine.seconds), itemsPerSec: Math.round(linked.length / engine.seconds), cpuMsPerItem: round(engine.cpuMs / linked.length), counts },
};
if (follow) {
  const want = counts.success ?? 0;
  for (;;) {
    if ((await withSuffix()) >= want) break;
    if (Date.now() - taskEnded > 300_000) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  row.library = { listed: await withSuffix(), of: want, secondsAfterTaskEnd: round((Date.now() - taskEnded) / 1000), secondsFromPost: round((Date.now() - started) / 1000), revisions: rt.library.catalog.revision - revBefore };
}
console.log(JSON.stringify(row));
await app.close();
await worker.close();
await rt.close();
await rm(home, { recursive: true, force: true });
