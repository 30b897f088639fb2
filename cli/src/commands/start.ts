import { buildApp } from '@tagsonic/gateway';
import { startWorker } from '@tagsonic/workers';
import { LibraryWatcher, Scanner, WATCH_SCHEDULE } from '@tagsonic/workers/scanner';
import cron from 'node-cron';
import { SubsonicCredentials } from '@tagsonic/core/users';
import { gatewayDeps, openRuntime } from '../runtime.ts';

export interface StartOptions {
  /** Run the HTTP gateway in this process. */
  gateway: boolean;
  /** Consume commands in this process. */
  worker: boolean;
}

/**
 * `tagsonic start` (gateway + worker: the embedded default, or both roles against NATS/MongoDB),
 * `tagsonic gateway`, `tagsonic worker` (distributed roles).
 */
export async function start(options: StartOptions): Promise<void> {
  const rt = await openRuntime();
  const { config } = rt;
  const log = (msg: string) => process.stdout.write(`[tagsonic] ${msg}\n`);

  const admin = await rt.users.ensureAdmin(config.adminPassword);
  if (admin.generatedPassword) {
    log('created user "admin" with this password (shown once; change it with `tagsonic passwd admin`):');
    log(`    ${admin.generatedPassword}`);
  } else if (admin.created) {
    log('created user "admin" with the password from TAGSONIC_ADMIN_PASSWORD');
  }
  if (admin.created && config.subsonicPassword) {
    const creds = new SubsonicCredentials(rt.store, rt.users, rt.secrets.subsonicKey);
    await creds.init();
    await creds.setPassword('admin', config.subsonicPassword);
    log('gave "admin" the Subsonic password from TAGSONIC_SUBSONIC_PASSWORD');
  }
  if (rt.secretsCreated) log(`generated secrets in ${config.dataDir}/secrets.json`);

  const closers: Array<() => Promise<void>> = [];
  if (options.worker) {
    // A crash mid-write leaves a pending journal entry and a temp sibling: settle both before new work.
    const recovered = await rt.journal.recover();
    if (recovered.committed.length + recovered.failed.length + recovered.reopened.length) {
      log(`journal recovery: ${recovered.committed.length} committed, ${recovered.failed.length} failed, ${recovered.reopened.length} reopened`);
    }
    const scanner = new Scanner({ roots: rt.roots, library: rt.library.store, catalog: rt.library.catalog, bus: rt.bus });
    const worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: config.workerConcurrency, scanner });
    closers.push(() => worker.close());
    log(`worker consuming commands (${rt.bus.driver} bus, concurrency ${config.workerConcurrency})`);
    // The background watcher: cheap when nothing changed (a walk, no file read, no task).
    const watcher = new LibraryWatcher({ scanner, scans: rt.library.scans });
    const check = async () => {
      try {
        const tick = await watcher.tick();
        if (tick.taskId) log(`watcher: library changed, scan task ${tick.taskId} queued`);
      } catch (e) {
        log(`watcher: ${e instanceof Error ? e.message : String(e)}`);
      }
    };
    const watch = cron.schedule(WATCH_SCHEDULE, check, { name: 'library-watcher', noOverlap: true });
    closers.unshift(async () => void (await watch.destroy()));
    // Files added while Tagsonic was stopped are picked up now, not at the first scheduled tick.
    void check();
  }
  if (options.gateway) {
    const app = await buildApp(
      gatewayDeps(rt),
      { logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] } },
    );
    await app.listen({ port: config.port, host: config.host });
    closers.unshift(() => app.close());
    log(`listening on http://${config.host}:${config.port} (home ${config.home}, store ${rt.store.driver}, bus ${rt.bus.driver})`);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    for (const close of closers) await close();
    await rt.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
