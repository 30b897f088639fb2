/**
 * Manual batch edit through the task engine vs the raw writer pool, on the same files in the same run.
 *   node --no-node-snapshot bench/tasks/edit.ts [--files 10000] [--rounds 2] [--worker-concurrency 4]
 * Engine: POST /apimt/replace_text/ (regex `^(.+)$` → `$1 ·b` on the title, so every titled file changes) over a
 * folder of the library hard-linked into the media folder; timed from the POST to the task's end: planning (the
 * default expansion), one bus command per file, the worker's items in flight (a tags plugin's: 16 per worker,
 * workers/src/action-lanes.ts; the covers they may hold are bounded by the sandbox's crossing budget), each a sandbox invocation of the
 * replace-text plugin reading the tags (on the worker's reader threads) and writing the title through the host's
 * journaled safe write (on its writer threads).
 * Peer: core/tags createTagWriterPool (the worker's writer pool, every core, 32 in flight) writing the same new
 * titles (known beforehand, from the library's manifest) journaled in the same store, on another link of the same
 * files. Each round alternates which goes first; before the first round both are warmed up (300 files each).
 * --worker-concurrency sets TAGSONIC_WORKER_CONCURRENCY (command concurrency per worker; default 4). The target is engine ÷ pool ≥ 0.8. Until batch_update_id3 has a route this uses replace_text.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createTagWriterPool } from '@tagsonic/core/tags';
import { inFlight, library, linkLibrary, load, log, round, startServer, timed } from './server.ts';

const { values } = parseArgs({ options: { files: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '2' }, 'worker-concurrency': { type: 'string' } } });
const files = Number(values.files);
const rounds = Number(values.rounds);
const SUFFIX = ' ·b';

const lib = await library();
const titles = new Map(lib.files.filter((f) => f.kind === 'audio').map((f) => [f.path, f.tags?.title]));
const server = await startServer(['replace-text'], { workerConcurrency: values['worker-concurrency'] ? Number(values['worker-concurrency']) : undefined });
const { media, rt } = server;
const writers = createTagWriterPool();

/** The replace_text task over one folder of the media; items/s from the POST to its end. */
async function engine(folder: string) {
  let task: Awaited<ReturnType<typeof server.finished>> | undefined;
  const t = await timed(async () => {
    const res = await server.post('replace_text', { file_full_path: media, select_data: [folder], replace_mode: 'regex',
      replace_text_list: [{ before: '^(.+)$', after: `$1${SUFFIX}` }], modify_list: ['title'] });
    task = await server.finished(res.data.task_id);
  });
  return { ...t, total: task!.total, counts: task!.counts, status: task!.status };
}

/** The same titles through the writer pool, journaled in the same store. */
async function pool(paths: string[], taskId: string) {
  let errors = 0;
  let written = 0;
  const todo = paths.filter((p) => titles.get(path.relative(path.dirname(path.dirname(path.dirname(p))), p).split(path.sep).join('/')));
  const t = await timed(() => inFlight(todo, 32, async (p) => {
    const rel = path.relative(path.dirname(path.dirname(path.dirname(p))), p).split(path.sep).join('/');
    await writers.write(p, { fields: { title: `${titles.get(rel)}${SUFFIX}` } }, { journal: rt.journal, actor: 'bench', taskId })
      .then(() => void written++, (e: unknown) => { if (errors++ < 3) log(`pool: ${p}: ${e instanceof Error ? e.message : String(e)}`); });
  }));
  return { ...t, total: todo.length, written, errors };
}

log(`warm-up (300 files each) …`);
const warmEngine = await linkLibrary(lib, path.join(media, 'warm-engine'), 300);
await engine('warm-engine');
const warmPool = await linkLibrary(lib, path.join(media, 'warm-pool'), 300);
await pool(warmPool, 'warm-pool');
await rm(path.join(media, 'warm-engine'), { recursive: true });
await rm(path.join(media, 'warm-pool'), { recursive: true });
void warmEngine;

const rows: Array<Record<string, unknown>> = [];
for (let r = 0; r < rounds; r++) {
  const enginePaths = await linkLibrary(lib, path.join(media, `engine-${r}`), files);
  const poolPaths = await linkLibrary(lib, path.join(media, `pool-${r}`), files);
  const order = r % 2 === 0 ? ['engine', 'pool'] : ['pool', 'engine'];
  const round_: Record<string, any> = { round: r + 1, order: order.join(' then '), files: enginePaths.length };
  for (const side of order) {
    log(`round ${r + 1}: ${side} on ${enginePaths.length} files …`);
    if (side === 'engine') {
      const e = await engine(`engine-${r}`);
      round_.engine = { items: e.total, seconds: round(e.seconds), itemsPerSec: Math.round(e.total / e.seconds), cpuMsPerItem: round(e.cpuMs / e.total), counts: e.counts, status: e.status };
    } else {
      const p = await pool(poolPaths, `pool-${r}`);
      round_.pool = { files: p.total, seconds: round(p.seconds), filesPerSec: Math.round(p.written / p.seconds), cpuMsPerFile: round(p.cpuMs / p.total), errors: p.errors };
    }
  }
  round_.ratio = round(round_.engine.itemsPerSec / round_.pool.filesPerSec);
  round_.load = load();
  rows.push(round_);
  await rm(path.join(media, `engine-${r}`), { recursive: true });
  await rm(path.join(media, `pool-${r}`), { recursive: true });
}

console.log('| round | order | files | engine items/s (s) | pool files/s (s) | engine ÷ pool | engine CPU ms/item | pool CPU ms/file | load |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows as any[]) {
  console.log(`| ${r.round} | ${r.order} | ${r.files} | ${r.engine.itemsPerSec} (${r.engine.seconds}) | ${r.pool.filesPerSec} (${r.pool.seconds}) | ${r.ratio} | ${r.engine.cpuMsPerItem} | ${r.pool.cpuMsPerFile} | ${r.load.join(' ')} |`);
  console.log(`  engine counts ${JSON.stringify(r.engine.counts)}, pool errors ${r.pool.errors}`);
}
console.log(`JSON ${JSON.stringify({ bench: 'tasks/edit', target: 0.8, rows })}`);
await writers.close();
await server.close();
const failed = rows.some((r: any) => r.engine.status !== 'success' || r.engine.counts.fail > 0 || r.pool.errors > 0);
process.exit(failed ? 1 : 0);
