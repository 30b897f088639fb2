/**
 * Candidate search end to end through smart_tag, and through one direct source as the peer figure, on the real
 * path: HTTP POST /apimt/fetch_id3_by_title/ to the real server in embedded mode (temp home, embedded store,
 * built-in plugins synced into the registry, a worker whose plugin pool answers over the in-process bus, the
 * gateway listening on a loopback port, as test/scrape-routes.test.ts starts it), every source pointed by
 * TAGSONIC_SOURCE_URL_<ID> at a local replay server answering what its own test replays
 * (bench/plugins/source-replays.ts), and a real audio file named in `full_path` (its duration is read).
 *   node --no-node-snapshot bench/plugins/smart-tag.ts [--requests 200] [--concurrency 8] [--peer netease]
 *        [--limits off|production]
 *
 * --limits off (default): the pool is built as the worker builds it but with the sources' request pacing lifted
 *   (httpLimits.ratePerSec 0), so the figures are the machinery's: bus, registry checks, sandboxes, smart_tag's
 *   fan-out, guarded http to the fakes, scoring, JSON. --limits production: the worker exactly as shipped
 *   (startWorker), so each source's pacing applies (5 requests/s, MusicBrainz 1/s, iTunes one every 3 s):
 *   what a user looking up songs back to back waits; use a few requests (--requests 6 --concurrency 3). This
 *   mode adds a row of lookups each made after 3.5 s without any (every source's pacing has a token again):
 *   what one lookup in the editor costs.
 * For each target: a warm-up (sandboxes created, JIT), then --requests one at a time and --requests with
 * --concurrency in flight; p50/p99 ms and requests/s, the fakes' HTTP requests per search, the sources present
 * in smart_tag's answers (a source that failed would silently be missing), the CPU time per search of the whole
 * process (all threads: gateway, worker, sandboxes — and the replay servers and the client, which run in it too),
 * and smart_tag ÷ peer.
 * Every search smart_tag makes must reach every source's fake (`missed` counts those that did not: a source
 * that failed or was disabled is skipped by smart_tag without failing the lookup), and the registry's view of
 * each source afterwards (calls, failures, auto-disable, last error) is printed.
 * Prints a table and one JSON line; exits 1 if any lookup failed, if a source was switched off, or (pacing off)
 * if a search missed a source — with production pacing a busy source is skipped by design and only reported.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@tagsonic/core/config';
import type { Manifest } from '@tagsonic/sdk';
import { buildApp } from '@tagsonic/gateway';
import { startWorker, type Worker } from '@tagsonic/workers';
import { PluginPool, servePluginInvocations } from '@tagsonic/workers/plugin-pool';
import { BUILTIN_PLUGINS_DIR, builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import { gatewayDeps, openRuntime } from '@tagsonic/cli';
import { makeAudio } from '../../test/support/audio.ts';
import { startReplayServer, type ReplayServer } from '../../test/support/replay-server.ts';
import { IS_SEARCH, SOURCE_REPLAYS } from './source-replays.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '8' },
    peer: { type: 'string', default: 'netease' },
    limits: { type: 'string', default: 'off' },
  },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const peer = values.peer!;
const limits = values.limits!;
if (!(requests > 0) || !(concurrency > 0) || !['off', 'production'].includes(limits) || !(peer in SOURCE_REPLAYS)) {
  console.error(`usage: bench/plugins/smart-tag.ts [--requests N] [--concurrency M] [--peer ${Object.keys(SOURCE_REPLAYS).join('|')}] [--limits off|production]`);
  process.exit(2);
}
const SMART_TAG = 'smart_tag';
const ADMIN_PASSWORD = 'bench-admin-password';
const WARMUP = 10;
const log = (line: string) => process.stderr.write(`${line}\n`);

// ------------------------------------------------------------------ fakes and server

const fakes = new Map<string, ReplayServer>();
for (const [id, answer] of Object.entries(SOURCE_REPLAYS)) {
  const fake = await startReplayServer(answer);
  fakes.set(id, fake);
  // The worker's pool reads the overrides from the environment, as in production.
  process.env[`TAGSONIC_SOURCE_URL_${id.toUpperCase()}`] = fake.baseUrl;
}
const fakeRequests = () => [...fakes.values()].reduce((n, f) => n + f.seen.length, 0);
/** Song searches each source's fake has received so far. */
const searchesBySource = () => new Map([...fakes].map(([id, f]) => [id, f.seen.filter(IS_SEARCH[id]!).length]));

const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-bench-smart-tag-'));
const rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
await rt.users.ensureAdmin(ADMIN_PASSWORD);

