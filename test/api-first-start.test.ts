import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
let home = '';
afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

describe('tagsonic start with TAGSONIC_SUBSONIC_PASSWORD', () => {
  it('gives the first admin that Subsonic password; the dashboard session reads its token', async () => {
    home = await mkdtemp(path.join(tmpdir(), 'tagsonic-api-start-'));
    const port = await freePort();
    const child = spawn(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), 'start'], {
      env: { ...process.env, TAGSONIC_HOME: home, TAGSONIC_PORT: String(port), TAGSONIC_HOST: '127.0.0.1', TAGSONIC_LOG_LEVEL: 'warn', TAGSONIC_ADMIN_PASSWORD: 'first-admin-pw', TAGSONIC_SUBSONIC_PASSWORD: 'first-sub-pw' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      const base = `http://127.0.0.1:${port}`;
      await expect.poll(async () => fetch(`${base}/healthz`).then((r) => r.status).catch(() => 0), { timeout: 60_000, interval: 200 }).toBe(200);
      expect(out).toMatch(/gave \\?"admin\\?" the Subsonic password from TAGSONIC_SUBSONIC_PASSWORD/); // JSON lines escape the quotes
      expect(out).not.toContain('first-sub-pw');
      const login = await fetch(`${base}/apimt/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'first-admin-pw' }) });
      const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]);
      const info = (await (await fetch(`${base}/user/info/`, { headers: { cookie: cookies.join('; ') } })).json()) as { data: { salt: string; hash: string } };
      expect(info.data.hash).toBe(createHash('md5').update(`first-sub-pw${info.data.salt}`).digest('hex'));
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    }
  }, 90_000);
});
