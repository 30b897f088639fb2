/**
 * Replay gain through the task engine vs loudgain on the same files, in the same run.
 *   node --no-node-snapshot bench/tasks/replay-gain.ts [--files 200] [--rounds 2]
 * The tree: whole artist folders of the 10k library hard-linked into the media folder until `--files` tracks are
 * in (a tag write replaces the link with a new file, so the cached library is never changed).
 * - Tagsonic: POST /apimt/batch_update_id3/ { is_regainer: true } (the side bar's 回放增益), timed from the POST to
 *   the task's end: one item per album folder, each track decoded once by ffmpeg's ebur128, album gated over its
 *   tracks' blocks, the four fields written (a later round finds them up to date and only measures).
 * - loudgain -s s -a -O (measure only, album mode), one process per album folder, two at a time (both cores, as
 *   the workers' two loudness slots).
 * Each round alternates which goes first. Values: every track's track and album gain, as ffprobe reads them from
 * the files, turned back into loudness (−18 LUFS − gain) against loudgain's loudness columns (its gain column is
 * against −23 LUFS for Opus). Targets: within 0.1 dB; time within 1.2× of loudgain's.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { readTags } from '@tagsonic/core/tags';
import { inFlight, library, linkLibrary, load, log, round, startServer, timed } from './server.ts';

const run = promisify(execFile);
const { values } = parseArgs({ options: { files: { type: 'string', default: '200' }, rounds: { type: 'string', default: '2' } } });
const rounds = Number(values.rounds);

const lib = await library();
const server = await startServer(['replay-gain']);
const { media, rt } = server;
const tree = path.join(media, 'rg');
const paths = await linkLibrary(lib, tree, Number(values.files));
const folders = new Map<string, string[]>();
for (const p of paths) folders.set(path.dirname(p), [...(folders.get(path.dirname(p)) ?? []), p]);

/** loudgain's track and album loudness (LUFS) per file. */
async function loudgain(): Promise<{ seconds: number; gains: Map<string, { track: number; album: number }> }> {
  const gains = new Map<string, { track: number; album: number }>();
  const t = await timed(() => inFlight([...folders.values()], 2, async (files) => {
    const { stdout } = await run('loudgain', ['-s', 's', '-a', '-O', '-q', ...files], { maxBuffer: 1 << 24 });
    const rows = stdout.trim().split('\n').slice(1).map((l) => l.split('\t'));
    // Loudness (LUFS), not loudgain's gain column: for Opus that is against R128's −23 LUFS, not ReplayGain's −18.
    const album = Number.parseFloat(rows.find((r) => r[0] === 'Album')?.[1] ?? 'NaN');
    for (const r of rows) if (r[0] !== 'Album') gains.set(r[0]!, { track: Number.parseFloat(r[1]!), album });
  }));
  return { seconds: t.seconds, gains };
}

async function tagsonic() {
  let taskId = '';
  const t = await timed(async () => {
    const res = await server.post('batch_update_id3', { file_full_path: media, select_data: ['rg'], music_info: {}, is_regainer: true });
    taskId = res.data.task_id;
    await server.finished(taskId);
  });
  const task = await rt.tasks.get(taskId);
  return { ...t, items: task.total, counts: task.counts, status: task.status };
}

/** The largest differences between the files' tags (ffprobe) and loudgain's values. */
async function compare(gains: Map<string, { track: number; album: number }>) {
  let track = 0;
  let album = 0;
  let missing = 0;
  let ownReader = 0;
  await inFlight(paths, 4, async (p) => {
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format_tags:stream_tags', '-of', 'json', p]);
    const json = JSON.parse(stdout) as { format?: { tags?: Record<string, string> }; streams?: Array<{ tags?: Record<string, string> }> };
    const tags: Record<string, string> = {};
    for (const src of [json.format?.tags, ...(json.streams ?? []).map((s) => s.tags)]) for (const [k, v] of Object.entries(src ?? {})) tags[k.toLowerCase()] ??= v;
    const ref = gains.get(p);
    if (!tags.replaygain_track_gain && p.endsWith('.wav')) {
      // ffprobe does not read TXXX frames of a WAV's `id3 ` chunk, where the tag engine writes them: our reader then.
      const fields = (await readTags(p)).tags.fields;
      tags.replaygain_track_gain = fields.replaygain_track_gain ?? '';
      tags.replaygain_album_gain = fields.replaygain_album_gain ?? '';
      ownReader++;
    }
    if (!ref || !tags.replaygain_track_gain || !tags.replaygain_album_gain) {
      missing++;
      return void log(`no ${ref ? 'tags' : 'loudgain value'}: ${path.relative(tree, p)}`);
    }
    // Our gains are −18 LUFS − loudness: compared as loudness.
    track = Math.max(track, Math.abs(-18 - Number.parseFloat(tags.replaygain_track_gain) - ref.track));
    const albumDiff = Math.abs(-18 - Number.parseFloat(tags.replaygain_album_gain) - ref.album);
    if (albumDiff > 0.1) log(`album differs by ${round(albumDiff, 2)} dB: ${path.relative(tree, p)} (album tag ${tags.album ?? '—'})`);
    album = Math.max(album, albumDiff);
  });
  return { maxTrackDiffDb: round(track, 3), maxAlbumDiffDb: round(album, 3), missing, wavReadByTagsonic: ownReader };
}

log(`tree: ${paths.length} tracks in ${folders.size} album folders`);
const rows: any[] = [];
let reference: Map<string, { track: number; album: number }> | null = null;
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? ['tagsonic', 'loudgain'] : ['loudgain', 'tagsonic'];
  const row: any = { round: r + 1, order: order.join(' then '), files: paths.length };
  for (const side of order) {
    log(`round ${r + 1}: ${side} …`);
    if (side === 'tagsonic') {
      const t = await tagsonic();
      row.tagsonic = { items: t.items, seconds: round(t.seconds), filesPerSec: round(paths.length / t.seconds, 1), counts: t.counts, status: t.status };
    } else {
      const l = await loudgain();
      reference = l.gains;
      row.loudgain = { seconds: round(l.seconds), filesPerSec: round(paths.length / l.seconds, 1) };
    }
  }
  row.timeRatio = round(row.tagsonic.seconds / row.loudgain.seconds);
  row.load = load();
  rows.push(row);
}
const values_ = await compare(reference!);

console.log('| round | order | tracks | Tagsonic s (files/s) | loudgain s (files/s) | Tagsonic time ÷ loudgain | Tagsonic items | load |');
console.log('|---|---|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(`| ${r.round} | ${r.order} | ${r.files} | ${r.tagsonic.seconds} (${r.tagsonic.filesPerSec}) | ${r.loudgain.seconds} (${r.loudgain.filesPerSec}) | ${r.timeRatio} | ${r.tagsonic.items} | ${r.load.join(' ')} |`);
  console.log(`  Tagsonic counts ${JSON.stringify(r.tagsonic.counts)}`);
}
console.log(`values: largest track loudness difference ${values_.maxTrackDiffDb} dB, album gain ${values_.maxAlbumDiffDb} dB, ${values_.missing} tracks without tags or reference (${values_.wavReadByTagsonic} WAV read with Tagsonic's reader)`);
console.log(`JSON ${JSON.stringify({ bench: 'tasks/replay-gain', target: { time: 1.2, db: 0.1 }, rows, values: values_ })}`);
await rm(tree, { recursive: true });
await server.close();
process.exit(rows.some((r) => r.tagsonic.status !== 'success') || values_.missing > 0 || values_.maxTrackDiffDb > 0.1 || values_.maxAlbumDiffDb > 0.1 ? 1 : 0);
