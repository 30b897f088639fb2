import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '../store/index.ts';
import type { Store } from '../store/port.ts';
import { Users } from './users.ts';

let dir: string;
let store: Store;
let users: Users;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-users-'));
  store = await openEmbeddedStore({ dir });
  users = new Users(store);
  await users.init();
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('Users', () => {
  it('first start creates admin once, with a random password when none is given', async () => {
    const first = await users.ensureAdmin(undefined);
    expect(first.created).toBe(true);
    expect(first.generatedPassword).toMatch(/^\S{20}$/);
    expect(await users.authenticate('admin', first.generatedPassword!)).toMatchObject({ username: 'admin', isAdmin: true, role: 'V1' });
    const again = await users.ensureAdmin('something-else');
    expect(again).toEqual({ created: false, generatedPassword: null });
    expect(await users.count()).toBe(1);
  });

  it('racing first starts create exactly one admin', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => users.ensureAdmin('the-password')));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await users.count()).toBe(1);
  });

  it('matches usernames exactly: no case folding, no patterns, no operators', async () => {
    await users.create({ username: 'alice', password: 'alice-password' });
    expect(await users.authenticate('alice', 'alice-password')).not.toBeNull();
    expect(await users.authenticate('Alice', 'alice-password')).toBeNull();
    expect(await users.authenticate('ali.*', 'alice-password')).toBeNull();
    expect(await users.authenticate('', 'alice-password')).toBeNull();
    expect(await users.findByName({ $ne: null } as unknown as string)).toBeNull();
    expect(await users.authenticate('alice', 'wrong-password')).toBeNull();
    expect(await users.authenticate('nobody', 'alice-password')).toBeNull();
  });

  it('refuses duplicates, bad names and weak passwords with clear errors', async () => {
    await users.create({ username: 'bob', password: 'bob-password' });
    await expect(users.create({ username: 'bob', password: 'other-password' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_USER_EXISTS' });
    await expect(users.create({ username: 'a b', password: 'long-enough' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_USER_BAD_NAME' });
    await expect(users.create({ username: 'carol', password: 'short' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_USER_WEAK_PASSWORD' });
  });

  it('changes passwords', async () => {
    await users.create({ username: 'dave', password: 'first-password' });
    await users.setPassword('dave', 'second-password');
    expect(await users.authenticate('dave', 'first-password')).toBeNull();
    expect(await users.authenticate('dave', 'second-password')).not.toBeNull();
    await expect(users.setPassword('nobody', 'whatever-pass')).rejects.toMatchObject({ kind: 'not_found' });
  });
});
