/**
 * What the task benches share: the real server in embedded mode (temp home, embedded store, in-process bus, the
 * built-in batch actions synced into the registry, one worker with the configured concurrency and its plugin pool,
 * the gateway listening on a loopback port), started as test/action-files-routes.test.ts starts it, and called over
 * HTTP with a token as the dashboard calls it; plus the generated 10k library linked into a folder.
 * Links, not copies: every effect the benches make (a journaled tag write's temp file + rename, a move, kid3's
 * rename) gives the path a new file or a new name, so the cached library's files are never changed.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@tagsonic/core/config';
import type { TaskDoc } from '@tagsonic/core/tasks';
import type { Manifest } from '@tagsonic/sdk';
import { buildApp } from '@tagsonic/gateway';
import { startWorker } from '@tagsonic/workers';
import { builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import { generateLibrary, type LibraryManifest } from '@tagsonic/test/library';

export const LIBRARY = '/tmp/tagsonic-bench-10k';
const ADMIN_PASSWORD = 'bench-admin-password';

export const log = (line: string) => process.stderr.write(`${line}\n`);
export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
export const load = () => loadavg().map((l) => round(l));

export interface BenchServer {
  rt: Runtime;
  media: string;
  /** POST an /apimt/ route as the dashboard does; the envelope, or throws with the server's message. */
  post(route: string, body: unknown): Promise<{ result: boolean; message: string; data: any }>;
  /** Waits until the task has ended (polls the store every 50 ms). */
  finished(taskId: string): Promise<TaskDoc>;
  close(): Promise<void>;
}

/** `workerConcurrency`: TAGSONIC_WORKER_CONCURRENCY for the worker (default: the shipped default, 4). */
export async function startServer(pluginIds: string[], options: { workerConcurrency?: number } = {}): Promise<BenchServer> {
  const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-bench-tasks-'));
  const rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home,
    ...(options.workerConcurrency ? { TAGSONIC_WORKER_CONCURRENCY: String(options.workerConcurrency) } : {}) }));
  await rt.users.ensureAdmin(ADMIN_PASSWORD);
  await rt.users.setRole('admin', 'V2'); // the duplicate check is V2 (spec doc 1 §6)
  for (const id of pluginIds) {
    const { manifest, code } = await builtinPlugin(id);
    await rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
  }
  // As `tagsonic start` runs it: TAGSONIC_WORKER_CONCURRENCY (default 4) items in flight.
  const worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: rt.config.workerConcurrency,
    plugins: { registry: rt.plugins, store: rt.store } });
  const app = await buildApp(gatewayDeps(rt, { buildId: 'bench', dashboardDir: path.join(home, 'no-dashboard') }));
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const token = await fetch(`${base}/apimt/token/`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) }).then(async (res) => ((await res.json()) as { token: string }).token);
  return {
    rt,
    media: rt.roots.root('media').dir,
    async post(route, body) {
      const res = await fetch(`${base}/apimt/${route}/`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `jwt ${token}` }, body: JSON.stringify(body) });
      const envelope = (await res.json()) as { result: boolean; message: string; data: any };
      if (res.status !== 200 || !envelope.result) throw new Error(`${route}: HTTP ${res.status} ${JSON.stringify(envelope)}`);
      return envelope;
    },
    async finished(taskId) {
      for (;;) {
        const task = await rt.tasks.get(taskId);
        if (task.status !== 'running') return task;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      await app.close();
      await worker.close();
      await rt.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** The cached 10k library (generated when missing: ~10 min). */
export function library(): Promise<LibraryManifest> {
  return generateLibrary({ root: LIBRARY, size: 10_000 });
}

/**
 * Hard-links whole artist folders of the library into `dest` until at least `files` audio files are in (all of
 * them by default); returns the audio files linked, as full paths under `dest`, in the library's order.
 */
export async function linkLibrary(lib: LibraryManifest, dest: string, files = Infinity): Promise<string[]> {
  const byArtist = new Map<string, string[]>();
  for (const f of lib.files) {
    if (f.kind !== 'audio') continue;
    const artist = f.path.split('/')[0]!;
    byArtist.set(artist, [...(byArtist.get(artist) ?? []), f.path]);
  }
  await mkdir(dest, { recursive: true });
  const linked: string[] = [];
  for (const [artist, paths] of [...byArtist].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (linked.length >= files) break;
    const run = spawnSync('cp', ['-al', path.join(lib.root, artist), dest], { stdio: 'inherit' });
    if (run.status !== 0) throw new Error(`cp -al ${artist} failed`);
    linked.push(...paths.map((p) => path.join(dest, ...p.split('/'))));
  }
  return linked;
}

/** Runs `work` over `items` with `limit` in flight. */
export async function inFlight<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      await work(items[i]!, i);
    }
  }));
}

/** Wall-clock seconds and the CPU ms of this process (all threads) of `work`. */
export async function timed(work: () => Promise<unknown>): Promise<{ seconds: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuMs: (used.user + used.system) / 1000 };
}
