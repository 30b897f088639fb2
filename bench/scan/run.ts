/**
 * Scanner and library-query bench.
 *   node --expose-gc bench/scan/run.ts [--library /tmp/tagsonic-bench-10k] [--big 100000] [--skip-big]
 *
 * 1. Cold scan of the 10k library into an empty embedded store (target ≤ 5 s on 2 cores).
 * 2. Unchanged rescan and a watcher tick (target ≤ 1 s; no file read).
 * 3. Query latencies (p50/p99) of the query service on the 10k library.
 * 4. 100k tracks: built synthetically from the scanned 10k documents (ten renamed copies of each track,
 *    albums and artists), committed to a fresh store; a fresh child process then opens it, loads the
 *    catalogue and serves queries — its RSS is what serving 100k tracks costs (target ≤ 400 MB).
 * Prints a table and one JSON line.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import { createMemoryBus } from '@tagsonic/core/bus';
import {
  ALBUM_LIST_TYPES,
  aggregate,
  albumIdFor,
  artistIdFor,
  assignAlbums,
  openLibrary,
  type Library,
  type TrackDoc,
} from '@tagsonic/core/library';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore } from '@tagsonic/core/store';
import { Tasks } from '@tagsonic/core/tasks';
import { newId } from '@tagsonic/core';
import { generateLibrary, MANIFEST_FILE } from '@tagsonic/test/library';
import { LibraryWatcher, Scanner } from '@tagsonic/workers/scanner';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: '/tmp/tagsonic-bench-10k' },
    big: { type: 'string', default: '100000' },
    'skip-big': { type: 'boolean', default: false },
    serve: { type: 'string' },
    media: { type: 'string' },
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

async function openAll(storeDir: string, media: string): Promise<{ library: Library; roots: MediaRoots; close: () => Promise<void> }> {
  const store = await openEmbeddedStore({ dir: storeDir });
  const bus = createMemoryBus();
  const tasks = new Tasks(store, bus);
  await tasks.init();
  const roots = await MediaRoots.open({ media });
  const library = await openLibrary({ store, tasks, roots: roots.roots });
  return { library, roots, close: async () => (await bus.close(), await store.close()) };
}

/** p50/p99/max of `fn` over `runs` calls (after 3 warm-up calls). */
async function latency(fn: () => Promise<unknown>, runs = 60): Promise<{ p50: number; p99: number; max: number }> {
  for (let i = 0; i < 3; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: ms(times[Math.floor(runs * 0.5)]!), p99: ms(times[Math.min(runs - 1, Math.floor(runs * 0.99))]!), max: ms(times.at(-1)!) };
}

