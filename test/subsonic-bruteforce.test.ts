/**
 * Guessing Subsonic credentials (issue 10 item 1) and empty credential parameters (item 9): failed
 * `p`, `enc:`, `t`+`s` and `apiKey` attempts are counted per address and per account in the store, an
 * address over its limit gets the Subsonic error envelope with the retry time (even for the right
 * password), other addresses still sign in, an account under attack is only slowed down, and a
 * successful request never touches the counts. The gateway runs behind a trusted proxy (127.0.0.1, the
 * address `inject` uses), so X-Forwarded-For names the client; the throttle's clock and sleep are fake.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@tagsonic/core/config';
import { DEFAULT_LOGIN_POLICY } from '@tagsonic/core/auth';
import { SubsonicCredentials } from '@tagsonic/core/users';
import { buildApp } from '@tagsonic/gateway';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import { parseXml } from './subsonic-harness.ts';

const ADMIN = { username: 'admin', subsonic: 'admin-sub-password' };
const ALICE = { username: 'alice', subsonic: 'alice-sub-password' };
const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const THROTTLED = /^Too many failed sign-ins from this address; try again in 15 minutes\.$/;

let rt: Runtime;
let app: FastifyInstance;
let home: string;
let aliceKey: string;
let now = Date.UTC(2026, 10, 25, 12);
const slept: number[] = [];

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-bruteforce-'));
  rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home, TAGSONIC_TRUSTED_PROXIES: '127.0.0.1' }));
  await rt.users.ensureAdmin('admin-login-password');
  await rt.users.create({ username: ALICE.username, password: 'alice-login-password' });
  const credentials = new SubsonicCredentials(rt.store, rt.users, rt.secrets.subsonicKey);
  await credentials.init();
  await credentials.setPassword(ADMIN.username, ADMIN.subsonic);
  await credentials.setPassword(ALICE.username, ALICE.subsonic);
  aliceKey = (await credentials.createApiKey(ALICE.username, 'phone')).key;
  app = await buildApp(
    gatewayDeps(rt, {
      buildId: 'test',
      dashboardDir: path.join(home, 'no-dashboard'),
      loginLimits: {
        now: () => now,
        sleep: async (ms) => {
          slept.push(ms);
          now += ms;
        },
      },
    }),
  );
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await rt?.close();
  await rm(home, { recursive: true, force: true });
});
beforeEach(() => {
  // Every test starts a quarter of an hour later: the windows of the one before have ended.
  now += DEFAULT_LOGIN_POLICY.windowMs + 1;
  slept.length = 0;
});

/** ping from `ip` (sent through the trusted proxy) with these credentials: the `subsonic-response`. */
async function ping(ip: string, auth: Record<string, string>, format: 'json' | 'xml' = 'json'): Promise<any> {
  const q = new URLSearchParams({ v: '1.16.1', c: 'attacker', ...(format === 'json' ? { f: 'json' } : {}), ...auth });
  const res = await app.inject({ method: 'GET', url: `/rest/ping.view?${q}`, headers: { 'x-forwarded-for': ip } });
  expect(res.statusCode).toBe(200);
  return format === 'json' ? res.json()['subsonic-response'] : parseXml(res.body)['subsonic-response'];
}

const failures = (body: any) => (body.status === 'failed' ? `${body.error.code} ${body.error.message}` : 'ok');

