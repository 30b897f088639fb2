import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, stat, readFile } from 'node:fs/promises';
import { makeAudio } from '../support/audio.ts';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, startTagsonic } from './tagsonic-process.ts';

const homes: string[] = [];
afterAll(async () => {
  for (const h of homes) await rm(h, { recursive: true, force: true });
});

async function login(base: string, password: string) {
  const res = await fetch(`${base}/apimt/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  return { status: res.status, body: (await res.json()) as { result: boolean; token?: string; message: string } };
}

describe('tagsonic start (embedded default)', () => {
  it('first start creates the home, private secrets and a random admin password printed once', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-first-'));
    homes.push(home);
    const first = await startTagsonic(home);
    for (const d of ['media', 'download', 'webdav', 'data']) expect((await stat(path.join(home, d))).isDirectory()).toBe(true);
    const secretsFile = path.join(home, 'data/secrets.json');
    expect((await stat(secretsFile)).mode & 0o777).toBe(0o600);
    // Shown even at TAGSONIC_LOG_LEVEL=warn: it is printed only this once.
    const printed = /created user \\?"admin\\?" with password (\S+) \(shown only now; change it with \.\/run passwd admin\)/.exec(first.output());
    expect(printed).not.toBeNull();
    const password = printed![1];
    expect(password).toMatch(/^[A-Za-z2-9]{20}$/);
    // Without TAGSONIC_SUBSONIC_PASSWORD no Subsonic password exists: say so, with the command that sets one.
    expect(first.output()).toMatch(/has no Subsonic password yet, so Subsonic clients cannot sign in; set one with \.\/run subsonic-password admin/);
    expect(first.output()).not.toMatch(/tagsonic passwd/);

    const health = (await (await fetch(`${first.base}/healthz`)).json()) as any;
    expect(health).toMatchObject({ status: 'ok', mode: 'embedded', store: { driver: 'embedded' }, bus: { driver: 'memory' } });
    expect(health.version.build).toMatch(/\S/);

    expect((await login(first.base, password)).body.result).toBe(true);
    const wrong = await login(first.base, 'admin');
    expect(wrong.status).toBe(401);
    expect(wrong.body.result).toBe(false);
    expect(await first.stop()).toBe(0);

    // Second start: same secrets, no new password, the old one still works.
    const secrets = await readFile(secretsFile, 'utf8');
    const second = await startTagsonic(home);
    expect(second.output()).not.toMatch(/created user/);
    expect(await readFile(secretsFile, 'utf8')).toBe(secrets);
    expect((await login(second.base, password)).body.result).toBe(true);
    // The same build names itself the same after a restart (clients compare serverVersion).
    expect(((await (await fetch(`${second.base}/healthz`)).json()) as any).version.build).toBe(health.version.build);
    expect(await second.stop()).toBe(0);
  }, 90_000);

  it('takes the first admin password from TAGSONIC_ADMIN_PASSWORD, and passwd changes it', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-first-'));
    homes.push(home);
    // A song already in the media folder is found by the start-up library check, without waiting for the watcher.
    await mkdir(path.join(home, 'media/Artist'), { recursive: true });
    await makeAudio(path.join(home, 'media/Artist/01 Waiting.mp3'), { tags: { title: 'Waiting Song', artist: 'Artist' } });
    const t = await startTagsonic(home, { TAGSONIC_ADMIN_PASSWORD: 'from-the-environment', TAGSONIC_SUBSONIC_PASSWORD: 'subsonic-pass' });
    const search = async () => {
      const r = (await (await fetch(`${t.base}/rest/search3?u=admin&p=subsonic-pass&c=test&v=1.16.1&f=json&query=Waiting`)).json()) as any;
      return r['subsonic-response']?.searchResult3?.song?.map((x: { title: string }) => x.title) ?? [];
    };
    await expect.poll(search, { timeout: 30_000, interval: 300 }).toEqual(['Waiting Song']);
    expect(t.output()).toMatch(/created user \\?"admin\\?" with the password from TAGSONIC_ADMIN_PASSWORD/);
    expect(t.output()).not.toMatch(/from-the-environment/);
    expect((await login(t.base, 'from-the-environment')).body.result).toBe(true);
    expect(await t.stop()).toBe(0);

    const passwd = spawn(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), 'passwd', 'admin'], {
      env: { ...process.env, TAGSONIC_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    passwd.stdout.on('data', (d) => (out += d));
    passwd.stderr.on('data', (d) => (out += d));
    passwd.stdin.end('a-brand-new-password\n');
    expect(await new Promise((r) => passwd.once('exit', r))).toBe(0);
    expect(out).toMatch(/password of "admin" changed/);

    const again = await startTagsonic(home);
    expect((await login(again.base, 'from-the-environment')).status).toBe(401);
    expect((await login(again.base, 'a-brand-new-password')).body.result).toBe(true);
    expect(await again.stop()).toBe(0);
  }, 90_000);
});