/** Every query the Subsonic API and dashboard make, each timed. */
async function queryLatencies(library: Library, runs: number): Promise<Record<string, { p50: number; p99: number; max: number }>> {
  const q = library.queries;
  const user = 'bench-user';
  const catalog = library.catalog;
  await catalog.sync();
  // Some marks so user lists have content.
  const someTracks = [...catalog.tracks.keys()].slice(0, 200);
  for (const [i, id] of someTracks.entries()) {
    if (i % 2 === 0) await library.annotations.scrobble(user, id);
    if (i % 5 === 0) await library.annotations.star(user, { id: [id] });
  }
  const album = [...catalog.albums.values()][Math.floor(catalog.albums.size / 2)]!;
  const artist = [...catalog.artists.values()].sort((a, b) => b.songCount - a.songCount)[0]!;
  const track = catalog.tracks.get(someTracks[0]!)!;
  const genre = [...catalog.genres.values()][0]!.name;
  const out: Record<string, { p50: number; p99: number; max: number }> = {};
  for (const type of ALBUM_LIST_TYPES) {
    const extra =
      type === 'byYear' ? { fromYear: 1990, toYear: 2010 } : type === 'byGenre' ? { genre } : type === 'search' ? { search: 'love' } : type === 'byArtist' ? { artistId: artist._id } : {};
    out[`albumList ${type}`] = await latency(() => q.albumList({ type, size: 50, offset: 100, userId: user, ...extra }), runs);
  }
  out['search3 latin'] = await latency(() => q.search({ query: 'love', artistCount: 20, albumCount: 20, songCount: 20, userId: user }), runs);
  out['search3 CJK'] = await latency(() => q.search({ query: '青春', artistCount: 20, albumCount: 20, songCount: 20, userId: user }), runs);
  out['search3 no match'] = await latency(() => q.search({ query: 'zzzqqq', userId: user }), runs);
  out['search3 empty p.50'] = await latency(() => q.search({ query: '', songCount: 50, songOffset: 5000, userId: user }), runs);
  out['artists a-z'] = await latency(() => q.artists({ size: 50, offset: 50, userId: user }), runs);
  out['artists most_albums'] = await latency(() => q.artists({ sort: 'most_albums', size: 50, userId: user }), runs);
  out['indexes'] = await latency(() => q.indexes({ userId: user }), runs);
  out['artist'] = await latency(() => q.artistDetail(artist._id, user), runs);
  out['album'] = await latency(() => q.albumDetail(album._id, user), runs);
  out['song'] = await latency(() => q.song(track._id, user), runs);
  out['directory'] = await latency(() => q.directory(track.folderId, user), runs);
  out['genres'] = await latency(() => q.genres(), runs);
  out['randomSongs 200'] = await latency(() => q.randomSongs({ size: 200, userId: user }), runs);
  out['songsByGenre'] = await latency(() => q.songsByGenre({ genre, count: 50, offset: 50, userId: user }), runs);
  out['starred'] = await latency(() => q.starred({ userId: user }), runs);
  out['topSongs'] = await latency(() => q.topSongs(artist.name, { count: 50, userId: user }), runs);
  out['similarSongs'] = await latency(() => q.similarSongs(track._id, { count: 50, userId: user }), runs);
  out['artistInfo'] = await latency(() => q.artistInfo(artist._id, { userId: user }), runs);
  out['discover'] = await latency(() => q.discover({ userId: user }), runs);
  out['coverArt'] = await latency(() => q.coverArt(album._id), runs);
  return out;
}

const worst = (lat: Record<string, { p99: number }>) => Object.entries(lat).sort((a, b) => b[1].p99 - a[1].p99)[0]!;

// ---------------------------------------------------------------- child: serve the big store
if (values.serve) {
  const started = performance.now();
  const base = rssMb();
  const { library, close } = await openAll(values.serve, values.media!);
  await library.catalog.sync();
  library.catalog.view();
  const loadMs = performance.now() - started;
  const loaded = rssMb();
  const lat = await queryLatencies(library, 20);
  const serving = rssMb();
  process.stdout.write(
    JSON.stringify({ tracks: library.catalog.tracks.size, albums: library.catalog.albums.size, loadMs: ms(loadMs), rssBaseMb: base, rssLoadedMb: loaded, rssServingMb: serving, latency: lat, heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1e5) / 10 }) + '\n',
  );
  await close();
  process.exit(0);
}

