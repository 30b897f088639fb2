/**
 * Duplicate check by file hash through the task engine vs jdupes on the same tree, in the same run.
 *   node --no-node-snapshot bench/tasks/duplicates.ts [--files 10000] [--copies 500] [--rounds 2]
 * The tree: the library hard-linked into the media folder, plus `--copies` real copies (`<name> (1).<ext>` beside
 * every n-th track), so there are byte-identical sets to find besides any the library has. Both read it only.
 * - Tagsonic: POST /apimt/check_file_duplicates/ (is_acoustid false: file hash and file name sections); timed from
 *   the POST to the task's end: the plugin's plan lists the tree and groups audio files by size (no reading) and by
 *   song name, packed into items of up to 64 files; a hash item hashes its files' edges, then fully (SHA-256,
 *   streamed on the host) only those whose edges collide.
 * - jdupes -r -q -X onlyext:<the audio extensions> (sizes, then partial and full hashes, then a byte compare).
 * A first untimed jdupes pass fills the page cache, so both read from memory. Each round alternates which goes
 * first; the byte-identical sets each found are compared. Target: Tagsonic within 1.5× of jdupes' time.
 */
import { spawn } from 'node:child_process';
import { copyFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { inFlight, library, linkLibrary, load, log, round, startServer, timed } from './server.ts';

const { values } = parseArgs({ options: { files: { type: 'string', default: '10000' }, copies: { type: 'string', default: '500' }, rounds: { type: 'string', default: '2' } } });
const files = Number(values.files);
const copies = Number(values.copies);
const rounds = Number(values.rounds);
const EXTENSIONS = 'mp3,flac,m4a,ogg,opus,wav';

const lib = await library();
const server = await startServer(['check-duplicate']);
const { media, rt } = server;
const tree = path.join(media, 'dups');
const paths = await linkLibrary(lib, tree, files);
const step = Math.max(1, Math.floor(paths.length / Math.max(1, copies)));
const copied = paths.filter((_, i) => i % step === 0).slice(0, copies);
await inFlight(copied, 8, (p) => copyFile(p, p.replace(/(\.[^.]+)$/, ' (1)$1')));
const audioFiles = paths.length + copied.length;

/** jdupes' sets as sorted lists of paths. */
async function jdupes(): Promise<{ seconds: number; cpuMs: number; sets: string[][] }> {
  const chunks: Buffer[] = [];
  const t = await timed(() => new Promise<void>((resolve, reject) => {
    const child = spawn('jdupes', ['-r', '-q', '-X', `onlyext:${EXTENSIONS}`, tree], { stdio: ['ignore', 'pipe', 'inherit'] });
    // Decoded once at the end: a chunk may end inside a character.
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`jdupes exited ${code}`))));
  }));
  const sets = Buffer.concat(chunks).toString('utf8').split('\n\n').map((block) => block.split('\n').filter(Boolean).sort()).filter((s) => s.length > 1);
  return { ...t, sets };
}

async function tagsonic() {
  let taskId = '';
  let planSeconds = 0;
  const t = await timed(async () => {
    const started = performance.now();
    const res = await server.post('check_file_duplicates', { file_full_path: media, select_data: ['dups'], is_acoustid: false });
    // The route answers once the plan (listing, grouping) made the task's items.
    planSeconds = (performance.now() - started) / 1000;
    taskId = res.data.task_id;
    await server.finished(taskId);
  });
  const task = await rt.tasks.get(taskId);
  const items = await rt.tasks.listItems(taskId);
  const sets: string[][] = [];
  for (const item of items) {
    const report = (item.result?.report ?? null) as { section?: string; groups?: Array<{ files: string[] }> } | null;
    if (item.status === 'success' && report?.section === 'hash') for (const g of report.groups ?? []) sets.push([...g.files].sort());
  }
  return { ...t, planSeconds, items: task.total, counts: task.counts, status: task.status, sets };
}

const key = (sets: string[][]) => sets.map((s) => s.join('|')).sort().join('\n');

log(`tree: ${audioFiles} audio files (${copied.length} copies); warming the page cache with one jdupes pass …`);
await jdupes();
const rows: any[] = [];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? ['tagsonic', 'jdupes'] : ['jdupes', 'tagsonic'];
  const row: any = { round: r + 1, order: order.join(' then '), files: audioFiles };
  let tSets: string[][] = [];
  let jSets: string[][] = [];
  for (const side of order) {
    log(`round ${r + 1}: ${side} …`);
    if (side === 'tagsonic') {
      const t = await tagsonic();
      tSets = t.sets;
      row.tagsonic = { items: t.items, seconds: round(t.seconds), planSeconds: round(t.planSeconds), filesPerSec: Math.round(audioFiles / t.seconds), cpuMs: Math.round(t.cpuMs), counts: t.counts, status: t.status, sets: t.sets.length };
    } else {
      const j = await jdupes();
      jSets = j.sets;
      row.jdupes = { seconds: round(j.seconds), filesPerSec: Math.round(audioFiles / j.seconds), sets: j.sets.length };
    }
  }
  row.sameSets = key(tSets) === key(jSets);
  if (!row.sameSets) {
    const t = new Set(tSets.map((s) => s.join(' | ')));
    const j = new Set(jSets.map((s) => s.join(' | ')));
    row.onlyTagsonic = [...t].filter((s) => !j.has(s)).slice(0, 3);
    row.onlyJdupes = [...j].filter((s) => !t.has(s)).slice(0, 3);
    log(`round ${r + 1}: the sets differ — only Tagsonic: ${JSON.stringify(row.onlyTagsonic)}; only jdupes: ${JSON.stringify(row.onlyJdupes)}`);
  }
  row.timeRatio = round(row.tagsonic.seconds / row.jdupes.seconds);
  row.load = load();
  rows.push(row);
}

console.log('| round | order | audio files | Tagsonic s (files/s) | jdupes s (files/s) | Tagsonic time ÷ jdupes | sets T / j | same sets | Tagsonic items | load |');
console.log('|---|---|---:|---:|---:|---:|---|---|---:|---|');
for (const r of rows) {
  console.log(`| ${r.round} | ${r.order} | ${r.files} | ${r.tagsonic.seconds} (${r.tagsonic.filesPerSec}) | ${r.jdupes.seconds} (${r.jdupes.filesPerSec}) | ${r.timeRatio} | ${r.tagsonic.sets} / ${r.jdupes.sets} | ${r.sameSets} | ${r.tagsonic.items} | ${r.load.join(' ')} |`);
  console.log(`  Tagsonic counts ${JSON.stringify(r.tagsonic.counts)}, plan ${r.tagsonic.planSeconds} s (POST until the items exist), CPU ${r.tagsonic.cpuMs} ms (this process, all threads)`);
}
console.log(`JSON ${JSON.stringify({ bench: 'tasks/duplicates', target: 1.5, rows })}`);
await rm(tree, { recursive: true });
await server.close();
process.exit(rows.some((r) => r.tagsonic.status !== 'success' || !r.sameSets) ? 1 : 0);
