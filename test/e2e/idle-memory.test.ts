/**
 * Idle memory of the real server (issue 10 item 6): `tagsonic start` with ./run's flags scans a
 * 1 500-track library on its own, serves a burst of Subsonic calls, and once quiet keeps no reader or
 * writer thread and gives the scan's and the burst's memory back (the 10k figures are bench/scan's
 * idle-memory.ts). Reads /proc: Linux only, like the server's deployments.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GENERATOR_VERSION, generateLibrary } from '@tagsonic/test/library';
import { MALLOC_ENV } from '@tagsonic/core/memory';
import { freePort, ROOT } from './tagsonic-process.ts';

const TRACKS = 1_500;
const PASSWORD = 'idle-memory-subsonic';
/** Resident set once quiet after the scan and the burst. Before the fix: ~230–250 MB for these tracks. */
const QUIET_RSS_MB = 190;

/** The process's worker threads (reader and writer pools) as the kernel names them. */
const workerThreads = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).filter((t) => {
    try {
      return readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim() === 'WorkerThread';
    } catch {
      return false; // the thread ended while we looked
    }
  }).length;
const rssMb = (pid: number) => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

let child: ChildProcess | undefined;
let home: string | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child!.once('exit', r));
  }
  if (home) await rm(home, { recursive: true, force: true });
});

describe('idle memory', () => {
  it('after a scan and a burst of calls, the quiet server keeps no pool thread and gives the memory back', { timeout: 120_000 }, async () => {
    const library = path.join(tmpdir(), `tagsonic-test-idle-memory-${TRACKS}-v${GENERATOR_VERSION}`);
    await generateLibrary({ root: library, size: TRACKS });
    home = await mkdtemp(path.join(tmpdir(), 'tagsonic-idle-memory-'));
    await symlink(library, path.join(home, 'media'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--no-node-snapshot', '--max-semi-space-size=8', path.join(ROOT, 'cli/src/main.ts'), 'start'], {
      env: { ...MALLOC_ENV, ...process.env, TAGSONIC_HOME: home, TAGSONIC_PORT: String(port), TAGSONIC_HOST: '127.0.0.1', TAGSONIC_LOG_LEVEL: 'warn', TAGSONIC_ADMIN_PASSWORD: 'idle-memory-admin', TAGSONIC_SUBSONIC_PASSWORD: PASSWORD },
      stdio: 'ignore',
    });
    const pid = child.pid!;
    const call = async (query: string) => {
      const res = await fetch(`${base}/rest/${query}${query.includes('?') ? '&' : '?'}u=admin&p=${PASSWORD}&v=1.16.1&c=test&f=json`);
      const body = (await res.json()) as { 'subsonic-response': Record<string, unknown> & { status: string } };
      expect(body['subsonic-response'].status).toBe('ok');
      return body['subsonic-response'];
    };

    // The start-up watcher tick queues the cold scan; the reader threads run while it reads.
    let readersSeen = 0;
    await expect
      .poll(
        async () => {
          readersSeen = Math.max(readersSeen, workerThreads(pid));
          const status = await call('getScanStatus').catch(() => undefined);
          return status && !(status.scanStatus as { scanning: boolean }).scanning ? (status.scanStatus as { count: number }).count : -1;
        },
        { timeout: 60_000, interval: 50 },
      )
      .toBe(TRACKS);
    const afterScan = rssMb(pid);

    // A client's burst: 8 at a time, the calls a client makes most.
    const albums = ((await call('getAlbumList2?type=alphabeticalByName&size=500')).albumList2 as { album: Array<{ id: string }> }).album;
    const calls = Array.from({ length: 600 }, (_, i) =>
      [`getRandomSongs?size=50`, `getAlbumList2?type=newest&size=50&offset=${(i * 10) % 200}`, `getAlbum?id=${albums[i % albums.length]!.id}`, `search3?query=a&songCount=20`][i % 4]!,
    );
    for (let i = 0; i < calls.length; i += 8) await Promise.all(calls.slice(i, i + 8).map(call));
    const afterBurst = rssMb(pid);

    // Quiet: no pool thread left, and the memory of the scan and the burst given back.
    await expect.poll(() => workerThreads(pid), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => rssMb(pid), { timeout: 30_000, interval: 500 }).toBeLessThan(QUIET_RSS_MB);
    // (Figures for the record when the bound is revisited.)
    console.log(`idle memory, ${TRACKS} tracks: RSS after scan ${afterScan.toFixed(1)} MB, after the burst ${afterBurst.toFixed(1)} MB, quiet ${rssMb(pid).toFixed(1)} MB; reader threads seen ${readersSeen}`);
  });
});
