import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '../store/index.ts';
import type { Store } from '../store/port.ts';
import { issueCsrfToken, verifyCsrfToken } from './csrf.ts';
import { LoginThrottle } from './login-throttle.ts';

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
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-throttle-'));
    store = await openEmbeddedStore({ dir });
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('locks a key after maxFailures inside the window, and the window ends', async () => {
    const t = new LoginThrottle(store, { maxFailures: 2, windowMs: 60_000, now: () => now });
    await t.check('1.1.1.1', 'a');
    await t.recordFailure('1.1.1.1', 'a');
    await t.check('1.1.1.1', 'a');
    await t.recordFailure('2.2.2.2', 'a');
    await expect(t.check('3.3.3.3', 'a')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_AUTH_RATE_LIMITED', details: { retryAfterSec: 60 } });
    await t.check('1.1.1.1', 'b');
    now += 60_001;
    await t.check('3.3.3.3', 'a');
    // A failure after the window starts a new count.
    await t.recordFailure('3.3.3.3', 'a');
    await t.check('4.4.4.4', 'a');
  });

  it('a success clears the account, not the address', async () => {
    const t = new LoginThrottle(store, { maxFailures: 1, windowMs: 60_000, now: () => now });
    await t.recordFailure('1.1.1.1', 'a');
    await t.recordSuccess('a');
    await t.check('9.9.9.9', 'a');
    await expect(t.check('1.1.1.1', 'z')).rejects.toMatchObject({ code: 'TAGSONIC_ERR_AUTH_RATE_LIMITED' });
  });
});
