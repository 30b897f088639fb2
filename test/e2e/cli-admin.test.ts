import { afterAll, describe, expect, it } from 'vitest';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@tagsonic/core/config';
import { SubsonicCredentials } from '@tagsonic/core/users';
import { openRuntime } from '@tagsonic/cli';

const ROOT = path.resolve(import.meta.dirname, '../..');
const homes: string[] = [];
afterAll(async () => {
  for (const h of homes) await rm(h, { recursive: true, force: true });
});

async function newHome(): Promise<string> {
  const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-cli-'));
  homes.push(home);
  return home;
}

/** Runs the real `tagsonic` command with `input` piped to its standard input (not a terminal). */
async function tagsonic(home: string, args: string[], input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), ...args], {
    env: { ...process.env, TAGSONIC_HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(input);
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  return { code, stdout, stderr };
}

/** Checks credentials with the server's own code against the home's store (what a Subsonic request does). */
async function withCredentials<T>(home: string, fn: (creds: SubsonicCredentials) => Promise<T>): Promise<T> {
  const rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  try {
    const creds = new SubsonicCredentials(rt.store, rt.users, rt.secrets.subsonicKey);
    await creds.init();
    return await fn(creds);
  } finally {
    await rt.close();
  }
}

/** A home as a server's first start leaves it: secrets, store, the admin account. */
async function installation(): Promise<string> {
  const home = await newHome();
  const rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  await rt.users.ensureAdmin('first-password');
  await rt.close();
  return home;
}

describe('tagsonic passwd / subsonic-password with piped input', () => {
  it('accepts the password twice on two lines, as the terminal prompt asks for it', async () => {
    const home = await installation();
    const set = await tagsonic(home, ['subsonic-password', 'admin'], 'pipe-pass\npipe-pass\n');
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/Subsonic password of "admin" set/);
    expect(await withCredentials(home, async (c) => (await c.verifySubsonicPassword('admin', 'pipe-pass'))?.username)).toBe('admin');

    expect((await tagsonic(home, ['passwd', 'admin'], 'two-lines\r\ntwo-lines\r\n')).code).toBe(0);
    const differ = await tagsonic(home, ['subsonic-password', 'admin'], 'one\nother\n');
    expect(differ.code).toBe(2);
    expect(differ.stderr).toMatch(/the two passwords differ; nothing changed/);
    expect(await withCredentials(home, async (c) => (await c.verifySubsonicPassword('admin', 'pipe-pass'))?.username)).toBe('admin');
  }, 60_000);
});

describe('tagsonic apikey', () => {
  it('creates a key printed once, lists it without the key, and revokes it', async () => {
    const home = await installation();
    const created = await tagsonic(home, ['apikey', 'create', 'admin', '--name', 'car stereo']);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^tsk_[A-Za-z0-9_-]{40,}$/);
    expect(created.stderr).toMatch(/"car stereo".*shown only this once/);
    expect(await withCredentials(home, async (c) => (await c.verifyApiKey(key))?.username)).toBe('admin');

    const list = await tagsonic(home, ['apikey', 'list', 'admin']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/car stereo/);
    expect(list.stdout).toContain(key.slice(0, 10));
    expect(list.stdout).not.toContain(key);
    const id = (await withCredentials(home, (c) => c.listApiKeys('admin')))[0].id;
    expect(list.stdout).toContain(id);

    const revoked = await tagsonic(home, ['apikey', 'revoke', 'admin', id]);
    expect(revoked.code).toBe(0);
    expect(await withCredentials(home, (c) => c.verifyApiKey(key))).toBeNull();
    expect((await tagsonic(home, ['apikey', 'list', 'admin'])).stdout).toMatch(/no API keys/);

    const again = await tagsonic(home, ['apikey', 'revoke', 'admin', id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/No API key/);
    const nobody = await tagsonic(home, ['apikey', 'create', 'nobody']);
    expect(nobody.code).toBe(1);
    expect(nobody.stdout).toBe('');
    expect((await tagsonic(home, ['apikey', 'create'])).code).toBe(2);
  }, 60_000);
});

describe('tagsonic license issue', () => {
  it('refuses a home with no installation, names it, and creates nothing there', async () => {
    const home = await newHome();
    const r = await tagsonic(home, ['license', 'issue']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`no Tagsonic installation in ${home}`);
    expect(r.stderr).toMatch(/run this with the server's home/);
    await expect(access(path.join(home, 'data'))).rejects.toThrow();

    const installed = await installation();
    const ok = await tagsonic(installed, ['license', 'issue', '--days', '30']);
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim()).toMatch(/^TSV2\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  }, 60_000);
});
