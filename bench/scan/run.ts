/**
 * Scanner and library-query bench.
 *   node --expose-gc bench/scan/run.ts [--library /tmp/tagsonic-bench-10k] [--big 100000]
 *        [--big-store /tmp/tagsonic-bench-100k-store] [--rebuild-big] [--skip-big] [--skip-scan]
 *
 * 1. Cold scan of the 10k library into an empty embedded store (target ≤ 5 s on 2 cores).
 * 2. Unchanged rescan and a watcher tick (target ≤ 1 s; no file read).
 * 3. Query latencies (p50/p99) of the query service on the 10k library (Subsonic bench target p99 ≤ 20 ms).
 * 4. 100k tracks, built synthetically from the scanned 10k documents (ten renamed copies of every track,
 *    hence of its album and artists) and committed to a store kept for later runs; a fresh child process
 *    (bench/scan/serve.ts, the gateway's imports only) opens it, loads the catalogue and serves every
 *    query — its RSS is what serving 100k tracks costs (target ≤ 400 MB).
 * Prints a table and one JSON line.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import { newId } from '@tagsonic/core';
import { aggregate, albumIdFor, artistIdFor, assignAlbums, type TrackDoc } from '@tagsonic/core/library';
import { generateLibrary, MANIFEST_FILE } from '@tagsonic/test/library';
import { LibraryWatcher, Scanner } from '@tagsonic/workers/scanner';
import { openLibraryAt, queryLatencies, worst, type Latency } from './queries.ts';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: '/tmp/tagsonic-bench-10k' },
    big: { type: 'string', default: '100000' },
    'big-store': { type: 'string', default: path.join(tmpdir(), 'tagsonic-bench-100k-store') },
    'rebuild-big': { type: 'boolean', default: false },
    'skip-big': { type: 'boolean', default: false },
  },
});

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const rssMb = () => {
  gc();
  gc();
  return Math.round(process.memoryUsage().rss / 1e5) / 10;
};
const ms = (n: number) => Math.round(n * 10) / 10;

const media = values.library!;
const bigStore = values['big-store']!;
const manifest = await readFile(path.join(media, MANIFEST_FILE), 'utf8').then(
  (t) => JSON.parse(t) as { counts: { files: number } },
  async () => generateLibrary({ root: media, size: 10_000 }),
);
const work = await mkdtemp(path.join(tmpdir(), 'tagsonic-bench-scan-'));
const results: Record<string, unknown> = { library: media, files: manifest.counts.files, load: (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ') };
try {
  const env = await openLibraryAt(path.join(work, 'store-10k'), media);
  const scanner = new Scanner({ roots: env.roots, library: env.library.store, catalog: env.library.catalog });
  let t = performance.now();
  const cpu = process.cpuUsage();
  const mainCpu = process.threadCpuUsage();
  const cold = await scanner.scan();
  const mainUsed = process.threadCpuUsage(mainCpu);
  const coldMs = performance.now() - t;
  const used = process.cpuUsage(cpu);
  // process.cpuUsage counts every thread of the process, the reader threads included.
  const cpuMs = (used.user + used.system) / 1000;
  results.cold = { ms: ms(coldMs), cpuMs: ms(cpuMs), mainThreadCpuMs: ms((mainUsed.user + mainUsed.system) / 1000), timings: cold.timings, found: cold.found, read: cold.read, added: cold.added, failed: cold.failed.length, albums: cold.albums.added, artists: cold.artists.added, filesPerSec: Math.round(cold.read / (coldMs / 1000)) };
  t = performance.now();
  const again = await scanner.scan();
  results.rescan = { ms: ms(performance.now() - t), read: again.read, changed: again.added + again.updated + again.moved + again.removed };
  const watcher = new LibraryWatcher({ scanner, scans: env.library.scans });
  const tick = await watcher.tick();
  results.watcherTick = { ms: tick.durationMs, changed: tick.changes?.changed };
  results.latency10k = await queryLatencies(env.library, 60);
  results.rss10kMb = rssMb();

  if (!values['skip-big']) {
    const exists = await stat(path.join(bigStore, 'data.mdb')).then(() => true, () => false);
    if (!exists || values['rebuild-big']) {
      await rm(bigStore, { recursive: true, force: true });
      const copies = Math.max(1, Math.round(Number(values.big) / env.library.catalog.tracks.size));
      const big = synthesize([...env.library.catalog.tracks.values()], copies);
      const derived = aggregate(big);
      const bigEnv = await openLibraryAt(bigStore, media);
      t = performance.now();
      await bigEnv.library.store.commit({ upsertTracks: big, upsertAlbums: derived.albums, upsertArtists: derived.artists, upsertGenres: derived.genres });
      results.bigBuild = { tracks: big.length, albums: derived.albums.length, artists: derived.artists.length, commitMs: ms(performance.now() - t) };
      await bigEnv.close();
    }
    results.bigSource = 'synthetic: renamed copies of the scanned 10k tracks (and so of their albums and artists)';
    results.bigStoreMb = Math.round((await stat(path.join(bigStore, 'data.mdb'))).size / 1e5) / 10;
  }
  await env.close();
  if (!values['skip-big']) {
    // Node's defaults let the young generation grow to ~130 MB; a server would cap it (see the report).
    const serve = (flags: string[]) => {
      const child = spawnSync(process.execPath, ['--expose-gc', ...flags, path.join(import.meta.dirname, 'serve.ts'), bigStore, media, '20'], { encoding: 'utf8', maxBuffer: 1 << 26 });
      if (child.status !== 0) throw new Error(`serving child failed: ${child.stderr}`);
      return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    };
    results.bigServe = serve(['--max-semi-space-size=8']);
    results.bigServeNodeDefaults = serve([]);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

/** `copies` renamed copies of every track: copy 0 is the original, copy c appends " #c" to names. */
function synthesize(base: TrackDoc[], copies: number): TrackDoc[] {
  const out: TrackDoc[] = [];
  for (let c = 0; c < copies; c++) {
    const tag = c === 0 ? '' : ` #${c + 1}`;
    for (const t0 of base) {
      const artists = t0.artists.map((a) => a + tag);
      out.push({
        ...t0,
        _id: c === 0 ? t0._id : newId(),
        path: t0.path.replace(/(\.[^.]+)$/, `${tag}$1`),
        relPath: t0.relPath.replace(/(\.[^.]+)$/, `${tag}$1`),
        title: t0.title + tag,
        artist: t0.artist + tag,
        artists,
        artistIds: artists.map(artistIdFor),
        albumArtistTag: t0.albumArtistTag === null ? null : t0.albumArtistTag + tag,
        albumArtistsTag: t0.albumArtistsTag.map((a) => a + tag),
        album: t0.album + tag,
        albumId: albumIdFor(t0.albumArtist + tag, t0.album + tag),
      });
    }
  }
  const assignments = assignAlbums(out);
  for (const t of out) Object.assign(t, assignments.get(t._id));
  return out;
}

