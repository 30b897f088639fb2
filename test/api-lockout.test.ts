/**
 * Dashboard sign-in limits (issue 10 item 2): wrong passwords no longer lock an account for everyone.
 * An (account, address) pair and an address are refused (429) past their limits; the account as a
 * whole is only slowed down, so its owner signs in from another address and other users behind the
 * attacker's address are blocked only by the address's own limit. Behind a trusted proxy (127.0.0.1,
 * the address `inject` uses) X-Forwarded-For names the client; the throttle's clock and sleep are fake.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_POLICY } from '@tagsonic/core/auth';
import { ADMIN_PASSWORD, USER_PASSWORD, expectError, expectOk, startHarness, type Harness } from './api-harness.ts';

let h: Harness;
let now = Date.UTC(2026, 10, 25, 12);
const slept: number[] = [];
beforeAll(async () => {
  h = await startHarness({
    env: { TAGSONIC_TRUSTED_PROXIES: '127.0.0.1' },
    loginLimits: {
      now: () => now,
      sleep: async (ms) => {
        slept.push(ms);
        now += ms;
      },
    },
  });
});
afterAll(async () => h?.close());
beforeEach(() => {
  // Every test starts a quarter of an hour later: the windows of the one before have ended.
  now += DEFAULT_LOGIN_POLICY.windowMs + 1;
  slept.length = 0;
});

const signIn = (ip: string, username: string, password: string, remoteAddress = '127.0.0.1') =>
  h.app.inject({ method: 'POST', url: '/apimt/token/', remoteAddress, headers: { 'x-forwarded-for': ip }, payload: { username, password } });

const RATE_LIMITED = /^Too many failed sign-ins from this address; try again in \d+ minutes?\.$/;

describe('dashboard sign-in limits', () => {
  it('10 failures from address A refuse A for that account; the admin signs in from B; another user behind A is not blocked', async () => {
    for (let i = 0; i < 10; i++) expectError(await signIn('203.0.113.1', 'admin', `guess-${i}`), 401, 'TAGSONIC_ERR_AUTH_BAD_CREDENTIALS');
    const refused = expectError(await signIn('203.0.113.1', 'admin', `guess-more`), 429, 'TAGSONIC_ERR_AUTH_RATE_LIMITED', 42900);
    expect(refused.message).toMatch(RATE_LIMITED);
    // The right password from the attacking address is refused too while the pair is blocked.
    expectError(await signIn('203.0.113.1', 'admin', ADMIN_PASSWORD), 429, 'TAGSONIC_ERR_AUTH_RATE_LIMITED');
    // From B the admin signs in: no 429.
    expectOk(await signIn('198.51.100.1', 'admin', ADMIN_PASSWORD));
    // alice behind A is not blocked: A has 10 failures, its own limit is 30.
    expectOk(await signIn('203.0.113.1', 'alice', USER_PASSWORD));
  });

  it('failures from many addresses slow the account down (doubling, capped) instead of refusing it', async () => {
    for (let i = 0; i < 13; i++) expectError(await signIn(`192.0.2.${i + 1}`, 'admin', `guess-${i}`), 401);
    // 13 failures: the 11th, 12th and 13th made the next attempt wait 250, 500 then 1000 ms (before its check).
    expect(slept).toEqual([250, 500]);
    slept.length = 0;
    expectOk(await signIn('198.51.100.2', 'admin', ADMIN_PASSWORD));
    expect(slept).toEqual([1000]);
    for (let i = 0; i < 5; i++) expectError(await signIn(`192.0.2.${i + 100}`, 'admin', `more-${i}`), 401);
    slept.length = 0;
    expectOk(await signIn('198.51.100.2', 'admin', ADMIN_PASSWORD));
    expect(slept).toEqual([DEFAULT_LOGIN_POLICY.maxAccountDelayMs]);
  });

  it('an address guessing many accounts is refused for all of them, other addresses are not', async () => {
    for (let i = 0; i < DEFAULT_LOGIN_POLICY.perAddress; i++) expectError(await signIn('203.0.113.2', `user${i}`, 'wrong-password'), 401);
    expectError(await signIn('203.0.113.2', 'alice', USER_PASSWORD), 429, 'TAGSONIC_ERR_AUTH_RATE_LIMITED');
    expectOk(await signIn('198.51.100.3', 'alice', USER_PASSWORD));
  });

  it('X-Forwarded-For from an untrusted peer is ignored: the peer itself is counted', async () => {
    for (let i = 0; i < 10; i++) expectError(await signIn(`1.2.3.${i}`, 'alice', 'wrong-password', '10.9.9.9'), 401);
    expectError(await signIn('1.2.3.200', 'alice', USER_PASSWORD, '10.9.9.9'), 429);
    expectOk(await signIn('1.2.3.200', 'alice', USER_PASSWORD));
  });

  it('guesses sent at once: once the failures answered reach the limit, the right one is refused too', async () => {
    const guesses = Array.from({ length: 16 }, (_, i) => signIn('203.0.113.3', 'alice', `parallel-${i}`));
    const right = signIn('203.0.113.3', 'alice', USER_PASSWORD);
    const statuses = (await Promise.all(guesses)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(10);
    expectError(await right, 429, 'TAGSONIC_ERR_AUTH_RATE_LIMITED');
  });
});
