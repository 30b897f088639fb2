/**
 * Tidy of the library through the task engine vs kid3-cli making the same renames, in the same run.
 *   node --no-node-snapshot bench/tasks/tidy.ts [--files 10000] [--rounds 2]
 * Both rename every track, in its own folder, to `artist - album - track title` from its tags:
 * - Tagsonic: POST /apimt/tidy_folder/ over a folder of the library hard-linked into the media folder, with that
 *   folder as root_path, dir_list `${parent_parent_path}` / `${parent_path}` (the track's artist and album folders,
 *   so it stays where it is) and file_name `${artist} - ${album} - ${tracknumber} ${title}`; timed from the POST to
 *   the task's end: planning (the plugin's plan walks the selection), one item per folder, each a sandbox invocation
 *   reading its tracks' tags and moving each through the journal (no-clobber, the .lrc along, undoable).
 * - kid3-cli (one process for the whole tree, as its scripting allows: per album folder `cd`, `select all`,
 *   `fromtag '%{artist} - %{album} - %{track} %{title}' 2`, `save`) on another link of the same files.
 * kid3-cli 3.9's `renamedir … create` (moving files into tag-named folders) printed its moves but made none here,
 * so the peer's task is the in-place rename, and Tagsonic is given the same one. Each round alternates which goes
 * first. Target: Tagsonic ≥ 2× kid3-cli's files/s. Every track must have a new name afterwards.
 */
import { spawn } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { library, linkLibrary, load, log, round, startServer, timed } from './server.ts';

const { values } = parseArgs({ options: { files: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '2' } } });
const files = Number(values.files);
const rounds = Number(values.rounds);

const lib = await library();
const server = await startServer(['tidy-folder']);
const { media } = server;

/** Audio files under `dir` whose name still is the one the library gave them. */
async function unrenamed(paths: string[]): Promise<number> {
  const byDir = new Map<string, Set<string>>();
  for (const p of paths) {
    const dir = path.dirname(p);
    if (!byDir.has(dir)) byDir.set(dir, new Set(await readdir(dir)));
  }
  return paths.filter((p) => byDir.get(path.dirname(p))!.has(path.basename(p))).length;
}

async function tagsonic(folder: string) {
  let task: Awaited<ReturnType<typeof server.finished>> | undefined;
  const t = await timed(async () => {
    const res = await server.post('tidy_folder', { file_full_path: media, select_data: [folder], root_path: path.join(media, folder),
      dir_list: [{ value: 'custom', value2: '${parent_parent_path}' }, { value: 'custom', value2: '${parent_path}' }],
      file_name: '${artist} - ${album} - ${tracknumber} ${title}', rule_form: { is_clean_music: false } });
    task = await server.finished(res.data.task_id);
  });
  return { ...t, items: task!.total, counts: task!.counts, status: task!.status };
}

async function kid3(paths: string[]) {
  const dirs = [...new Set(paths.map((p) => path.dirname(p)))];
  const args = dirs.flatMap((d) => ['-c', `cd '${d}'`, '-c', 'select all', '-c', "fromtag '%{artist} - %{album} - %{track} %{title}' 2", '-c', 'save']);
  let stderr = '';
  const t = await timed(() => new Promise<void>((resolve, reject) => {
    const child = spawn('kid3-cli', args, { env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' }, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`kid3-cli exited ${code}: ${stderr.slice(0, 500)}`))));
  }));
  return { ...t, folders: dirs.length, stderr: stderr.trim().split('\n').filter(Boolean).length };
}

const rows: any[] = [];
for (let r = 0; r < rounds; r++) {
  const tPaths = await linkLibrary(lib, path.join(media, `tidy-${r}`), files);
  const kPaths = await linkLibrary(lib, path.join(media, `kid3-${r}`), files);
  const order = r % 2 === 0 ? ['tagsonic', 'kid3'] : ['kid3', 'tagsonic'];
  const row: any = { round: r + 1, order: order.join(' then '), files: tPaths.length };
  for (const side of order) {
    log(`round ${r + 1}: ${side} on ${tPaths.length} files …`);
    if (side === 'tagsonic') {
      const t = await tagsonic(`tidy-${r}`);
      const left = await unrenamed(tPaths);
      row.tagsonic = { items: t.items, seconds: round(t.seconds), filesPerSec: Math.round(tPaths.length / t.seconds), cpuMsPerFile: round(t.cpuMs / tPaths.length), counts: t.counts, status: t.status, unrenamed: left };
    } else {
      const k = await kid3(kPaths);
      const left = await unrenamed(kPaths);
      row.kid3 = { folders: k.folders, seconds: round(k.seconds), filesPerSec: Math.round(kPaths.length / k.seconds), stderrLines: k.stderr, unrenamed: left };
    }
  }
  row.ratio = round(row.tagsonic.filesPerSec / row.kid3.filesPerSec);
  row.load = load();
  rows.push(row);
  await rm(path.join(media, `tidy-${r}`), { recursive: true });
  await rm(path.join(media, `kid3-${r}`), { recursive: true });
}

console.log('| round | order | files | Tagsonic files/s (s) | kid3-cli files/s (s) | Tagsonic ÷ kid3 | Tagsonic items | left unrenamed T / k | load |');
console.log('|---|---|---:|---:|---:|---:|---:|---|---|');
for (const r of rows) {
  console.log(`| ${r.round} | ${r.order} | ${r.files} | ${r.tagsonic.filesPerSec} (${r.tagsonic.seconds}) | ${r.kid3.filesPerSec} (${r.kid3.seconds}) | ${r.ratio} | ${r.tagsonic.items} | ${r.tagsonic.unrenamed} / ${r.kid3.unrenamed} | ${r.load.join(' ')} |`);
  console.log(`  Tagsonic counts ${JSON.stringify(r.tagsonic.counts)}`);
}
console.log(`JSON ${JSON.stringify({ bench: 'tasks/tidy', target: 2, rows })}`);
await server.close();
process.exit(rows.some((r) => r.tagsonic.status !== 'success' || r.tagsonic.counts.fail > 0) ? 1 : 0);