describe('Subsonic brute force', () => {
  it('200 wrong passwords: 10 are answered, then the address is refused (JSON and XML) even with the right password; another address signs in', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 200; i++) answers.push(failures(await ping('203.0.113.7', { u: ADMIN.username, p: i % 2 ? `wrong${i}` : `enc:${hex(`wrong${i}`)}` })));
    expect(answers.slice(0, 10)).toEqual(Array(10).fill('40 Wrong username or password.'));
    for (const a of answers.slice(10)) expect(a).toMatch(/^40 Too many failed sign-ins from this address; try again in 15 minutes\.$/);
    const right = await ping('203.0.113.7', { u: ADMIN.username, p: ADMIN.subsonic });
    expect(right.error.message).toMatch(THROTTLED);
    const inXml = await ping('203.0.113.7', { u: ADMIN.username, p: ADMIN.subsonic }, 'xml');
    expect(inXml.status).toBe('failed');
    expect(inXml.error[0]).toMatchObject({ code: '40', message: expect.stringMatching(THROTTLED) });
    // The owner elsewhere is neither refused nor slowed down (10 failures are within the account's free allowance).
    expect((await ping('198.51.100.20', { u: ADMIN.username, p: ADMIN.subsonic })).status).toBe('ok');
    expect(slept).toEqual([]);
    // The window ends: the address may try again.
    now += DEFAULT_LOGIN_POLICY.windowMs;
    expect((await ping('203.0.113.7', { u: ADMIN.username, p: ADMIN.subsonic })).status).toBe('ok');
  });

  it('token failures count too', async () => {
    for (let i = 0; i < 10; i++) expect(failures(await ping('203.0.113.8', { u: ALICE.username, t: md5(`guess${i}salt`), s: 'salt' }))).toBe('40 Wrong username or password.');
    const right = { u: ALICE.username, t: md5(`${ALICE.subsonic}s1`), s: 's1' };
    expect((await ping('203.0.113.8', right)).error.message).toMatch(THROTTLED);
    expect((await ping('198.51.100.21', right)).status).toBe('ok');
  });

  it('API key failures count against the address, which then refuses every user behind it; others are unaffected', async () => {
    for (let i = 0; i < DEFAULT_LOGIN_POLICY.perAddress; i++) expect(failures(await ping('203.0.113.9', { apiKey: `tsk_guess-${i}` }))).toBe('44 Invalid API key.');
    expect((await ping('203.0.113.9', { apiKey: aliceKey })).error).toMatchObject({ code: 40, message: expect.stringMatching(THROTTLED) });
    expect((await ping('203.0.113.9', { u: ADMIN.username, p: ADMIN.subsonic })).error.message).toMatch(THROTTLED);
    expect((await ping('198.51.100.22', { apiKey: aliceKey })).status).toBe('ok');
  });

  it('failures from many addresses slow the account down (doubling to 4 s), never lock it', async () => {
    for (let i = 0; i < 14; i++) expect(failures(await ping(`192.0.2.${i + 1}`, { u: ADMIN.username, p: `wrong${i}` }))).toBe('40 Wrong username or password.');
    expect(slept).toEqual([250, 500, 1000, 2000]);
    expect(failures(await ping('192.0.2.100', { u: ADMIN.username, p: 'wrong-again' }))).toBe('40 Wrong username or password.');
    expect(slept.at(-1)).toBe(4000);
    slept.length = 0;
    expect((await ping('192.0.2.101', { u: ADMIN.username, p: ADMIN.subsonic })).status).toBe('ok');
    expect(slept).toEqual([]);
  });

  it('guesses sent at once: once the failures answered reach the limit, the right one is refused too', async () => {
    const guesses = Array.from({ length: 40 }, (_, i) => ping('203.0.113.10', { u: ADMIN.username, p: `parallel${i}` }));
    const right = ping('203.0.113.10', { u: ADMIN.username, p: ADMIN.subsonic });
    const answers = (await Promise.all(guesses)).map(failures);
    expect(answers.filter((a) => a === '40 Wrong username or password.').length).toBeGreaterThanOrEqual(10);
    expect((await right).error.message).toMatch(THROTTLED);
  });

  it('a successful request reads and writes no counts, even while some address is refused', async () => {
    for (let i = 0; i < 10; i++) await ping('203.0.113.11', { u: ALICE.username, p: `wrong${i}` });
    expect((await ping('203.0.113.11', { u: ALICE.username, p: ALICE.subsonic })).error.message).toMatch(THROTTLED);
    const counts = rt.store.collection('login_failures');
    const spies = (['findOne', 'find', 'findOneAndUpdate', 'updateOne', 'deleteOne', 'deleteMany'] as const).map((m) => vi.spyOn(counts, m));
    try {
      for (let i = 0; i < 20; i++) expect((await ping('198.51.100.23', { u: ALICE.username, p: ALICE.subsonic })).status).toBe('ok');
      expect((await ping('198.51.100.23', { apiKey: aliceKey })).status).toBe('ok');
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('a right password forgives its address’s earlier failures for that account', async () => {
    for (let i = 0; i < 9; i++) await ping('203.0.113.12', { u: ALICE.username, p: `typo${i}` });
    expect((await ping('203.0.113.12', { u: ALICE.username, p: ALICE.subsonic })).status).toBe('ok');
    for (let i = 0; i < 9; i++) expect(failures(await ping('203.0.113.12', { u: ALICE.username, p: `typo-again${i}` }))).toBe('40 Wrong username or password.');
  });
});

describe('empty credential parameters are no credentials (as Navidrome)', () => {
  it('p= beside a valid t+s (airsonic-refix), apiKey= beside u+p, t= s= beside p, p= t= beside apiKey', async () => {
    expect((await ping('198.51.100.30', { u: ALICE.username, p: '', t: md5(`${ALICE.subsonic}x1`), s: 'x1' })).status).toBe('ok');
    expect((await ping('198.51.100.30', { apiKey: '', u: ALICE.username, p: ALICE.subsonic })).status).toBe('ok');
    expect((await ping('198.51.100.30', { u: ALICE.username, p: ALICE.subsonic, t: '', s: '' })).status).toBe('ok');
    expect((await ping('198.51.100.30', { apiKey: aliceKey, p: '', t: '' })).status).toBe('ok');
  });

  it('alone, an empty secret is still a wrong one; a real mix is still error 43', async () => {
    expect((await ping('198.51.100.31', { u: ALICE.username, p: '' })).error.code).toBe(40);
    expect((await ping('198.51.100.31', { apiKey: '' })).error.code).toBe(44);
    expect((await ping('198.51.100.31', { u: ALICE.username, t: '', s: '' })).error.code).toBe(10);
    expect((await ping('198.51.100.31', { u: ALICE.username, p: ALICE.subsonic, t: md5(`${ALICE.subsonic}a`), s: 'a' })).error.code).toBe(43);
    expect((await ping('198.51.100.31', { apiKey: aliceKey, u: ALICE.username })).error.code).toBe(43);
  });
});
