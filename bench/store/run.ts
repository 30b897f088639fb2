/**
 * Measures the embedded store on track-like documents: insert, reopen, indexed sorted paging, regex
 * search, $group, and memory. Loads in this process, then serves the queries from a fresh child
 * process (as the server would after a restart) so its RSS is what serving the collection costs.
 * Prints a table and a JSON line.
 *   node bench/store/run.ts [--docs 100000] [--dir <path>] [--keep]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import { openEmbeddedStore, type Doc, type EmbeddedStore } from '@tagsonic/core/store';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '100000' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
    serve: { type: 'boolean', default: false },
  },
});
const N = Number(values.docs);
const dir = values.dir ?? mkdtempSync(path.join(tmpdir(), 'tagsonic-bench-store-'));

// A real GC between phases makes the RSS figures mean "what the store keeps", not garbage.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const settle = () => {
  gc();
  gc();
};
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

const WORDS = ['love', 'night', 'day', 'fire', 'rain', 'heart', 'blue', 'dream', 'road', 'home', 'star', 'light', 'dance', 'sky', 'river', 'gold', 'time', 'world', 'song', 'moon', 'summer', 'shadow', 'city', 'ocean'];
const GENRES = ['Rock', 'Pop', 'Jazz', 'Electronic', 'Classical', 'Hip-Hop', 'Folk', 'Metal', 'Blues', 'Soul'];

/** Documents `from` … `from + n - 1`; the same index always gives the same document. */
function makeTracks(from: number, n: number): Doc[] {
  let seed = 1234567 + from;
  const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  const docs: Doc[] = [];
  for (let i = from; i < from + n; i++) {
    const albumNo = Math.floor(i / 12);
    const artistNo = albumNo % 2500;
    const title = `${pick(WORDS)} ${pick(WORDS)}${rnd() < 0.3 ? ` ${pick(WORDS)}` : ''}`;
    docs.push({
      _id: (1_700_000_000_000 + i).toString(16).padStart(12, '0') + (i & 0xffff).toString(16).padStart(4, '0') + Math.floor(rnd() * 0xffffffff).toString(16).padStart(8, '0'),
      path: `/music/Artist ${artistNo}/Album ${albumNo}/${String((i % 12) + 1).padStart(2, '0')} ${title}.flac`,
      title,
      artist: `Artist ${artistNo}`,
      artistId: `ar${artistNo}`,
      album: `Album ${albumNo}`,
      albumId: `al${albumNo}`,
      albumArtist: `Artist ${artistNo}`,
      track: (i % 12) + 1,
      disc: 1,
      year: 1960 + Math.floor(rnd() * 64),
      genre: pick(GENRES),
      duration: Math.round((120 + rnd() * 300) * 1000) / 1000,
      size: Math.floor(3e6 + rnd() * 5e7),
      bitRate: pick([128, 192, 256, 320, 900, 1411]),
      format: 'flac',
      playCount: Math.floor(rnd() * 200),
      created: new Date(1_600_000_000_000 + i * 37_000),
      starred: rnd() < 0.05 ? new Date(1_700_000_000_000 + i) : null,
      ...(rnd() < 0.2 ? { lyrics: `${pick(WORDS)} `.repeat(40) } : {}),
    });
  }
  return docs;
}

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

async function percentiles(runs: number, fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await time(() => fn(i))).ms);
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 100) / 100;
  return { p50: at(0.5), p99: at(0.99) };
}

const INDEXES = [
  { keys: { path: 1 }, unique: true },
  { keys: { title: 1 } },
  { keys: { albumId: 1, disc: 1, track: 1 } },
  { keys: { artistId: 1 } },
  { keys: { created: -1 } },
] as const;

type Row = [measure: string, result: string, target: string];

