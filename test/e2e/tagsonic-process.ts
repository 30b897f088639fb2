import { expect } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../support/free-port.ts';

export { freePort };
export const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Runs the real `tagsonic start` (its stdout is a pipe, not a terminal) until /healthz answers; returns the
 * console output so far and a stopper that answers the exit code.
 */
export async function startTagsonic(home: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), 'start'], {
    env: { ...process.env, TAGSONIC_HOME: home, TAGSONIC_PORT: String(port), TAGSONIC_HOST: '127.0.0.1', TAGSONIC_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const base = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (await fetch(`${base}/healthz`).then((r) => r.status).catch(() => 0)), { timeout: 30_000, interval: 200 })
    .toBe(200);
  return {
    base,
    /** Standard output and standard error, in that order. */
    output: () => out + err,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      child.kill('SIGTERM');
      return new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (c) => r(c))));
    },
  };
}

/** Runs one `tagsonic` command to its end (standard input empty, not a terminal). */
export async function runTagsonic(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  return { code, stdout, stderr };
}
