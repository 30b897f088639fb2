import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '../store/index.ts';
import type { Store } from '../store/port.ts';
import { issueCsrfToken, verifyCsrfToken } from './csrf.ts';
import { addressKey, LoginThrottle, RATE_LIMITED } from './login-throttle.ts';

describe('CSRF tokens', () => {
  it('verify only for the session and secret they were made for', () => {
    const t = issueCsrfToken('secret', 'session-1');
    expect(verifyCsrfToken('secret', 'session-1', t)).toBe(true);
    expect(verifyCsrfToken('secret', 'session-2', t)).toBe(false);
    expect(verifyCsrfToken('other', 'session-1', t)).toBe(false);
    expect(verifyCsrfToken('secret', 'session-1', `${t}x`)).toBe(false);
    expect(verifyCsrfToken('secret', 'session-1', t.split('.')[0])).toBe(false);
    expect(verifyCsrfToken('secret', 'session-1', undefined)).toBe(false);
    expect(issueCsrfToken('secret', 'session-1')).not.toBe(t);
  });
});

describe('LoginThrottle', () => {
  let dir: string;
  let store: Store;
  let now = 1_000_000;
  const slept: number[] = [];
  const sleep = async (ms: number) => {
    slept.push(ms);
    now += ms;
  };
  const policy = { perAccountAddress: 3, perAddress: 5, accountFreeFailures: 4, accountDelayMs: 100, maxAccountDelayMs: 400, windowMs: 60_000 };
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-throttle-'));
    store = await openEmbeddedStore({ dir });
    slept.length = 0;
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses an (account, address) pair at its limit, not the account from elsewhere, until the window ends', async () => {
    const t = new LoginThrottle(store, { ...policy, now: () => now, sleep });
    for (let i = 0; i < 3; i++) {
      await t.check('1.1.1.1', 'a');
      await t.recordFailure('1.1.1.1', 'a');
    }
    await expect(t.check('1.1.1.1', 'a')).rejects.toMatchObject({ code: RATE_LIMITED, details: { retryAfterSec: 60 } });
    expect(t.refusedFor('1.1.1.1', 'a')).toBe(60);
    // The same address for another account, and the account from another address: not refused.
    await t.check('1.1.1.1', 'b');
    await t.check('2.2.2.2', 'a');
    expect(t.refusedFor('2.2.2.2', 'a')).toBeUndefined();
    now += 60_001;
    await t.check('1.1.1.1', 'a');
    expect(t.refusedFor('1.1.1.1', 'a')).toBeUndefined();
    // A failure after the window starts a new count.
    await t.recordFailure('1.1.1.1', 'a');
    await t.check('1.1.1.1', 'a');
  });

  it('refuses an address that guesses many accounts; a success forgives the pair, not the address', async () => {
    const t = new LoginThrottle(store, { ...policy, now: () => now, sleep });
    for (const u of ['a', 'b', 'c', 'd']) await t.recordFailure('9.9.9.9', u);
    await t.recordSuccess('9.9.9.9', 'd');
    await t.check('9.9.9.9', 'e');
    await t.recordFailure('9.9.9.9', 'e');
    await expect(t.check('9.9.9.9', 'f')).rejects.toMatchObject({ code: RATE_LIMITED });
    expect(t.refusedFor('9.9.9.9', undefined)).toBeGreaterThan(0);
    await t.check('8.8.8.8', 'f');
  });

  it('slows an account down with failures from many addresses: doubling up to the cap, never refusing', async () => {
    const t = new LoginThrottle(store, { ...policy, now: () => now, sleep });
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) delays.push(await t.recordFailure(`10.0.0.${i}`, 'admin'));
    expect(delays).toEqual([0, 0, 0, 0, 100, 200, 400, 400]);
    await t.check('10.0.1.1', 'admin');
    expect(slept).toEqual([400]);
  });

  it('counts an API key failure against the address only', async () => {
    const t = new LoginThrottle(store, { ...policy, now: () => now, sleep });
    for (let i = 0; i < 5; i++) expect(await t.recordFailure('7.7.7.7', undefined)).toBe(0);
    expect(t.refusedFor('7.7.7.7', 'anyone')).toBe(60);
  });

  it('keeps scopes apart, and a new process loads the blocks in force', async () => {
    const dashboard = new LoginThrottle(store, { ...policy, scope: 'dashboard', now: () => now, sleep });
    for (let i = 0; i < 3; i++) await dashboard.recordFailure('1.1.1.1', 'a');
    const subsonic = new LoginThrottle(store, { ...policy, scope: 'subsonic', now: () => now, sleep });
    await subsonic.init();
    expect(subsonic.refusedFor('1.1.1.1', 'a')).toBeUndefined();
    const restarted = new LoginThrottle(store, { ...policy, scope: 'dashboard', now: () => now, sleep });
    expect(restarted.refusedFor('1.1.1.1', 'a')).toBeUndefined();
    await restarted.init();
    expect(restarted.refusedFor('1.1.1.1', 'a')).toBe(60);
  });

  it('counts IPv6 clients by their /64 and IPv4-mapped addresses as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('10.1.2.3')).toBe('10.1.2.3');
  });
});
