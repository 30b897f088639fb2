/**
 * CUE split through the task engine vs shntool's shnsplit on the same CD images, in the same run.
 *   node --no-node-snapshot bench/tasks/cue-split.ts [--images 20] [--rounds 2] [--targets wav,flac]
 * The images: `--images` CD images (44.1 kHz, 16 bit, stereo; 40–60 min, 10–15 tracks, every third track after
 * the first with an INDEX 00 pregap of 1–4 s, the sheets of every third image in GBK, the others UTF-8), even ones
 * WAV and odd ones FLAC, generated once by ffmpeg into CACHE and hard-linked into the media folder for each run
 * (Tagsonic writes its tracks beside the sheet; they are removed after each pass, the linked images never change).
 * - Tagsonic: POST /apimt/split_cue/ { target_format } over the whole tree, timed from the POST to the task's end
 *   (one item per track, the `extract` ffmpeg preset, the shared two-process tool limiter).
 * - shnsplit -f image.cue -o <target> -d <dir> image.<ext>, one process per image, two at a time (both cores, as
 *   the tool limiter's two slots); for FLAC (as input or output) shntool pipes through Xiph's `flac`.
 * Both split at INDEX 01 by default: a pregap (INDEX 00 → 01) stays at the end of the track before it, and
 * track 1 starts at 00:00:00 here (shnsplit would write audio before it as a track 00; Tagsonic does not cut it).
 * Every track's sample count (ffprobe duration_ts: the WAV data size, FLAC's STREAMINFO) is compared between both
 * sides and with the sheet's INDEX 01 points (588 samples a CD frame). Exits 1 when any count differs or the task
 * failed items. Target: identical counts; time within 1.2× of shnsplit's.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { encodeLegacy } from '../../test/support/mojibake.ts';
import { cpuOf } from './cpu.ts';
import { inFlight, load, log, round, startServer, timed } from './server.ts';

const run = promisify(execFile);
const { values } = parseArgs({ options: {
  images: { type: 'string', default: '20' }, rounds: { type: 'string', default: '2' }, targets: { type: 'string', default: 'wav,flac' },
} });
const rounds = Number(values.rounds);
const targets = values.targets.split(',') as Array<'wav' | 'flac'>;
const CACHE = '/tmp/tagsonic-bench-cue';
const RATE = 44_100;
const SAMPLES_PER_FRAME = RATE / 75;

interface Image {
  dir: string;
  image: string;
  ext: 'wav' | 'flac';
  /** INDEX 01 of each track, in CD frames; the image's length in frames last. */
  points: number[];
  pregaps: number;
  encoding: 'utf-8' | 'gbk';
}

const TITLES = ['晴天', '七里香', 'Morning Light', '夜曲', 'Blue Line', '稻香', 'After Rain', '青花瓷', 'Northbound', '告白气球', 'Paper Moon', '简单爱', 'Harbour', '搁浅', 'Last Train'];
const cueTime = (frames: number) => `${String(Math.floor(frames / 75 / 60)).padStart(2, '0')}:${String(Math.floor(frames / 75) % 60).padStart(2, '0')}:${String(frames % 75).padStart(2, '0')}`;