const shipped = await readdir(BUILTIN_PLUGINS_DIR);
const hasSmartTag = shipped.includes(SMART_TAG);
for (const id of [...fakes.keys(), ...(hasSmartTag ? [SMART_TAG] : [])]) {
  const { manifest, code } = await builtinPlugin(id);
  await rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
  if (!(await rt.plugins.get(id))?.enabled) await rt.plugins.setEnabled(id, true);
}
if (!hasSmartTag) log(`plugins/${SMART_TAG} is not in this checkout: only the direct sources are measured`);

const workerDeps = { bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 2 };
let pool: PluginPool | undefined;
let worker: Worker;
if (limits === 'production') {
  worker = await startWorker({ ...workerDeps, plugins: { registry: rt.plugins, store: rt.store } });
} else {
  // What startWorker does for `plugins`, with the sources' pacing lifted (see the header).
  worker = await startWorker(workerDeps);
  pool = new PluginPool({ registry: rt.plugins, store: rt.store, bus: rt.bus, roots: rt.roots, journal: rt.journal, load: { httpLimits: { ratePerSec: 0 } } });
  await servePluginInvocations(rt.bus, pool, Math.max(workerDeps.concurrency, 4));
}
const app = await buildApp(gatewayDeps(rt, { buildId: 'bench', dashboardDir: path.join(home, 'no-dashboard') }));
const base = await app.listen({ host: '127.0.0.1', port: 0 });

const media = rt.roots.root('media').dir;
const file = path.join(media, '晴天.mp3');
await makeAudio(file, { seconds: 5, tags: { title: '晴天', artist: '周杰伦' } });

const token = await fetch(`${base}/apimt/token/`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
}).then(async (res) => ((await res.json()) as { token: string }).token);

// ------------------------------------------------------------------ measuring

interface Answer { ok: boolean; resources: string[]; error?: string }

