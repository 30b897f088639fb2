import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { openEmbeddedStore } from '../store/index.ts';
import type { Store } from '../store/port.ts';
import { Users } from './users.ts';
import { SubsonicCredentials } from './subsonic-credentials.ts';

let dir: string;
let store: Store;
let users: Users;
let creds: SubsonicCredentials;
const key = randomBytes(32).toString('base64url');

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-subsonic-'));
  store = await openEmbeddedStore({ dir });
  users = new Users(store);
  await users.init();
  creds = new SubsonicCredentials(store, users, key);
  await creds.init();
  await users.create({ username: 'alice', password: 'alice-login-password' });
  await users.create({ username: 'Alice2', password: 'alice-login-password' });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('SubsonicCredentials', () => {
  it('token auth follows the Subsonic spec example: t = md5("sesame" + "c19b2d")', async () => {
    await creds.setPassword('alice', 'sesame');
    // The Subsonic API documentation's own example values.
    expect(await creds.verifySubsonicToken('alice', '26719a1196d2a940705a59634eb18eab', 'c19b2d')).toMatchObject({ username: 'alice' });
    expect(await creds.verifySubsonicToken('alice', '26719A1196D2A940705A59634EB18EAB', 'c19b2d')).not.toBeNull();
    expect(await creds.verifySubsonicToken('alice', '26719a1196d2a940705a59634eb18eab', 'c19b2e')).toBeNull();
    expect(await creds.verifySubsonicToken('Alice', '26719a1196d2a940705a59634eb18eab', 'c19b2d')).toBeNull();
    expect(await creds.verifySubsonicToken('alice', 'not-hex', 'c19b2d')).toBeNull();
    expect(await creds.verifySubsonicToken('alice', '26719a1196d2a940705a59634eb18eab', '')).toBeNull();
  });

  it('password auth in clear and enc:hex, never with the login password, exact usernames only', async () => {
    await creds.setPassword('alice', 'sesame');
    expect(await creds.verifySubsonicPassword('alice', 'sesame')).not.toBeNull();
    expect(await creds.verifySubsonicPassword('alice', `enc:${Buffer.from('sesame').toString('hex')}`)).not.toBeNull();
    expect(await creds.verifySubsonicPassword('alice', 'enc:zz')).toBeNull();
    expect(await creds.verifySubsonicPassword('alice', 'alice-login-password')).toBeNull();
    expect(await creds.verifySubsonicPassword('ALICE', 'sesame')).toBeNull();
    expect(await creds.verifySubsonicPassword('Alice2', 'sesame')).toBeNull();
    expect(await creds.verifySubsonicPassword('nobody', 'sesame')).toBeNull();
  });

  it('keeps found passwords briefly, but changes made through it and passwords set elsewhere apply at once', async () => {
    await creds.setPassword('alice', 'one');
    expect(await creds.verifySubsonicPassword('alice', 'one')).not.toBeNull();
    await creds.setPassword('alice', 'two');
    expect(await creds.verifySubsonicPassword('alice', 'one')).toBeNull();
    expect(await creds.verifySubsonicPassword('alice', 'two')).not.toBeNull();
    await creds.clearPassword('alice');
    expect(await creds.verifySubsonicPassword('alice', 'two')).toBeNull();
    // Another instance (the CLI, another gateway) sets a password: a miss was not remembered.
    expect(await creds.verifySubsonicPassword('Alice2', 'three')).toBeNull();
    await new SubsonicCredentials(store, users, key).setPassword('Alice2', 'three');
    expect(await creds.verifySubsonicPassword('Alice2', 'three')).not.toBeNull();
    // Replaced elsewhere while the old one is cached: the new one works at once.
    await new SubsonicCredentials(store, users, key).setPassword('Alice2', 'four');
    expect(await creds.verifySubsonicPassword('Alice2', 'four')).not.toBeNull();
    expect(await creds.verifySubsonicToken('Alice2', createHash('md5').update('fours1').digest('hex'), 's1')).not.toBeNull();
    // A user deleted through the same Users: applies at once.
    await users.delete('Alice2');
    expect(await creds.verifySubsonicPassword('Alice2', 'four')).toBeNull();
  });

  it('stores the password encrypted (AES-256-GCM), readable only with the install key', async () => {
    await creds.setPassword('alice', 'sesame-very-secret');
    const raw = JSON.stringify(await store.collection('users').findOne({ username: 'alice' }));
    expect(raw).not.toContain('sesame-very-secret');
    expect(raw).not.toContain(Buffer.from('sesame-very-secret').toString('base64'));
    expect(await creds.hasPassword('alice')).toBe(true);
    const other = new SubsonicCredentials(store, users, randomBytes(32).toString('base64url'));
    await expect(other.verifySubsonicPassword('alice', 'sesame-very-secret')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_SUBSONIC_UNDECRYPTABLE' });
    await creds.clearPassword('alice');
    expect(await creds.hasPassword('alice')).toBe(false);
    expect(await creds.verifySubsonicPassword('alice', 'sesame-very-secret')).toBeNull();
    expect(await creds.tokenFor('alice')).toEqual({ salt: '', hash: '' });
  });

  it('API keys: shown once, stored as sha256, named, revocable, dropped with their account', async () => {
    const made = await creds.createApiKey('alice', 'phone app');
    expect(made.key).toMatch(/^tsk_[\w-]{43}$/);
    const stored = JSON.stringify(await store.collection('api_keys').find({}));
    expect(stored).not.toContain(made.key);
    expect(await creds.verifyApiKey(made.key)).toMatchObject({ username: 'alice' });
    expect(await creds.verifyApiKey(made.key + 'x')).toBeNull();
    expect(await creds.verifyApiKey('')).toBeNull();
    const list = await creds.listApiKeys('alice');
    expect(list).toEqual([expect.objectContaining({ id: made.id, name: 'phone app', prefix: made.key.slice(0, 10) })]);
    expect(list[0].lastUsedAt).toBeInstanceOf(Date);
    await creds.revokeApiKey('alice', made.id);
    expect(await creds.verifyApiKey(made.key)).toBeNull();
    await expect(creds.revokeApiKey('alice', made.id)).rejects.toMatchObject({ kind: 'not_found' });
    const again = await creds.createApiKey('alice', 'desktop');
    await store.collection('users').deleteOne({ username: 'alice' });
    expect(await creds.verifyApiKey(again.key)).toBeNull();
    await expect(creds.createApiKey('Alice2', '')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_SUBSONIC_BAD_KEY_NAME' });
  });

  it('refuses bad Subsonic passwords and unknown users clearly', async () => {
    await expect(creds.setPassword('alice', '')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_SUBSONIC_BAD_PASSWORD' });
    await expect(creds.setPassword('alice', 'a\nb')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_SUBSONIC_BAD_PASSWORD' });
    await expect(creds.setPassword('nobody', 'x')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_USER_NOT_FOUND' });
  });
});