/** Child process: open the loaded store cold and answer the query mix; returns rows and figures. */
async function serve(): Promise<{ rows: Row[]; results: Record<string, unknown> }> {
  const rows: Row[] = [];
  const results: Record<string, unknown> = {};
  const row = (name: string, value: string, target = '') => rows.push([name, value, target]);
  const opened = await time(async () => {
    const s = await openEmbeddedStore({ dir });
    return { s, first: await s.collection('tracks').findOne({ path: { $regex: '^/music/Artist 7/' } }) };
  });
  const store = opened.value.s;
  try {
    const tracks = store.collection('tracks');
    results.coldOpenMs = Math.round(opened.ms * 10) / 10;
    row('cold open in a new process + first query', `${results.coldOpenMs} ms`, '≤ 1000 ms');

    const page = await percentiles(200, () => tracks.find({}, { sort: { title: 1 }, skip: 5_000, limit: 50 }));
    results.sortedPageTitleSkip5000 = page;
    row('find {} sort {title:1} skip 5000 limit 50', `p50 ${page.p50} ms, p99 ${page.p99} ms`, '≤ 5 ms');

    const deep = await percentiles(200, (i) => tracks.find({}, { sort: { created: -1 }, skip: (i * 397) % (N - 50), limit: 50 }));
    results.sortedPageCreatedRandomSkip = deep;
    row('find {} sort {created:-1} random skip limit 50', `p50 ${deep.p50} ms, p99 ${deep.p99} ms`);

    const album = await percentiles(200, (i) => tracks.find({ albumId: `al${(i * 131) % Math.floor(N / 12)}` }, { sort: { disc: 1, track: 1 } }));
    results.albumTracks = album;
    row('find {albumId} sort {disc, track} (12 docs)', `p50 ${album.p50} ms, p99 ${album.p99} ms`);

    const byPath = await percentiles(200, (i) => tracks.findOne({ path: { $regex: `^/music/Artist ${i % 2500}/` } }));
    results.pathPrefix = byPath;
    row('findOne {path: /^folder\\//}', `p50 ${byPath.p50} ms, p99 ${byPath.p99} ms`);

    const regex = await percentiles(20, () => tracks.find({ title: { $regex: 'love', $options: 'i' } }, { limit: 50 }));
    results.regexLimit50 = regex;
    row("find {title: {$regex: 'love', $options: 'i'}} limit 50", `p50 ${regex.p50} ms, p99 ${regex.p99} ms`);

    const scan = await percentiles(3, () => tracks.countDocuments({ title: { $regex: 'zzz-no-match', $options: 'i' } }));
    results.regexFullScan = scan;
    row('countDocuments, regex matching nothing (full scan)', `p50 ${scan.p50} ms`);

    const group = await percentiles(5, () => tracks.aggregate([{ $group: { _id: '$albumId', n: { $sum: 1 }, duration: { $sum: '$duration' } } }]));
    results.groupByAlbum = group;
    row('aggregate $group by albumId ($sum)', `p50 ${group.p50} ms, p99 ${group.p99} ms`);

    const count = await percentiles(50, (i) => tracks.countDocuments({ artistId: `ar${i % 2500}` }));
    results.countByArtist = count;
    row('countDocuments {artistId} (indexed)', `p50 ${count.p50} ms, p99 ${count.p99} ms`);

    const upd = await time(() =>
      Promise.all(Array.from({ length: 1_000 }, (_, i) => tracks.updateOne({ path: { $regex: `^/music/Artist ${i % 2500}/` } }, { $inc: { playCount: 1 } }))),
    );
    results.parallelUpdates1000Ms = Math.round(upd.ms);
    row('1000 parallel updateOne $inc (path prefix lookup)', `${results.parallelUpdates1000Ms} ms`);

    const peak = process.memoryUsage().rss;
    settle();
    results.serveRssMb = mb(process.memoryUsage().rss);
    results.servePeakRssMb = mb(peak);
    results.serveHeapUsedMb = mb(process.memoryUsage().heapUsed);
    row('RSS of the serving process after the queries', `${results.serveRssMb} MB (before GC ${results.servePeakRssMb} MB, heap ${results.serveHeapUsedMb} MB)`, '≤ 400 MB');
  } finally {
    await store.close();
  }
  return { rows, results };
}

/** This process: create the collection, insert in batches, reopen, then let a child serve. */
async function load(): Promise<{ rows: Row[]; results: Record<string, unknown> }> {
  const rows: Row[] = [];
  const results: Record<string, unknown> = { docs: N, node: process.version };
  const row = (name: string, value: string, target = '') => rows.push([name, value, target]);
  let store: EmbeddedStore = await openEmbeddedStore({ dir });
  try {
    await store.collection('tracks').createIndexes([...INDEXES]);
    settle();
    const rssBefore = process.memoryUsage().rss;
    const BATCH = 10_000;
    let generating = 0;
    const insert = await time(async () => {
      for (let i = 0; i < N; i += BATCH) {
        const t0 = performance.now();
        const docs = makeTracks(i, Math.min(BATCH, N - i));
        generating += performance.now() - t0;
        await store.collection('tracks').insertMany(docs);
      }
    });
    const insertMs = insert.ms - generating;
    results.insertMs = Math.round(insertMs);
    row(`insert ${N} docs (insertMany of ${BATCH}, 5 indexes)`, `${results.insertMs} ms (${Math.round(N / (insertMs / 1000))} docs/s)`);
    settle();
    results.loadRssMb = mb(process.memoryUsage().rss);
    row('RSS of the loading process after the load', `${results.loadRssMb} MB (${mb(rssBefore)} MB before)`);

    await store.close();
    const reopen = await time(async () => {
      store = await openEmbeddedStore({ dir });
      return store.collection('tracks').find({}, { sort: { title: 1 }, limit: 50 });
    });
    results.reopenMs = Math.round(reopen.ms * 10) / 10;
    row('reopen (close, open, first sorted page answered)', `${results.reopenMs} ms`, '≤ 1000 ms');
  } finally {
    await store.close();
  }
  return { rows, results };
}

if (values.serve) {
  const out = await serve();
  process.stdout.write(`SERVE ${JSON.stringify(out)}\n`);
} else {
  try {
    const loaded = await load();
    const child = spawnSync(process.execPath, [import.meta.filename, '--serve', '--dir', dir, '--docs', String(N)], { encoding: 'utf8', maxBuffer: 1 << 24 });
    const line = child.stdout.split('\n').find((l) => l.startsWith('SERVE '));
    if (!line) throw new Error(`the serving process failed: ${child.stderr}`);
    const served = JSON.parse(line.slice(6)) as { rows: Row[]; results: Record<string, unknown> };
    const rows = [...loaded.rows, ...served.rows];
    const results = { ...loaded.results, ...served.results };
    const w0 = Math.max(...rows.map((r) => r[0].length));
    const w1 = Math.max(...rows.map((r) => r[1].length));
    console.log(`\nTagsonic embedded store bench — ${N} track-like documents, Node ${process.version}\n`);
    console.log(`${'measure'.padEnd(w0)}  ${'result'.padEnd(w1)}  target`);
    console.log(`${'-'.repeat(w0)}  ${'-'.repeat(w1)}  ------`);
    for (const [a, b, c] of rows) console.log(`${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
    console.log(`\nJSON ${JSON.stringify(results)}`);
  } finally {
    if (!values.keep && !values.dir) rmSync(dir, { recursive: true, force: true });
  }
}
