/**
 * Format conversion through the task engine vs the same ffmpeg commands run two at a time by a shell, in the same run.
 *   node --no-node-snapshot bench/tasks/convert.ts [--files 200] [--seconds 240] [--rounds 2]
 * The tracks: `--files` CD-quality tracks of `--seconds` each (every fifth a WAV, the rest FLAC, tagged title /
 * artist / album / track, in albums of 10), generated once by ffmpeg into CACHE and hard-linked into the media
 * folder (the 10k library's tracks are 5 s clips: a conversion of those measures process starts, not encoding).
 * - Tagsonic: POST /apimt/format_music_type/ { music_type: 'mp3', bit_rate: 320, is_keep_source: true } over the
 *   tree, timed from the POST to the task's end (one item per file: a probe, the `transcode` preset, a probe of
 *   the written file; the shared two-process tool limiter). Its ffmpeg runs go through a logging `ffmpeg` first
 *   on PATH (one `sh` exec each) that appends each argv to a file, NUL-separated, and execs /usr/bin/ffmpeg.
 * - The shell: exactly those argvs (the output renamed into another folder), two at a time:
 *     find <jobs> -type f -print0 | xargs -0 -P 2 -I{} xargs -0 -a {} /usr/bin/ffmpeg
 *   So round 1 runs Tagsonic first (it logs the argvs); later rounds alternate.
 * Both sides' files are compared: the same sample count per track (ffprobe duration_ts after decoding), and how
 * many are byte-identical. Exits 1 when a count differs or the task failed items. Target: time within 1.1×.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { cpuOf } from './cpu.ts';
import { inFlight, load, log, round, startServer, timed } from './server.ts';

const run = promisify(execFile);
const { values } = parseArgs({ options: {
  files: { type: 'string', default: '200' }, seconds: { type: 'string', default: '240' }, rounds: { type: 'string', default: '2' },
} });
const files = Number(values.files);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const CACHE = `/tmp/tagsonic-bench-convert-${seconds}s`;
const WORK = '/tmp/tagsonic-bench-convert-work';
const FFMPEG = '/usr/bin/ffmpeg';

/** The cached tracks (made when missing: ffmpeg, two at a time); their paths relative to CACHE. */
async function tracks(): Promise<string[]> {
  const all = Array.from({ length: files }, (_, i) => {
    const album = `Album ${String(Math.floor(i / 10) + 1).padStart(2, '0')}`;
    return path.join(album, `${String((i % 10) + 1).padStart(2, '0')} - Track ${i + 1}.${i % 5 === 4 ? 'wav' : 'flac'}`);
  });
  await inFlight(all, 2, async (rel, i) => {
    const file = path.join(CACHE, rel);
    if (await stat(file).then((s) => s.size > 0, () => false)) return;
    await mkdir(path.dirname(file), { recursive: true });
    if (i % 20 === 0) log(`generating ${rel} …`);
    // A tone on the left and pink noise on the right, as in the CUE bench; lame's work does not depend much on it.
    const temp = path.join(path.dirname(file), `.part-${i}${path.extname(file)}`);
    await run(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=f=${200 + i}:r=44100:d=${seconds}`,
      '-f', 'lavfi', '-i', `anoisesrc=c=pink:a=0.05:r=44100:d=${seconds}:s=${i + 1}`, '-filter_complex', '[0][1]amerge=inputs=2,aformat=sample_fmts=s16',
      '-metadata', `title=Track ${i + 1}`, '-metadata', `artist=Artist ${Math.floor(i / 30) + 1}`, '-metadata', `album=${path.dirname(rel)}`, '-metadata', `track=${(i % 10) + 1}`,
      '-c:a', file.endsWith('.wav') ? 'pcm_s16le' : 'flac', temp]);
    await rename(temp, file);
  });
  return all;
}

/** Decoded samples of the first audio stream (an MP3's header may not say, so ffprobe counts the packets). */
async function sampleCount(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-count_packets', '-show_entries', 'stream=duration_ts', '-of', 'csv=p=0', file]);
  return Number(stdout.trim());
}

const sources = await tracks();
await rm(WORK, { recursive: true, force: true });
const argvDir = path.join(WORK, 'argv');
const bin = path.join(WORK, 'bin');
await mkdir(argvDir, { recursive: true });
await mkdir(bin, { recursive: true });
// The logging ffmpeg: each run's argv into its own file ($$: concurrent runs never share one), then the real one.
await writeFile(path.join(bin, 'ffmpeg'), `#!/bin/sh\nprintf '%s\\0' "$@" > "${argvDir}/$$"\nexec ${FFMPEG} "$@"\n`);
await chmod(path.join(bin, 'ffmpeg'), 0o755);
process.env.PATH = `${bin}:${process.env.PATH}`;

const server = await startServer(['format-music']);
const { media, rt } = server;
const tree = path.join(media, 'convert');
await mkdir(tree, { recursive: true });
for (const album of new Set(sources.map((s) => path.dirname(s)))) await run('cp', ['-al', path.join(CACHE, album), tree]);
const peerOut = path.join(WORK, 'shell-out');
const jobs = path.join(WORK, 'jobs');
const shellScript = `find ${jobs} -type f -print0 | xargs -0 -P 2 -I{} xargs -0 -a {} ${FFMPEG}`;
const mp3Of = (rel: string) => path.join(tree, rel.replace(/\.(flac|wav)$/, '.mp3'));

async function tagsonic() {
  for (const f of await readdir(argvDir)) await rm(path.join(argvDir, f));
  let taskId = '';
  const t = await timed(async () => {
    const res = await server.post('format_music_type', { file_full_path: media, select_data: ['convert'], music_type: 'mp3', bit_rate: 320, bit_rate_custom: null,
      sample_rate: -1, sample_rate_custom: null, is_keep_source: true });
    taskId = res.data.task_id;
    await server.finished(taskId);
  });
  const task = await rt.tasks.get(taskId);
  // The argvs it ran, each as the shell's job: the output (the last argument, a temp name beside the source) → peerOut.
  await rm(jobs, { recursive: true, force: true });
  await mkdir(jobs, { recursive: true });
  const argvs: string[][] = [];
  for (const f of await readdir(argvDir)) {
    const argv = (await readFile(path.join(argvDir, f), 'utf8')).split('\0').slice(0, -1);
    if (!argv.some((a) => a.endsWith('.mp3'))) continue;
    argvs.push(argv);
  }
  argvs.sort((a, b) => (a.join(' ') < b.join(' ') ? -1 : 1));
  for (const [i, argv] of argvs.entries()) {
    const source = argv[argv.indexOf('-i') + 1]!;
    const out = path.join(peerOut, path.relative(tree, source).replace(/\.(flac|wav)$/, '.mp3'));
    await writeFile(path.join(jobs, String(i).padStart(4, '0')), `${[...argv.slice(0, -1), out].join('\0')}\0`);
  }
  return { ...t, items: task.total, counts: task.counts, status: task.status, argvs };
}

async function shell() {
  await rm(peerOut, { recursive: true, force: true });
  for (const album of new Set(sources.map((s) => path.dirname(s)))) await mkdir(path.join(peerOut, album), { recursive: true });
  return timed(() => run('sh', ['-c', shellScript], { maxBuffer: 1 << 24 }));
}

async function compare() {
  let same = 0;
  let identical = 0;
  const differences: string[] = [];
  await inFlight(sources, 2, async (rel) => {
    const ours = mp3Of(rel);
    const theirs = path.join(peerOut, rel.replace(/\.(flac|wav)$/, '.mp3'));
    const [a, b] = await Promise.all([sampleCount(ours).catch(() => -1), sampleCount(theirs).catch(() => -1)]);
    if (a === b && a > 0) same++;
    else differences.push(`${rel}: Tagsonic ${a}, shell ${b}`);
    const [ba, bb] = await Promise.all([readFile(ours).catch(() => null), readFile(theirs).catch(() => null)]);
    if (ba && bb && ba.equals(bb)) identical++;
  });
  return { same, identical, differences };
}

async function removeOurs() {
  for (const rel of sources) await rm(mp3Of(rel), { force: true });
}

log(`tracks: ${sources.length} × ${seconds} s (${sources.filter((s) => s.endsWith('.wav')).length} WAV, the rest FLAC)`);
const rows: any[] = [];
let failed = false;
let argv: string[] = [];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? ['tagsonic', 'shell'] : ['shell', 'tagsonic'];
  const row: any = { round: r + 1, order: order.join(' then '), files: sources.length };
  for (const side of order) {
    log(`round ${r + 1}: ${side} …`);
    if (side === 'tagsonic') {
      await removeOurs();
      const { result: t, self, children } = await cpuOf(() => tagsonic());
      argv = t.argvs[0] ?? [];
      row.tagsonic = { items: t.items, seconds: round(t.seconds), filesPerSec: round(sources.length / t.seconds, 2), cpu: { node: self, tools: children }, counts: t.counts, status: t.status, ffmpegRuns: t.argvs.length };
      if (t.status !== 'success' || t.argvs.length !== sources.length) failed = true;
    } else {
      const { result: s, children } = await cpuOf(() => shell());
      row.shell = { seconds: round(s.seconds), filesPerSec: round(sources.length / s.seconds, 2), cpu: children };
    }
  }
  row.timeRatio = round(row.tagsonic.seconds / row.shell.seconds);
  row.load = load();
  const c = await compare();
  row.outputs = { sameSamples: c.same, byteIdentical: c.identical };
  for (const d of c.differences.slice(0, 20)) log(`differs: ${d}`);
  if (c.differences.length > 0) failed = true;
  rows.push(row);
}
await removeOurs();

console.log(`ffmpeg argv (the first, as logged): ffmpeg ${argv.map((a) => (/[^\w./:=-]/.test(a) ? `'${a}'` : a)).join(' ')}`);
console.log(`shell: ${shellScript}`);
console.log('| round | order | files | Tagsonic s (files/s) | shell s (files/s) | Tagsonic time ÷ shell | Tagsonic CPU s (node + tools) | shell CPU s | same samples | byte-identical | load |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(`| ${r.round} | ${r.order} | ${r.files} | ${r.tagsonic.seconds} (${r.tagsonic.filesPerSec}) | ${r.shell.seconds} (${r.shell.filesPerSec}) | ${r.timeRatio} | ${r.tagsonic.cpu.node} + ${r.tagsonic.cpu.tools} | ${r.shell.cpu} | ${r.outputs.sameSamples} | ${r.outputs.byteIdentical} | ${r.load.join(' ')} |`);
  console.log(`  Tagsonic ${r.tagsonic.items} items, ${r.tagsonic.ffmpegRuns} ffmpeg runs, ${JSON.stringify(r.tagsonic.counts)}`);
}
console.log(`JSON ${JSON.stringify({ bench: 'tasks/convert', target: { time: 1.1 }, seconds, rows })}`);
await rm(tree, { recursive: true });
await rm(WORK, { recursive: true, force: true });
await server.close();
process.exit(failed ? 1 : 0);