/** One lookup as the editor sends it. */
async function lookup(resource: string): Promise<Answer> {
  const res = await fetch(`${base}/apimt/fetch_id3_by_title/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `jwt ${token}` },
    body: JSON.stringify({ title: '晴天', artist: '周杰伦', album: '叶惠美', full_path: file, resource }),
  });
  const body = (await res.json()) as { result: boolean; message: string; data: Array<{ resource: string }> | { error?: string } };
  if (res.status !== 200 || !body.result || !Array.isArray(body.data) || body.data.length === 0) {
    return { ok: false, resources: [], error: `HTTP ${res.status} ${(body.data as { error?: string })?.error ?? ''} ${body.message}` };
  }
  return { ok: true, resources: [...new Set(body.data.map((s) => s.resource))] };
}

interface Row { target: string; inFlight: number; idleMs: number; requests: number; p50Ms: number; p99Ms: number; perSecond: number; cpuMsPerSearch: number; errors: number; httpPerSearch: number;
  /** Source searches that never reached their fake (smart_tag skipped a failed or disabled source), by source. */
  missed: Record<string, number> }

const errors: string[] = [];
const resourcesSeen = new Map<string, Set<string>>();

/** Above every source's request spacing (iTunes: one per 3 s), so a lookup after it waits for no pacing. */
const IDLE_MS = 3_500;

/** `count` lookups with `limit` in flight, each worker pausing `idleMs` before each of its lookups. */
async function measure(target: string, limit: number, count = requests, idleMs = 0): Promise<Row> {
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  let idle = 0;
  const before = fakeRequests();
  const searchesBefore = searchesBySource();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < count) {
      next++;
      if (idleMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, idleMs));
        idle += idleMs;
      }
      const t = performance.now();
      const answer = await lookup(target);
      latencies.push(performance.now() - t);
      if (!answer.ok) {
        failed++;
        if (errors.length < 5) errors.push(`${target}: ${answer.error}`);
      }
      const seen = resourcesSeen.get(target) ?? new Set();
      for (const r of answer.resources) seen.add(r);
      resourcesSeen.set(target, seen);
    }
  }));
  const seconds = (performance.now() - started - idle / limit) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  const missed: Record<string, number> = {};
  for (const [id, n] of searchesBySource()) {
    const short = count - (n - searchesBefore.get(id)!);
    if ((target === SMART_TAG || target === id) && short > 0) missed[id] = short;
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return {
    target, inFlight: limit, idleMs, requests: count, p50Ms: +at(0.5).toFixed(1), p99Ms: +at(0.99).toFixed(1),
    perSecond: +(count / seconds).toFixed(1), cpuMsPerSearch: +((user + system) / 1000 / count).toFixed(1), errors: failed, httpPerSearch: +((fakeRequests() - before) / count).toFixed(1), missed,
  };
}

const targets = hasSmartTag ? [SMART_TAG, peer] : [peer];
const rows: Row[] = [];
const sourceStates: Array<{ id: string; enabled: boolean; disabledReason: string | null; calls: number; failures: number; lastError: string }> = [];
try {
  for (const target of targets) {
    log(`${target}: warming up …`);
    for (let i = 0; i < WARMUP; i++) {
      const answer = await lookup(target);
      if (!answer.ok) throw new Error(`warm-up lookup through ${target} failed: ${answer.error}`);
    }
    for (const limit of [1, concurrency]) {
      log(`${target}: ${requests} requests, ${limit} in flight …`);
      rows.push(await measure(target, limit));
    }
    if (limits === 'production') {
      const count = Math.min(requests, 5);
      log(`${target}: ${count} requests, each after ${IDLE_MS / 1000} s idle …`);
      rows.push(await measure(target, 1, count, IDLE_MS));
    }
  }
} finally {
  await app.close();
  await pool?.close();
  await worker.close();
  // What the registry says of each source afterwards (the pools flush their health on close).
  for (const id of [...fakes.keys(), ...(hasSmartTag ? [SMART_TAG] : [])]) {
    const record = await rt.plugins.get(id);
    sourceStates.push({
      id, enabled: record?.enabled ?? false, disabledReason: record?.disabledReason ?? null, calls: record?.health.calls ?? 0,
      failures: record?.health.failures ?? 0, lastError: record?.health.lastError ? `${record.health.lastError.code}: ${record.health.lastError.message}`.slice(0, 90) : '',
    });
  }
  await rt.close();
  for (const fake of fakes.values()) await fake.close();
  await rm(home, { recursive: true, force: true });
}

console.table(rows.map(({ missed, ...row }) => ({ ...row, missed: Object.entries(missed).map(([id, n]) => `${id} ${n}`).join(', ') })));
const ratios = hasSmartTag
  ? rows.filter((r) => r.target === SMART_TAG).map(({ inFlight, idleMs }) => {
    const s = rows.find((r) => r.target === SMART_TAG && r.inFlight === inFlight && r.idleMs === idleMs)!;
    const p = rows.find((r) => r.target === peer && r.inFlight === inFlight && r.idleMs === idleMs)!;
    return { inFlight, idleMs, p50: +(s.p50Ms / p.p50Ms).toFixed(2), p99: +(s.p99Ms / p.p99Ms).toFixed(2), perSecond: +(s.perSecond / p.perSecond).toFixed(2) };
  })
  : [];
if (hasSmartTag) {
  console.log(`smart_tag ÷ ${peer} (latency ×, throughput ×):`);
  console.table(ratios);
  const sources = [...(resourcesSeen.get(SMART_TAG) ?? [])].sort();
  const missing = Object.keys(SOURCE_REPLAYS).filter((id) => !sources.includes(id));
  console.log(`smart_tag answers held candidates of: ${sources.join(', ')}${missing.length ? ` — missing: ${missing.join(', ')}` : ''}`);
}
for (const e of errors) console.log(`error: ${e}`);
for (const row of rows.filter((r) => Object.keys(r.missed).length > 0)) {
  console.log(`${row.target}, ${row.inFlight} in flight${row.idleMs ? `, after ${row.idleMs} ms idle` : ''}: searches that never reached a source: ${JSON.stringify(row.missed)}`);
}
console.log('sources afterwards (registry):');
console.table(sourceStates);
console.log(JSON.stringify({
  bench: 'plugins/smart-tag', limits, requests, concurrency, peer, loadavg: +loadavg()[0].toFixed(2), rows, ratios,
  smartTagSources: [...(resourcesSeen.get(SMART_TAG) ?? [])].sort(), sources: sourceStates,
}));
// With the sources' real pacing a lookup may skip a source that is busy (smart_tag answers with the others, by
// design); what must never happen is a lookup failing or a source switched off by congestion. With pacing off,
// every search must reach every source.
const autoDisabled = sourceStates.filter((s) => !s.enabled && s.disabledReason === 'auto');
for (const s of autoDisabled) console.log(`error: ${s.id} was switched off by repeated failures: ${s.lastError}`);
process.exitCode = rows.some((r) => r.errors > 0 || (limits === 'off' && Object.keys(r.missed).length > 0)) || autoDisabled.length > 0 ? 1 : 0;
