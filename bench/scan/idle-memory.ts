/**
 * Idle-memory bench: the resident set of the real server process after a cold scan, idle, and serving.
 *   node bench/scan/idle-memory.ts [--library /tmp/tagsonic-bench-10k] [--idle 30] [--long-idle 0]
 *        [--serve 20] [--connections 8] [--checkout .] [--malloc-env off]
 *
 * Starts `tagsonic start` as `./run start` does (`node --no-node-snapshot --max-semi-space-size=8
 * cli/src/main.ts start` with the launchers' glibc malloc settings, core/src/memory/malloc-env.ts, unless
 * --malloc-env off; from --checkout: another clone measures another version) with a temp home whose
 * media folder is the library, so the server's own start-up watcher tick queues the cold scan.
 * Samples /proc/<pid>/status every 250 ms (VmRSS, RssAnon, RssFile, threads) and reports:
 *   1. the peak during the scan and the resident set when getScanStatus says it is done;
 *   2. after --idle seconds with no request (the target: ≤ 150 MB serving 10k tracks);
 *   3. while serving `wrk` (1 thread, --connections) for --serve seconds over a mix of Subsonic calls
 *      (getArtists, getAlbumList2, getAlbum, getSong, search3, getRandomSongs, getGenres, ping) — max and
 *      last sample — and 15 s after the load (past the server's quiet-time collection);
 *   4. with --long-idle N, once more after N further idle seconds.
 * Prints a table and one JSON line. A script, not a timed test: run it alone (2 shared cores).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { MALLOC_ENV } from '@tagsonic/core/memory';
import { generateLibrary, MANIFEST_FILE } from '@tagsonic/test/library';
import { freePort } from '../../test/support/free-port.ts';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: '/tmp/tagsonic-bench-10k' },
    idle: { type: 'string', default: '30' },
    'long-idle': { type: 'string', default: '0' },
    serve: { type: 'string', default: '20' },
    connections: { type: 'string', default: '8' },
    checkout: { type: 'string', default: path.resolve(import.meta.dirname, '../..') },
    /** The server's young generation (./run gives 8): compare another size. */
    'semi-space': { type: 'string', default: '8' },
    /** More flags for the server's node, space-separated: `--node-flags=--optimize-for-size`. */
    'node-flags': { type: 'string', default: '' },
    /** Only these methods in the mix (e.g. search3,getRandomSongs): which call holds memory. */
    only: { type: 'string' },
    /** `off`: start the server without the launchers' glibc malloc settings (core/src/memory/malloc-env.ts). */
    'malloc-env': { type: 'string', default: 'on' },
  },
});

const library = path.resolve(values.library!);
const checkout = path.resolve(values.checkout!);
const PASSWORD = 'bench-subsonic-password';
const log = (line: string) => process.stderr.write(`${line}\n`);
const mb = (kb: number) => Math.round(kb / 102.4) / 10;

if (spawnSync('sh', ['-c', 'command -v wrk']).status !== 0) {
  log('wrk is missing: apt-get install wrk');
  process.exit(2);
}
const files = await readFile(path.join(library, MANIFEST_FILE), 'utf8').then(
  (t) => (JSON.parse(t) as { counts: { byKind: { audio: number } } }).counts.byKind.audio,
  async () => {
    log(`generating the 10k library in ${library} …`);
    return (await generateLibrary({ root: library, size: 10_000 })).counts.byKind.audio;
  },
);

interface Sample {
  /** Seconds since the server started. */
  t: number;
  rss: number;
  anon: number;
  file: number;
  threads: number;
}

/** One reading of /proc/<pid>/status, in MB. */
async function sample(pid: number, t0: number): Promise<Sample> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { t: Math.round((performance.now() - t0) / 100) / 10, rss: mb(kb('VmRSS')), anon: mb(kb('RssAnon')), file: mb(kb('RssFile') + kb('RssShmem')), threads: kb('Threads') };
}

/**
 * Where the anonymous memory is, from /proc/<pid>/smaps: V8 heap pages (its 256 KiB mappings), the
 * main thread's malloc heap ([heap]: buffers, native libraries; freed memory inside it stays resident),
 * and the rest (thread stacks and arenas, large V8 objects, mmapped buffers).
 */