/** Image `i`'s layout, the same every run: its length, track starts and pregaps. */
function layout(i: number): { frames: number; points: number[]; pregap: (number | null)[] } {
  let seed = 7919 * (i + 1);
  const next = () => ((seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647);
  const frames = Math.round((40 + next() * 20) * 60 * 75);
  const tracks = 10 + Math.floor(next() * 6);
  const weights = Array.from({ length: tracks }, () => 0.6 + next());
  const sum = weights.reduce((a, b) => a + b, 0);
  const points: number[] = [];
  let at = 0;
  for (const w of weights) {
    points.push(at);
    at += Math.floor((frames * w) / sum) + Math.floor(next() * 75);
  }
  const pregap = points.map((_, t) => (t > 0 && t % 3 === 1 ? 75 + Math.floor(next() * 225) : null));
  return { frames, points, pregap };
}

function sheet(i: number, file: string, points: number[], pregap: (number | null)[]): string {
  const lines = ['REM GENRE Pop', `REM DATE ${2000 + i}`, `PERFORMER "歌手 ${i + 1}"`, `TITLE "专辑 ${i + 1}"`, `FILE "${file}" WAVE`];
  points.forEach((start, t) => {
    lines.push(`  TRACK ${String(t + 1).padStart(2, '0')} AUDIO`, `    TITLE "${TITLES[(t + i) % TITLES.length]}"`);
    if (pregap[t] !== null) lines.push(`    INDEX 00 ${cueTime(start - pregap[t]!)}`);
    lines.push(`    INDEX 01 ${cueTime(start)}`);
  });
  return `${lines.join('\r\n')}\r\n`;
}

/** The cached images (made when missing: ffmpeg, two at a time). */
async function images(count: number): Promise<Image[]> {
  await mkdir(CACHE, { recursive: true });
  const all = Array.from({ length: count }, (_, i) => i);
  const made: Image[] = [];
  await inFlight(all, 2, async (i) => {
    const { frames, points, pregap } = layout(i);
    const ext = i % 2 === 0 ? 'wav' : 'flac';
    const dir = path.join(CACHE, `cd-${String(i + 1).padStart(2, '0')}`);
    const image = path.join(dir, `image.${ext}`);
    const encoding = i % 3 === 0 ? 'gbk' : 'utf-8';
    made[i] = { dir, image, ext, points: [...points, frames], pregaps: pregap.filter((p) => p !== null).length, encoding };
    if (await stat(image).then((s) => s.size > 0, () => false)) return;
    await mkdir(dir, { recursive: true });
    const seconds = (frames / 75).toFixed(6);
    log(`generating ${path.relative(CACHE, image)} (${Math.round(frames / 75 / 60)} min, ${points.length} tracks)`);
    // A tone on the left and pink noise on the right: FLAC compresses it about as much as music (not a silence's 1 %).
    const temp = path.join(dir, `.part.${ext}`);
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=f=${220 + 10 * i}:r=${RATE}:d=${seconds}`,
      '-f', 'lavfi', '-i', `anoisesrc=c=pink:a=0.05:r=${RATE}:d=${seconds}:s=${i + 1}`, '-filter_complex', '[0][1]amerge=inputs=2',
      '-c:a', ext === 'wav' ? 'pcm_s16le' : 'flac', temp]);
    const text = sheet(i, path.basename(image), points, pregap);
    await writeFile(path.join(dir, 'image.cue'), encoding === 'gbk' ? encodeLegacy(text, 'gbk') : Buffer.from(`\ufeff${text}`));
    await rename(temp, image);
  });
  for (const img of made) {
    const samples = await sampleCount(img.image);
    if (samples !== img.points.at(-1)! * SAMPLES_PER_FRAME) throw new Error(`${img.image}: ${samples} samples, not the ${img.points.at(-1)! * SAMPLES_PER_FRAME} generated`);
  }
  return made;
}

/** Samples of the first audio stream (ffprobe duration_ts: a WAV's data size, FLAC's STREAMINFO total). */
async function sampleCount(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=duration_ts', '-of', 'csv=p=0', file]);
  return Number(stdout.trim());
}

const imgs = await images(Number(values.images));
const server = await startServer(['split-cue']);
const { media, rt } = server;
const tree = path.join(media, 'cue');
await mkdir(tree, { recursive: true });
for (const img of imgs) await run('cp', ['-al', img.dir, tree]);
const linkedDir = (img: Image) => path.join(tree, path.basename(img.dir));
const peerOut = path.join(CACHE, '..', 'tagsonic-bench-cue-shnsplit');

/** Track number → output file, per image, of one side. */
type Outputs = Map<Image, Map<number, string>>;

async function tagsonic(target: string) {
  let taskId = '';
  const t = await timed(async () => {
    const res = await server.post('split_cue', { file_full_path: media, select_data: ['cue'], target_format: target, is_delete_source: false });
    taskId = res.data.task_id;
    await server.finished(taskId);
  });
  const task = await rt.tasks.get(taskId);
  const outputs: Outputs = new Map();
  for (const img of imgs) {
    const tracks = new Map<number, string>();
    for (const name of await readdir(linkedDir(img))) {
      const m = /^(\d+) - .*\.(wav|flac)$/.exec(name);
      if (m && name.endsWith(`.${target}`)) tracks.set(Number(m[1]), path.join(linkedDir(img), name));
    }
    outputs.set(img, tracks);
  }
  return { ...t, items: task.total, counts: task.counts, status: task.status, outputs };
}

async function shnsplit(target: string) {
  await rm(peerOut, { recursive: true, force: true });
  const outputs: Outputs = new Map();
  const t = await timed(() => inFlight(imgs, 2, async (img) => {
    const out = path.join(peerOut, path.basename(img.dir));
    await mkdir(out, { recursive: true });
    await run('shnsplit', ['-q', '-O', 'always', '-f', path.join(img.dir, 'image.cue'), '-o', target, '-d', out, img.image]);
  }));
  for (const img of imgs) {
    const out = path.join(peerOut, path.basename(img.dir));
    const tracks = new Map<number, string>();
    for (const name of await readdir(out)) {
      const m = /^split-track(\d+)\./.exec(name);
      if (m) tracks.set(Number(m[1]), path.join(out, name));
    }
    outputs.set(img, tracks);
  }
  return { ...t, outputs };
}

/** Per track: both sides' sample counts against each other and the sheet's INDEX 01 points. */
async function compare(ours: Outputs, theirs: Outputs) {
  let tracks = 0;
  let identical = 0;
  let sheetExact = 0;
  const differences: string[] = [];
  await inFlight(imgs, 2, async (img) => {
    for (let t = 1; t < img.points.length; t++) {
      tracks++;
      const expected = (img.points[t]! - img.points[t - 1]!) * SAMPLES_PER_FRAME;
      const a = ours.get(img)?.get(t);
      const b = theirs.get(img)?.get(t);
      const [sa, sb] = await Promise.all([a ? sampleCount(a) : -1, b ? sampleCount(b) : -1]);
      if (sa === sb && sa >= 0) identical++;
      else differences.push(`${path.basename(img.dir)} track ${t}: Tagsonic ${a ? sa : 'missing'}, shnsplit ${b ? sb : 'missing'} (sheet ${expected})`);
      if (sa === expected) sheetExact++;
    }
    // shnsplit writes audio before track 1's INDEX 01 as track 00; the images here start track 1 at 0.
    if (theirs.get(img)?.has(0)) differences.push(`${path.basename(img.dir)}: shnsplit wrote a track 00`);
  });
  return { tracks, identical, sheetExact, differences };
}

async function removeOurs(outputs: Outputs) {
  for (const tracks of outputs.values()) for (const file of tracks.values()) await rm(file, { force: true });
}

const totalTracks = imgs.reduce((n, img) => n + img.points.length - 1, 0);
const gib = (await Promise.all(imgs.map((img) => stat(img.image).then((s) => s.size)))).reduce((a, b) => a + b, 0) / 2 ** 30;
log(`images: ${imgs.length} (${imgs.filter((i) => i.ext === 'wav').length} WAV, ${imgs.filter((i) => i.ext === 'flac').length} FLAC, ${round(gib, 1)} GiB), ${totalTracks} tracks, ${imgs.reduce((n, i) => n + i.pregaps, 0)} pregaps, ${imgs.filter((i) => i.encoding === 'gbk').length} GBK sheets`);
// One untimed read of every image first: both sides then start with them in the page cache.
await inFlight(imgs, 2, (img) => run('sh', ['-c', 'cat "$1" > /dev/null', 'sh', img.image]));
const rows: any[] = [];
let failed = false;
for (let r = 0; r < rounds; r++) {
  for (const target of targets) {
    const order = r % 2 === 0 ? ['tagsonic', 'shnsplit'] : ['shnsplit', 'tagsonic'];
    const row: any = { round: r + 1, target, order: order.join(' then '), tracks: totalTracks };
    let ours: Outputs | null = null;
    let theirs: Outputs | null = null;
    for (const side of order) {
      log(`round ${r + 1}, ${target}: ${side} …`);
      if (side === 'tagsonic') {
        const { result: t, self, children } = await cpuOf(() => tagsonic(target));
        ours = t.outputs;
        row.tagsonic = { items: t.items, seconds: round(t.seconds), cpu: { node: self, tools: children }, counts: t.counts, status: t.status };
        if (t.status !== 'success') failed = true;
      } else {
        const { result: s, children } = await cpuOf(() => shnsplit(target));
        theirs = s.outputs;
        row.shnsplit = { seconds: round(s.seconds), cpu: children };
      }
    }
    row.timeRatio = round(row.tagsonic.seconds / row.shnsplit.seconds);
    row.load = load();
    const c = await compare(ours!, theirs!);
    row.samples = { tracks: c.tracks, identical: c.identical, sheetExact: c.sheetExact };
    for (const d of c.differences.slice(0, 20)) log(`differs: ${d}`);
    if (c.differences.length > 0 || c.sheetExact !== c.tracks) failed = true;
    await removeOurs(ours!);
    await rm(peerOut, { recursive: true, force: true });
    rows.push(row);
  }
}

console.log('| round | target | order | tracks | Tagsonic s | shnsplit s | Tagsonic time ÷ shnsplit | Tagsonic CPU s (node + tools) | shnsplit CPU s | identical sample counts | = sheet | load |');
console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(`| ${r.round} | ${r.target} | ${r.order} | ${r.tracks} | ${r.tagsonic.seconds} | ${r.shnsplit.seconds} | ${r.timeRatio} | ${r.tagsonic.cpu.node} + ${r.tagsonic.cpu.tools} | ${r.shnsplit.cpu} | ${r.samples.identical} / ${r.samples.tracks} | ${r.samples.sheetExact} | ${r.load.join(' ')} |`);
  console.log(`  Tagsonic ${r.tagsonic.items} items, ${JSON.stringify(r.tagsonic.counts)}`);
}
console.log(`JSON ${JSON.stringify({ bench: 'tasks/cue-split', target: { time: 1.2 }, images: imgs.length, rows })}`);
await rm(tree, { recursive: true });
await server.close();
process.exit(failed ? 1 : 0);