// ---------------------------------------------------------------- report
const line = (k: string, v: string) => console.log(`${k.padEnd(40)} ${v}`);
const cold = results.cold as Record<string, number>;
line('library', `${media} (${results.files} files), load average ${results.load}`);
line('cold scan (target ≤ 5000 ms)', `${cold.ms} ms — ${cold.read} files read, ${cold.filesPerSec} files/s, ${cold.added} tracks, ${cold.failed} unreadable`);
line('  cold scan CPU (all threads)', `${cold.cpuMs} ms (main thread ${cold.mainThreadCpuMs} ms); phases ${JSON.stringify(results.cold && (results.cold as { timings: unknown }).timings)}`);
const re = results.rescan as Record<string, number>;
line('unchanged rescan (target ≤ 1000 ms)', `${re.ms} ms — ${re.read} files read, ${re.changed} changes`);
const wt = results.watcherTick as Record<string, unknown>;
line('watcher tick, nothing changed', `${wt.ms} ms (changed: ${wt.changed})`);
line('RSS of the scanning process, 10k', `${results.rss10kMb} MB`);
const lat10 = results.latency10k as Record<string, Latency>;
for (const [k, v] of Object.entries(lat10)) line(`  10k ${k}`, `p50 ${v.p50} ms  p99 ${v.p99} ms`);
const w = worst(lat10);
line('worst p99, 10k (target ≤ 20 ms)', `${w[1].p99} ms (${w[0]})`);
if (results.bigServe) {
  const s = results.bigServe as Record<string, unknown> & { latency: Record<string, Latency> };
  line('100k library', `${s.tracks} tracks, ${s.albums} albums, ${s.artists} artists (${results.bigSource}); store ${results.bigStoreMb} MB`);
  if (results.bigBuild) line('100k commit', `${(results.bigBuild as Record<string, number>).commitMs} ms`);
  line('100k catalogue load in a fresh process', `${s.loadMs} ms`);
  const parts = s.rssServing as { anonMb: number; fileMb: number };
  line('100k RSS serving (target ≤ 400 MB)', `${s.rssServingMb} MB with --max-semi-space-size=8 (anonymous ${parts.anonMb} MB, file-backed incl. the store map ${parts.fileMb} MB; process before opening ${s.rssEmptyMb} MB; heap ${s.heapUsedMb} MB)`);
  const d = results.bigServeNodeDefaults as Record<string, unknown>;
  line('100k RSS serving, Node defaults', `${d.rssServingMb} MB (heap ${d.heapUsedMb} MB)`);
  for (const [k, v] of Object.entries(s.latency)) line(`  100k ${k}`, `p50 ${v.p50} ms  p99 ${v.p99} ms`);
  const wb = worst(s.latency);
  line('worst p99, 100k', `${wb[1].p99} ms (${wb[0]})`);
}
console.log(JSON.stringify(results));
