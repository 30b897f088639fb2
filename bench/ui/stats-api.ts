/**
 * Statistics API latencies (gateway/src/routes/stats.ts) on the cached 10k library with 50 000 plays:
 *   node --no-node-snapshot bench/ui/stats-api.ts [--library /tmp/tagsonic-bench-10k] [--plays 50000] [--runs 30]
 *        [--days 730] [--tz Asia/Shanghai]
 *
 * 1. A temp home whose media folder is the library, scanned with the real scanner (embedded store), a V2 user
 *    signed in to the dashboard.
 * 2. `--plays` plays of that user written straight into the play log (seeded: a skewed choice of tracks, five
 *    clients, times spread evenly over the last `--days` days — two years by default, so a `year` request reads
 *    this and last year's, nearly all of them) plus the per-user play counts the annotations keep (what
 *    listening_record reads), each with the id it would have got when scrobbled at its time. Scrobbling them one
 *    by one through /rest would take minutes of fsyncs and measure nothing more.
 * 3. Every route (and every period of the period routes) called `--runs` times one after another with `inject()`
 *    (no socket): p50/p99/max in ms; target p99 ≤ 50 ms each. Prints a table and a JSON line.
 */
import { mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@tagsonic/core/config';
import { annotationId, type AnnotationDoc, type ItemType, type PlayLogDoc } from '@tagsonic/core/library';
import { buildApp } from '@tagsonic/gateway';
import { gatewayDeps, openRuntime } from '@tagsonic/cli';
import { generateLibrary, MANIFEST_FILE } from '@tagsonic/test/library';
import { Scanner } from '@tagsonic/workers/scanner';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: '/tmp/tagsonic-bench-10k' },
    plays: { type: 'string', default: '50000' },
    runs: { type: 'string', default: '30' },
    days: { type: 'string', default: '730' },
    tz: { type: 'string' },
  },
});
if (values.tz) process.env.TZ = values.tz;
const library = path.resolve(values.library!);
const PLAYS = Number(values.plays);
const RUNS = Number(values.runs);
const DAYS = Number(values.days);
const TARGET_MS = 50;
const CLIENTS = ['Feishin', 'DSub', 'Symfonium', 'Sonixd', 'tagsonic'];

const log = (line: string) => process.stderr.write(`${line}\n`);
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** A play log id as `newId` makes it when the play is scrobbled at `ms` (ids sort by creation time). */
const idAt = (ms: number, i: number) => ms.toString(16).padStart(12, '0') + (i & 0xffff).toString(16).padStart(4, '0') + (i >>> 16).toString(16).padStart(8, '0');

