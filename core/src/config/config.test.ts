import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { loadConfig } from './config.ts';
import { ensureSecrets } from './secrets.ts';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const c = loadConfig({}, '/srv/x');
    expect(c.port).toBe(8002);
    expect(c.host).toBe('0.0.0.0');
    expect(c.mediaDir).toBe(path.join(c.home, 'media'));
    expect(c.dataDir).toBe(path.join(c.home, 'data'));
    expect(c.mongodbUrl).toBeUndefined();
    expect(c.natsUrl).toBeUndefined();
  });
  it('reads overrides and refuses bad numbers clearly', () => {
    const c = loadConfig({ TAGSONIC_PORT: '9000', TAGSONIC_HOME: 'h', TAGSONIC_NATS_URL: 'nats://x:4222' }, '/srv');
    expect(c.port).toBe(9000);
    expect(c.home).toBe('/srv/h');
    expect(c.downloadDir).toBe('/srv/h/download');
    expect(c.natsUrl).toBe('nats://x:4222');
    expect(() => loadConfig({ TAGSONIC_PORT: 'eighty' })).toThrow(/TAGSONIC_PORT must be a whole number/);
    expect(() => loadConfig({ TAGSONIC_PORT: '70000' })).toThrow(/TAGSONIC_PORT/);
  });
});

describe('ensureSecrets', () => {
  it('generates secrets once, private to the owner, and keeps them across starts', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-secrets-'));
    try {
      const first = await ensureSecrets(path.join(dir, 'data'));
      expect(first.created).toBe(true);
      const file = path.join(dir, 'data', 'secrets.json');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(first.secrets.jwtKey.length).toBeGreaterThanOrEqual(80);
      const again = await ensureSecrets(path.join(dir, 'data'));
      expect(again.created).toBe(false);
      expect(again.secrets).toEqual(first.secrets);
      // The license key pair really signs and verifies.
      const msg = Buffer.from('edition=V2');
      const sig = sign(null, msg, createPrivateKey(first.secrets.licensePrivateKey));
      expect(verify(null, msg, createPublicKey(first.secrets.licensePublicKey), sig)).toBe(true);
      expect(JSON.parse(await readFile(file, 'utf8')).jwtKey).toBe(first.secrets.jwtKey);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it('two starts racing on one data dir agree on one set of secrets', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-secrets-'));
    try {
      const results = await Promise.all(Array.from({ length: 8 }, () => ensureSecrets(dir)));
      const keys = new Set(results.map((r) => r.secrets.jwtKey));
      expect(keys.size).toBe(1);
      expect(results.filter((r) => r.created).length).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it('different installs get different secrets', async () => {
    const a = await mkdtemp(path.join(tmpdir(), 'tagsonic-secrets-'));
    const b = await mkdtemp(path.join(tmpdir(), 'tagsonic-secrets-'));
    try {
      expect((await ensureSecrets(a)).secrets.jwtKey).not.toBe((await ensureSecrets(b)).secrets.jwtKey);
    } finally {
      await rm(a, { recursive: true, force: true });
      await rm(b, { recursive: true, force: true });
    }
  });
});