async function breakdown(pid: number): Promise<{ v8Pages: number; mallocHeap: number; other: number }> {
  const smaps = await readFile(`/proc/${pid}/smaps`, 'utf8');
  let v8Pages = 0;
  let mallocHeap = 0;
  let other = 0;
  for (const region of smaps.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const head = region.slice(0, region.indexOf('\n'));
    const [start, end] = head.split(' ')[0]!.split('-').map((x) => parseInt(x, 16));
    const anon = Number(/^Anonymous:\s+(\d+)/m.exec(region)?.[1] ?? 0);
    if (head.includes('[heap]')) mallocHeap += anon;
    else if (end! - start! === 256 * 1024 && !head.includes('/')) v8Pages += anon;
    else other += anon;
  }
  return { v8Pages: mb(v8Pages), mallocHeap: mb(mallocHeap), other: mb(other) };
}

const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-bench-idle-'));
await symlink(library, path.join(home, 'media'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const auth = `u=admin&p=${PASSWORD}&v=1.16.1&c=bench&f=json`;
let server: ChildProcess | undefined;
const results: Record<string, unknown> = { library, files, checkout, load: (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ') };

async function call<T>(method: string, query = ''): Promise<T> {
  const res = await fetch(`${base}/rest/${method}?${auth}${query ? `&${query}` : ''}`);
  const body = (await res.json()) as { 'subsonic-response': { status: string; error?: { message: string } } & Record<string, unknown> };
  const r = body['subsonic-response'];
  if (r.status !== 'ok') throw new Error(`${method}: ${r.error?.message ?? res.status}`);
  return r as T;
}

try {
  const t0 = performance.now();
  server = spawn(process.execPath, ['--no-node-snapshot', `--max-semi-space-size=${values['semi-space']}`, ...values['node-flags']!.split(' ').filter(Boolean), 'cli/src/main.ts', 'start'], {
    cwd: checkout,
    env: { ...(values['malloc-env'] === 'off' ? {} : MALLOC_ENV), ...process.env, TAGSONIC_HOME: home, TAGSONIC_PORT: String(port), TAGSONIC_HOST: '127.0.0.1', TAGSONIC_ADMIN_PASSWORD: 'bench-admin-password', TAGSONIC_SUBSONIC_PASSWORD: PASSWORD, TAGSONIC_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = server.pid!;
  let output = '';
  server.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  server.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<never>((_, reject) => server!.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`))));
  exited.catch(() => undefined);

  // Every 250 ms for the whole run: the peak of a phase is its largest sample.
  const samples: Sample[] = [];
  const sampler = setInterval(() => void sample(pid, t0).then((s) => samples.push(s), () => undefined), 250);
  const since = (t: number) => samples.filter((s) => s.t >= t);
  const peak = (list: Sample[]) => list.reduce((a, b) => (b.rss > a.rss ? b : a));
  const now = () => Math.round((performance.now() - t0) / 100) / 10;

  await Promise.race([exited, (async () => {
    while (!output.includes('listening on')) await sleep(100);
  })()]);
  log(`server ${pid} listening on ${base}; waiting for the cold scan of ${files} audio files …`);
  await Promise.race([exited, (async () => {
    for (;;) {
      const { scanStatus } = await call<{ scanStatus: { scanning: boolean; count: number } }>('getScanStatus');
      if (!scanStatus.scanning && scanStatus.count >= files) return;
      await sleep(250);
    }
  })()]);
  const scanEnd = now();
  results.scanSeconds = scanEnd;
  results.scanPeak = peak(samples);
  results.afterScan = await sample(pid, t0);

  const idle = Number(values.idle);
  log(`scan done at ${scanEnd} s; idle for ${idle} s …`);
  await sleep(idle * 1000);
  results.idle = await sample(pid, t0);
  results.idleBreakdown = await breakdown(pid);

  // The request mix: ids from the server's own answers.
  type AlbumList = { albumList2: { album: Array<{ id: string }> } };
  const albums = (await call<AlbumList>('getAlbumList2', 'type=alphabeticalByName&size=500')).albumList2.album.map((a) => a.id);
  const songs: string[] = [];
  for (const id of albums.slice(0, 40)) songs.push(...(await call<{ album: { song: Array<{ id: string }> } }>('getAlbum', `id=${id}`)).album.song.map((s) => s.id));
  const words = ['love', 'night', 'a', 'the', 'Emily', 'Vol', 'blue', 'song', 'mix', 'live'];
  const paths: string[] = ['ping', 'getArtists', 'getGenres'];
  for (let i = 0; i < 40; i++) {
    paths.push(`getAlbumList2&type=alphabeticalByName&size=50&offset=${(i * 50) % 2000}`, `getAlbumList2&type=newest&size=50&offset=${(i * 50) % 1000}`);
    paths.push(`getAlbum&id=${albums[(i * 7) % albums.length]}`, `getSong&id=${songs[(i * 13) % songs.length]}`);
    paths.push(`search3&query=${encodeURIComponent(words[i % words.length]!)}&songCount=20&albumCount=20&artistCount=20`, 'getRandomSongs&size=50');
  }
  const only = values.only?.split(',');
  const mix = only ? paths.filter((p) => only.includes(p.split('&')[0]!)) : paths;
  if (mix.length === 0) throw new Error(`--only ${values.only}: no such method in the mix`);
  const script = path.join(home, 'mix.lua');
  await writeFile(
    script,
    `local paths = {${mix.map((p) => {
      const [method, ...query] = p.split('&');
      return JSON.stringify(`/rest/${method}?${[auth, ...query].join('&')}`);
    }).join(',')}}
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("JSON {\\"requests\\":%d,\\"us\\":%d,\\"errors\\":%d,\\"p99\\":%d}\\n",
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout + e.status, latency:percentile(99)))
end
`,
  );
  const serveSeconds = Number(values.serve);
  log(`serving wrk for ${serveSeconds} s …`);
  const serveStart = now();
  const wrkOut = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', ['-t1', `-c${values.connections}`, `-d${serveSeconds}s`, '--timeout', '10s', '-s', script, base], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('close', () => resolve(out));
  });
  const serving = since(serveStart);
  const line = wrkOut.split('\n').find((l) => l.startsWith('JSON '));
  if (!line) throw new Error(`wrk failed: ${wrkOut}`);
  const w = JSON.parse(line.slice(5)) as { requests: number; us: number; errors: number; p99: number };
  results.serving = { max: peak(serving), last: serving.at(-1), reqPerSec: Math.round(w.requests / (w.us / 1e6)), errors: w.errors, p99Ms: w.p99 / 1000 };
  // Past the server's quiet-time collection (core/src/memory: 10 s after the last call).
  await sleep(15_000);
  results.afterServing = await sample(pid, t0);
  results.afterServingBreakdown = await breakdown(pid);
  const longIdle = Number(values['long-idle']);
  if (longIdle > 0) {
    log(`idle for ${longIdle} s more …`);
    await sleep(longIdle * 1000);
    results.longIdle = await sample(pid, t0);
  }
  clearInterval(sampler);

  const row = (name: string, s: Sample | undefined) => (s ? `| ${name} | ${s.rss} | ${s.anon} | ${s.file} | ${s.threads} | ${s.t} |` : '');
  const srv = results.serving as { max: Sample; last: Sample; reqPerSec: number; errors: number; p99Ms: number };
  process.stdout.write(
    [
      `\nIdle memory — ${files} audio files in ${library}, server from ${checkout}, --max-semi-space-size=${values['semi-space']} ${values['node-flags']}, malloc env ${values['malloc-env']}; load ${results.load as string}; cold scan ${scanEnd} s after start`,
      '',
      '| moment | RSS MB | anonymous | file-backed | threads | at s |',
      '|---|---:|---:|---:|---:|---:|',
      row('scan peak', results.scanPeak as Sample),
      row('scan done', results.afterScan as Sample),
      row(`idle ${idle} s`, results.idle as Sample),
      row(`serving, max (${srv.reqPerSec} req/s, p99 ${srv.p99Ms} ms, ${srv.errors} errors)`, srv.max),
      row('serving, last sample', srv.last),
      row('15 s after serving', results.afterServing as Sample),
      longIdle > 0 ? row(`idle ${longIdle} s more`, results.longIdle as Sample) : '',
      '',
      `anonymous memory, idle: ${JSON.stringify(results.idleBreakdown)}; after serving: ${JSON.stringify(results.afterServingBreakdown)}`,
      'target: ≤ 150 MB serving 10k tracks after the scan',
      `JSON ${JSON.stringify(results)}`,
      '',
    ]
      .filter((l, i, all) => l !== '' || all[i - 1] !== '')
      .join('\n'),
  );
} finally {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
  }
  await rm(home, { recursive: true, force: true });
}