/** mulberry32: the same plays every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

await stat(path.join(library, MANIFEST_FILE)).catch(async () => {
  log(`generating the 10k library in ${library} …`);
  await generateLibrary({ root: library, size: 10_000 });
});

const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-bench-stats-'));
await symlink(library, path.join(home, 'media'));
const rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
try {
  await rt.users.ensureAdmin('bench-admin-password');
  const scanStart = performance.now();
  await new Scanner({ roots: rt.roots, library: rt.library.store, catalog: rt.library.catalog, bus: rt.bus }).scan();
  log(`scanned in ${round((performance.now() - scanStart) / 1000)} s`);
  await rt.library.catalog.sync();
  const tracks = [...rt.library.catalog.tracks.values()];
  const admin = (await rt.users.findByName('admin'))!;

  // ---- plays: track i with weight ~ 1/(rank+1) (a few favourites, a long tail)
  const rnd = random(13);
  const now = Date.now();
  const playsDocs: PlayLogDoc[] = [];
  const counts = new Map<string, { type: ItemType; id: string; n: number; last: number }>();
  const count = (type: ItemType, id: string, at: number) => {
    const key = `${type}:${id}`;
    const c = counts.get(key);
    if (c) {
      c.n++;
      c.last = Math.max(c.last, at);
    } else counts.set(key, { type, id, n: 1, last: at });
  };
  for (let i = 0; i < PLAYS; i++) {
    const t = tracks[Math.floor(tracks.length * rnd() ** 3)]!;
    const at = now - Math.floor(rnd() * DAYS * 86_400_000);
    const artistIds = [...new Set([...t.artistIds, ...t.albumArtistIds])];
    playsDocs.push({ _id: idAt(at, i), userId: admin._id, trackId: t._id, albumId: t.albumId, artistIds, genres: t.genres, duration: t.duration, playedAt: new Date(at), client: CLIENTS[i % CLIENTS.length]! });
    count('track', t._id, at);
    count('album', t.albumId, at);
    for (const a of artistIds) count('artist', a, at);
  }
  const writeStart = performance.now();
  for (let i = 0; i < playsDocs.length; i += 10_000) await rt.library.store.playLog.insertMany(playsDocs.slice(i, i + 10_000));
  const marks: AnnotationDoc[] = [...counts.values()].map((c) => ({
    _id: annotationId(admin._id, c.type, c.id),
    userId: admin._id,
    itemType: c.type,
    itemId: c.id,
    starred: null,
    rating: 0,
    playCount: c.n,
    lastPlayed: new Date(c.last),
    updatedAt: new Date(),
  }));
  for (let i = 0; i < marks.length; i += 10_000) await rt.library.store.annotations.insertMany(marks.slice(i, i + 10_000));
  log(`wrote ${PLAYS} plays and ${marks.length} play counts in ${round((performance.now() - writeStart) / 1000)} s`);

  const app = await buildApp(gatewayDeps(rt, { buildId: 'bench', dashboardDir: path.join(home, 'no-dashboard') }));
  await app.ready();
  const signIn = await app.inject({ method: 'POST', url: '/apimt/token/', payload: { username: 'admin', password: 'bench-admin-password' } });
  const cookie = signIn.cookies.map((c) => `${c.name}=${encodeURIComponent(c.value)}`).join('; ');

  const urls = [
    '/apimt/music_count/',
    '/apimt/listening_record/?page_size=8',
    '/apimt/progress_static/',
    '/apimt/progress_rate/?mode=lyrics&page=3&page_size=50',
    ...['week_record', 'perfect_music', 'hot_genres', 'hot_decades', 'platform_stats', 'listening_stats', 'listening_clock'].flatMap((r) =>
      ['week', 'month', 'year'].map((p) => `/apimt/${r}/?period=${p}`),
    ),
  ];
  const rows: Array<{ route: string; p50: number; p99: number; max: number; ok: boolean }> = [];
  for (const url of urls) {
    const times: number[] = [];
    for (let i = 0; i < RUNS + 2; i++) {
      const t = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      const ms = performance.now() - t;
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      if (i >= 2) times.push(ms); // two warm-up calls
    }
    times.sort((a, b) => a - b);
    const p99 = percentile(times, 99);
    rows.push({ route: url.replace('/apimt/', ''), p50: round(percentile(times, 50)), p99: round(p99), max: round(times.at(-1)!), ok: p99 <= TARGET_MS });
  }
  const width = Math.max(...rows.map((r) => r.route.length));
  console.log(`${'route'.padEnd(width)}  p50 ms  p99 ms  max ms  (target p99 ≤ ${TARGET_MS} ms; ${tracks.length} tracks, ${PLAYS} plays over ${DAYS} days, TZ ${Intl.DateTimeFormat().resolvedOptions().timeZone})`);
  for (const r of rows) console.log(`${r.route.padEnd(width)}  ${String(r.p50).padStart(6)}  ${String(r.p99).padStart(6)}  ${String(r.max).padStart(6)}  ${r.ok ? 'ok' : 'OVER'}`);
  console.log(`JSON ${JSON.stringify({ tracks: tracks.length, plays: PLAYS, days: DAYS, runs: RUNS, rows })}`);
  await app.close();
} finally {
  await rt.close();
  await rm(home, { recursive: true, force: true });
}
