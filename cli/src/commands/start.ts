import type { AddressInfo } from 'node:net';
import { buildApp } from '@tagsonic/gateway';
import { startWorker } from '@tagsonic/workers';
import { LibraryWatcher, WATCH_SCHEDULE } from '@tagsonic/workers/scanner';
import { DownloadWatcher, DOWNLOAD_WATCH_SCHEDULE } from '@tagsonic/workers/watcher';
import cron from 'node-cron';
import { SubsonicCredentials } from '@tagsonic/core/users';
import { loadConfig, VERSION } from '@tagsonic/core/config';
import { processLogs } from '@tagsonic/core/logs';
import { gatewayDeps, openRuntime } from '../runtime.ts';
import { createConsole, logFormat } from '../console.ts';
import { LoggingScanner } from '../scan-log.ts';
import { commandLine } from '../command-line.ts';
import { syncBuiltinPlugins } from '../builtin-plugins.ts';

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
  const config = loadConfig();
  const log = createConsole({ level: config.logLevel, format: logFormat() });
  const rt = await openRuntime(config);

  // Start-up notices (first-start facts, what this process serves) are shown whatever TAGSONIC_LOG_LEVEL says:
  // the generated password is shown only this once, and scripts wait for "listening" or "worker consuming".
  const notice = log.isLevelEnabled('info') ? log : log.child({}, { level: 'info' });
  const admin = await rt.users.ensureAdmin(config.adminPassword);
  if (admin.generatedPassword) {
    notice.info(`created user "admin" with password ${admin.generatedPassword} (shown only now; change it with ${commandLine('passwd admin')})`);
  } else if (admin.created) {
    notice.info('created user "admin" with the password from TAGSONIC_ADMIN_PASSWORD');
  }
  if (admin.created && config.subsonicPassword) {
    const creds = new SubsonicCredentials(rt.store, rt.users, rt.secrets.subsonicKey);
    await creds.init();
    await creds.setPassword('admin', config.subsonicPassword);
    notice.info('gave "admin" the Subsonic password from TAGSONIC_SUBSONIC_PASSWORD');
  } else if (admin.created) {
    // Subsonic clients cannot use the scrypt-hashed sign-in password, so they get error 40 until this is done.
    notice.info(`"admin" has no Subsonic password yet, so Subsonic clients cannot sign in; set one with ${commandLine('subsonic-password admin')} (or in the admin backend)`);
  }
  if (rt.secretsCreated) notice.info(`generated secrets in ${config.dataDir}/secrets.json`);
  // Before serving: the /mod screen and the workers' pools find the shipped plugins from the first request.
  await syncBuiltinPlugins(rt.plugins, log);

  const closers: Array<() => Promise<void>> = [];
  if (options.worker) {
    processLogs.serve('worker', 'beat');
    // A crash mid-write leaves a pending journal entry and a temp sibling: settle both before new work.
    const recovered = await rt.journal.recover();
    if (recovered.committed.length + recovered.failed.length + recovered.reopened.length) {
      log.info(`journal recovery: ${recovered.committed.length} committed, ${recovered.failed.length} failed, ${recovered.reopened.length} reopened`);
    }
    const scanner = new LoggingScanner({ roots: rt.roots, library: rt.library.store, catalog: rt.library.catalog, bus: rt.bus }, log.child({ proc: 'worker' }));
    const worker = await startWorker({
      bus: rt.bus,
      tasks: rt.tasks,
      roots: rt.roots,
      journal: rt.journal,
      concurrency: config.workerConcurrency,
      scanner,
      // 刮削艺术家 saves artist pictures and biographies in the library (caps.artists).
      plugins: { registry: rt.plugins, store: rt.store, artists: rt.library.artists },
    });
    closers.push(() => worker.close());
    notice.child({ proc: 'worker' }).info(`worker consuming commands (${rt.bus.driver} bus, concurrency ${config.workerConcurrency})`);
    // The background watcher: cheap when nothing changed (a walk, no file read, no task).
    const watcher = new LibraryWatcher({ scanner, scans: rt.library.scans });
    const beat = log.child({ proc: 'beat' }); // the runtime log's scheduled-jobs part
    const check = async () => {
      try {
        const tick = await watcher.tick();
        if (tick.taskId) beat.info(`library changed on disk: scan task ${tick.taskId} queued`);
      } catch (e) {
        beat.warn({ err: e }, 'library watcher');
      }
    };
    const watch = cron.schedule(WATCH_SCHEDULE, check, { name: 'library-watcher', noOverlap: true });
    closers.unshift(async () => void (await watch.destroy()));
    // Files added while Tagsonic was stopped are picked up now, not at the first scheduled tick.
    void check();
    // The download-folder watcher: new downloads, once finished, are scraped with the background settings and tidied.
    const downloads = new DownloadWatcher({ roots: rt.roots, store: rt.store, tasks: rt.tasks, bus: rt.bus });
    const round = async () => {
      try {
        const r = await downloads.tick();
        if (r.scrapeTaskId || r.tidyTaskId) beat.info(`download folder: ${r.scrapeTaskId ? `后台刮削 task ${r.scrapeTaskId}` : ''}${r.scrapeTaskId && r.tidyTaskId ? ', ' : ''}${r.tidyTaskId ? `整理文件夹 task ${r.tidyTaskId}` : ''} queued`);
      } catch (e) {
        beat.warn({ err: e }, 'download-folder watcher');
      }
    };
    const downloadWatch = cron.schedule(DOWNLOAD_WATCH_SCHEDULE, round, { name: 'download-watcher', noOverlap: true });
    closers.unshift(async () => void (await downloadWatch.destroy()));
    // A first look now: downloads that arrived while Tagsonic was stopped are taken at the first scheduled round.
    void round();
  }
  if (options.gateway) {
    processLogs.serve('gunicorn', 'nginx');
    const app = await buildApp(gatewayDeps(rt), { loggerInstance: log });
    // Fastify announces itself once per network interface; the console says it once, with what matters.
    const level = app.log.level;
    app.log.level = 'warn';
    try {
      await app.listen({ port: config.port, host: config.host });
    } finally {
      app.log.level = level;
    }
    closers.unshift(() => app.close());
    const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    const { port } = app.server.address() as AddressInfo; // the one the system chose when TAGSONIC_PORT=0
    notice.info(
      `Tagsonic ${VERSION.display} (${rt.buildId}) listening on http://${shown}:${port}/ ` +
        `(bound to ${config.host}; home ${config.home}, store ${rt.store.driver}, bus ${rt.bus.driver})`,
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: shutting down`);
    for (const close of closers) await close();
    await rt.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
