import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureSecrets } from './secrets.ts';

describe('ensureSecrets upgrade of an older secrets.json', () => {
  it('adds the Subsonic key once, keeps the other secrets, and racing starts agree on it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-secrets-up-'));
    try {
      const first = (await ensureSecrets(dir)).secrets;
      expect(Buffer.from(first.subsonicKey, 'base64url')).toHaveLength(32);
      // Rewrite the file the way the first release wrote it: without subsonicKey.
      const file = path.join(dir, 'secrets.json');
      const { subsonicKey: _dropped, ...old } = first;
      await writeFile(file, JSON.stringify(old), { mode: 0o600 });
      const results = await Promise.all(Array.from({ length: 6 }, () => ensureSecrets(dir)));
      const keys = new Set(results.map((r) => r.secrets.subsonicKey));
      expect(keys.size).toBe(1);
      const [key] = keys;
      expect(key).not.toBe(first.subsonicKey);
      expect(results.every((r) => r.created === false && r.secrets.jwtKey === first.jwtKey)).toBe(true);
      const onDisk = JSON.parse(await readFile(file, 'utf8'));
      expect(onDisk.subsonicKey).toBe(key);
      expect(onDisk.licensePrivateKey).toBe(first.licensePrivateKey);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await ensureSecrets(dir)).secrets.subsonicKey).toBe(key);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('takes over a stale upgrade lock left by a crashed start', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-secrets-up-'));
    try {
      const first = (await ensureSecrets(dir)).secrets;
      const file = path.join(dir, 'secrets.json');
      const { subsonicKey: _dropped, ...old } = first;
      await writeFile(file, JSON.stringify(old), { mode: 0o600 });
      const lock = `${file}.upgrade.lock`;
      await writeFile(lock, '');
      const { utimes } = await import('node:fs/promises');
      const past = new Date(Date.now() - 60_000);
      await utimes(lock, past, past);
      const upgraded = (await ensureSecrets(dir)).secrets;
      expect(upgraded.subsonicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