// ---------------------------------------------------------------- parent
const media = values.library!;
const manifest = await readFile(path.join(media, MANIFEST_FILE), 'utf8').then(
  (t) => JSON.parse(t) as { counts: { files: number } },
  async () => generateLibrary({ root: media, size: 10_000 }),
);
const work = await mkdtemp(path.join(tmpdir(), 'tagsonic-bench-scan-'));
const results: Record<string, unknown> = { library: media, files: manifest.counts.files };
try {
  const env = await openAll(path.join(work, 'store-10k'), media);
  const scanner = new Scanner({ roots: env.roots, library: env.library.store, catalog: env.library.catalog });
  let t = performance.now();
  const cold = await scanner.scan();
  const coldMs = performance.now() - t;
  results.cold = { ms: ms(coldMs), found: cold.found, read: cold.read, added: cold.added, failed: cold.failed.length, albums: cold.albums.added, artists: cold.artists.added, filesPerSec: Math.round(cold.read / (coldMs / 1000)) };
  t = performance.now();
  const again = await scanner.scan();
  results.rescan = { ms: ms(performance.now() - t), read: again.read, changed: again.added + again.updated + again.moved + again.removed };
  const watcher = new LibraryWatcher({ scanner, scans: env.library.scans });
  const tick = await watcher.tick();
  results.watcherTick = { ms: tick.durationMs, changed: tick.changes?.changed };
  results.rss10kMb = rssMb();
  results.latency10k = await queryLatencies(env.library, 60);

  if (!values['skip-big']) {
    // 100k synthetic tracks: ten renamed copies of every scanned track.
    const copies = Math.max(1, Math.round(Number(values.big) / env.library.catalog.tracks.size));
    const base = [...env.library.catalog.tracks.values()];
    const big: TrackDoc[] = [];
    for (let c = 0; c < copies; c++) {
      const tag = c === 0 ? '' : ` #${c + 1}`;
      for (const t0 of base) {
        const artists = t0.artists.map((a) => a + tag);
        const albumArtistsTag = t0.albumArtistsTag.map((a) => a + tag);
        big.push({
          ...t0,
          _id: c === 0 ? t0._id : newId(),
          path: c === 0 ? t0.path : t0.path.replace(/(\.[^.]+)$/, `${tag}$1`),
          relPath: c === 0 ? t0.relPath : t0.relPath.replace(/(\.[^.]+)$/, `${tag}$1`),
          title: t0.title + tag,
          artist: t0.artist + tag,
          artists,
          artistIds: artists.map(artistIdFor),
          albumArtistTag: t0.albumArtistTag === null ? null : t0.albumArtistTag + tag,
          albumArtistsTag,
          album: t0.album + tag,
          albumId: albumIdFor(t0.albumArtist + tag, t0.album + tag),
        });
      }
    }
    const assignments = assignAlbums(big);
    for (const t1 of big) Object.assign(t1, assignments.get(t1._id));
    const derived = aggregate(big);
    await env.close();
    const bigEnv = await openAll(path.join(work, 'store-big'), media);
    t = performance.now();
    await bigEnv.library.store.commit({ upsertTracks: big, upsertAlbums: derived.albums, upsertArtists: derived.artists, upsertGenres: derived.genres });
    results.big = { tracks: big.length, albums: derived.albums.length, artists: derived.artists.length, commitMs: ms(performance.now() - t), source: `synthetic: ${copies} renamed copies of the ${base.length} scanned tracks` };
    await bigEnv.close();
    const child = spawnSync(process.execPath, ['--expose-gc', process.argv[1]!, '--serve', path.join(work, 'store-big'), '--media', media], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (child.status !== 0) throw new Error(`serving child failed: ${child.stderr}`);
    const served = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    results.bigServe = served;
    const storeSize = (await stat(path.join(work, 'store-big', 'data.mdb')).catch(() => null))?.size;
    if (storeSize) (results.big as Record<string, unknown>).storeMb = Math.round(storeSize / 1e5) / 10;
  } else await env.close();
} finally {
  await rm(work, { recursive: true, force: true });
}

// ---------------------------------------------------------------- report
const line = (k: string, v: string) => console.log(`${k.padEnd(34)} ${v}`);
const cold = results.cold as Record<string, number>;
line('library', `${media} (${results.files} files)`);
line('cold scan (target ≤ 5000 ms)', `${cold.ms} ms — ${cold.read} files read, ${cold.filesPerSec} files/s, ${cold.added} tracks, ${cold.failed} unreadable`);
const re = results.rescan as Record<string, number>;
line('unchanged rescan (target ≤ 1000 ms)', `${re.ms} ms — ${re.read} files read, ${re.changed} changes`);
const wt = results.watcherTick as Record<string, unknown>;
line('watcher tick, nothing changed', `${wt.ms} ms (changed: ${wt.changed})`);
line('RSS after scan, 10k', `${results.rss10kMb} MB`);
const lat10 = results.latency10k as Record<string, { p50: number; p99: number }>;
for (const [k, v] of Object.entries(lat10)) line(`  10k ${k}`, `p50 ${v.p50} ms  p99 ${v.p99} ms`);
const w = worst(lat10);
line('worst p99, 10k (target ≤ 20 ms)', `${w[1].p99} ms (${w[0]})`);
if (results.bigServe) {
  const b = results.big as Record<string, unknown>;
  const s = results.bigServe as Record<string, unknown> & { latency: Record<string, { p99: number }> };
  line('100k library', `${b.tracks} tracks, ${b.albums} albums (${b.source}); commit ${b.commitMs} ms, store ${b.storeMb} MB`);
  line('100k catalogue load', `${s.loadMs} ms`);
  line('100k RSS serving (target ≤ 400 MB)', `${s.rssServingMb} MB (loaded ${s.rssLoadedMb} MB, empty process ${s.rssBaseMb} MB, heap ${s.heapUsedMb} MB)`);
  const wb = worst(s.latency);
  line('worst p99, 100k', `${wb[1].p99} ms (${wb[0]})`);
}
console.log(JSON.stringify(results));
