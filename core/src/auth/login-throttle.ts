import { isIPv4, isIPv6 } from 'node:net';
import type { Collection, Store } from '../store/port.ts';
import { TagsonicError } from '../errors/errors.ts';

/**
 * The numbers of the sign-in policy (README "Sign-in limits"). Every count covers failures inside
 * one window that starts at a key's first failure.
 */
export interface LoginPolicy {
  /** Failures one address may make for one account; then that address is refused for that account. */
  perAccountAddress: number;
  /** Failures one address may make across all accounts (guessing many names); then it is refused. */
  perAddress: number;
  /** Failures an account may take from all addresses together before its attempts are slowed down. */
  accountFreeFailures: number;
  /** The first slow-down; it doubles with each further failure of the account, up to `maxAccountDelayMs`. */
  accountDelayMs: number;
  maxAccountDelayMs: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_POLICY: Readonly<LoginPolicy> = {
  perAccountAddress: 10,
  perAddress: 30,
  accountFreeFailures: 10,
  accountDelayMs: 250,
  maxAccountDelayMs: 4000,
  windowMs: 15 * 60_000,
};

export interface LoginThrottleOptions extends Partial<LoginPolicy> {
  /** Keeps the counts of different secrets apart: dashboard passwords and Subsonic credentials. */
  scope?: string;
  now?: () => number;
  /** How a slow-down waits (tests advance a fake clock instead). */
  sleep?: (ms: number) => Promise<void>;
}

interface FailureDoc {
  _id: string;
  count: number;
  /** Start of the current window (ms). */
  since: number;
  [key: string]: unknown;
}

interface Keys {
  pair: string | undefined;
  address: string;
  account: string | undefined;
}

export const RATE_LIMITED = 'TAGSONIC_ERR_AUTH_RATE_LIMITED';

/** Keys this process remembers (beyond them it forgets the oldest; the store keeps the counts). */
const MAX_REMEMBERED = 50_000;

/**
 * Counts failed sign-ins in the store, so every gateway of a distributed deployment sees the same
 * counts, under three keys: the (account, address) pair and the address are hard limits (refused until
 * the window ends); the account as a whole is only slowed down, so guessing from many addresses cannot
 * lock its owner out: the right password from an address without failures still signs in.
 *
 * Each process also mirrors the pair and address counts it sees in memory, bumped the moment a failure
 * is known (before the store answers). The Subsonic API authenticates every request, so `attempt`'s
 * success path asks only this mirror and touches the store only after a failure. The dashboard also
 * calls `check` first, which reads the store (sign-ins are rare) and slows every attempt on an account
 * under attack, not only the failures.
 */
export class LoginThrottle {
  private readonly failures: Collection<FailureDoc>;
  readonly policy: Readonly<LoginPolicy>;
  private readonly scope: string;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Pair and address key → its count in this window, as far as this process knows. */
  private readonly seen = new Map<string, { count: number; since: number }>();
  /** Address key → the credential checks from it now running (settled when each is known right or counted). */
  private readonly inFlight = new Map<string, Set<Promise<unknown>>>();
  private readonly addresses = new Map<string, string>();
  private lastSweep = 0;

  constructor(store: Store, options: LoginThrottleOptions = {}) {
    this.failures = store.collection<FailureDoc>('login_failures');
    const { scope, now, sleep, ...policy } = options;
    this.policy = { ...DEFAULT_LOGIN_POLICY, ...policy };
    this.scope = scope ?? 'dashboard';
    this.now = now ?? Date.now;
    this.sleep = sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Loads the blocks in force (recorded by another process, or by this one before a restart). */
  async init(): Promise<void> {
    const now = this.now();
    const low = Math.min(this.policy.perAccountAddress, this.policy.perAddress);
    const docs = await this.failures.find({ count: { $gte: low }, since: { $gt: now - this.policy.windowMs } });
    for (const doc of docs) if (doc._id.startsWith(`${this.scope}|`) && this.limitOf(doc._id) !== undefined) this.mirror(doc._id, doc, now);
  }

  /**
   * Dashboard, before verifying a password: refuses an address over its limits, then waits out the
   * account's slow-down (whatever the password, so a right guess is not answered sooner).
   */
  async check(ip: string, username: string): Promise<void> {
    this.assertNotRefused(ip, username);
    const now = this.now();
    const k = this.keys(ip, username);
    let accountFailures = 0;
    for (const id of [k.pair!, k.address, k.account!]) {
      const doc = await this.failures.findOne({ _id: id });
      if (!doc || now - doc.since >= this.policy.windowMs) continue;
      if (id === k.account) accountFailures = doc.count;
      else this.mirror(id, doc, now);
    }
    this.assertNotRefused(ip, username);
    await this.pause(this.delayFor(accountFailures));
  }

  /** Memory only: the seconds this address is still refused (for this account), or undefined. */
  refusedFor(ip: string, username: string | undefined): number | undefined {
    return this.seen.size === 0 ? undefined : this.refusedForKeys(this.keys(ip, username));
  }

  /** Throws the rate-limit error while `refusedFor` says so. */
  assertNotRefused(ip: string, username: string | undefined): void {
    if (this.seen.size > 0) this.assertKeysNotRefused(this.keys(ip, username));
  }

  private refusedForKeys(k: Keys): number | undefined {
    const now = this.now();
    let until = 0;
    for (const id of [k.pair, k.address]) {
      const entry = id === undefined ? undefined : this.seen.get(id);
      if (!entry) continue;
      const end = entry.since + this.policy.windowMs;
      if (end <= now) this.seen.delete(id!);
      else if (entry.count >= this.limitOf(id!)!) until = Math.max(until, end);
    }
    return until > 0 ? Math.ceil((until - now) / 1000) : undefined;
  }

  private assertKeysNotRefused(k: Keys): void {
    const sec = this.seen.size === 0 ? undefined : this.refusedForKeys(k);
    if (sec !== undefined) throw rateLimited(sec);
  }

  /**
   * Checks credentials under the limits: an address the mirror refuses is refused at once; a failure is
   * counted (and, with `slowFailures`, answered after the account's slow-down); a success first waits
   * for the checks from its address that started before it, so that of many guesses sent at once, one
   * that is right but answered after the limit was reached is refused like the rest. Its address's
   * failures for the account are then forgiven. Null when `verify` says the credentials are wrong.
   */
  async attempt<T>(ip: string, username: string | undefined, verify: () => Promise<T | null>, options: { slowFailures?: boolean } = {}): Promise<T | null> {
    // The success path builds no key strings unless this process has seen failures: the Subsonic API
    // authenticates every request, and most servers never see a wrong password.
    const address = this.addressOf(ip);
    if (this.seen.size > 0) this.assertKeysNotRefused(this.keys(ip, username));
    const running = this.inFlight.get(address);
    const before = running === undefined ? undefined : [...running];
    const check = verify().then((ok) => {
      if (!ok) this.note(this.keys(ip, username), this.now());
      return ok;
    });
    this.inFlight.set(address, (running ?? new Set()).add(check));
    let ok: T | null;
    try {
      ok = await check;
    } finally {
      const set = this.inFlight.get(address);
      set?.delete(check);
      if (set?.size === 0) this.inFlight.delete(address);
    }
    if (!ok) {
      const delay = await this.countInStore(this.keys(ip, username), this.now());
      if (options.slowFailures) await this.pause(delay);
      return null;
    }
    if (before !== undefined) await Promise.allSettled(before);
    if (this.seen.size > 0) {
      const k = this.keys(ip, username);
      this.assertKeysNotRefused(k);
      if (k.pair !== undefined && this.seen.has(k.pair)) await this.forgive(k.pair);
    }
    return ok;
  }

  /**
   * Counts one failure under each key (an API key names no account: the address only). Returns how long
   * the account's attempts are now slowed down.
   */
  async recordFailure(ip: string, username: string | undefined): Promise<number> {
    const k = this.keys(ip, username);
    const now = this.now();
    this.note(k, now);
    return this.countInStore(k, now);
  }

  /** Bumps the mirror's pair and address counts at once, before the store answers. */
  private note(k: Keys, now: number): void {
    for (const id of [k.pair, k.address]) {
      if (id === undefined) continue;
      const entry = this.seen.get(id);
      this.mirror(id, !entry || now - entry.since >= this.policy.windowMs ? { count: 1, since: now } : { count: entry.count + 1, since: entry.since }, now);
    }
  }

  /** Counts the failure in the store (every process's counts) and returns the account's slow-down. */
  private async countInStore(k: Keys, now: number): Promise<number> {
    await this.sweep(now);
    for (const id of [k.pair, k.address]) if (id !== undefined) this.mirror(id, await this.count(id, now), now);
    return k.account === undefined ? 0 : this.delayFor((await this.count(k.account, now)).count);
  }

  /** The right password from this address: its failures for this account are forgiven (not the address's). */
  async recordSuccess(ip: string, username: string): Promise<void> {
    await this.forgive(this.keys(ip, username).pair!);
  }

  private async forgive(pair: string): Promise<void> {
    this.seen.delete(pair);
    await this.failures.deleteOne({ _id: pair });
  }

  /** Waits out a slow-down. */
  async pause(ms: number): Promise<void> {
    if (ms > 0) await this.sleep(ms);
  }

  /** The slow-down after `failures` failures of one account: none, then doubling up to the cap. */
  delayFor(failures: number): number {
    const over = failures - this.policy.accountFreeFailures;
    if (over <= 0) return 0;
    return Math.min(this.policy.maxAccountDelayMs, this.policy.accountDelayMs * 2 ** Math.min(over - 1, 30));
  }

  /** The hard limit of a pair or address key; undefined for an account key. */
  private limitOf(id: string): number | undefined {
    const kind = id.slice(this.scope.length + 1, id.indexOf('|', this.scope.length + 1));
    return kind === 'pair' ? this.policy.perAccountAddress : kind === 'addr' ? this.policy.perAddress : undefined;
  }

  /** Keeps the larger of what memory and `doc` say for the key's current window. */
  private mirror(id: string, doc: { count: number; since: number }, now: number): void {
    const entry = this.seen.get(id);
    if (entry && entry.since + this.policy.windowMs > now && entry.count >= doc.count) return;
    if (!entry && this.seen.size >= MAX_REMEMBERED) {
      for (const [key, e] of this.seen) if (e.since + this.policy.windowMs <= now) this.seen.delete(key);
      if (this.seen.size >= MAX_REMEMBERED) this.seen.delete(this.seen.keys().next().value!);
    }
    this.seen.set(id, { count: doc.count, since: doc.since });
  }

  /** One more failure under `id`: a window that ended starts over, otherwise the count goes up. */
  private async count(id: string, now: number): Promise<FailureDoc> {
    const reset = await this.failures.findOneAndUpdate({ _id: id, since: { $lte: now - this.policy.windowMs } }, { $set: { count: 1, since: now } });
    if (reset) return reset;
    return (await this.failures.findOneAndUpdate({ _id: id }, { $inc: { count: 1 }, $setOnInsert: { since: now } }, { upsert: true }))!;
  }

  /** Drops ended windows, at most once per window, so guessed names and addresses do not pile up. */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < this.policy.windowMs) return;
    this.lastSweep = now;
    await this.failures.deleteMany({ since: { $lte: now - this.policy.windowMs } });
  }

  /** `addressKey(ip)`, remembered for the addresses seen lately (every request asks). */
  private addressOf(ip: string): string {
    let address = this.addresses.get(ip);
    if (address === undefined) {
      if (this.addresses.size >= 4096) this.addresses.clear();
      address = addressKey(ip);
      this.addresses.set(ip, address);
    }
    return address;
  }

  private keys(ip: string, name: string | undefined): Keys {
    const address = this.addressOf(ip);
    // A name is only a key here: a long one (Subsonic's u may be anything) is cut, not stored whole.
    const username = name?.slice(0, 200);
    return {
      pair: username === undefined ? undefined : `${this.scope}|pair|${address}|${username}`,
      address: `${this.scope}|addr|${address}`,
      account: username === undefined ? undefined : `${this.scope}|user|${username}`,
    };
  }
}

export function rateLimited(retryAfterSec: number): TagsonicError {
  const minutes = Math.max(1, Math.ceil(retryAfterSec / 60));
  // 'unauthorized': the Subsonic API answers it as error 40; the dashboard's envelope maps the code to 429.
  return new TagsonicError('unauthorized', RATE_LIMITED, `Too many failed sign-ins from this address; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
    details: { retryAfterSec },
  });
}

/**
 * The address a limit counts: IPv4 as is (also when IPv4-mapped), IPv6 by its /64 network, since one
 * subscriber usually holds a whole /64 and could otherwise rotate through 2^64 addresses.
 */
export function addressKey(ip: string): string {
  const plain = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(plain)) return plain;
  const [head, tail] = plain.includes('::') ? plain.split('::') : [plain, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  // An embedded IPv4 tail (a:b::1.2.3.4) fills two groups; only the first four groups matter here.
  const width = (list: string[]) => list.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const full = tail === undefined ? left : [...left, ...Array<string>(8 - width(left) - width(right)).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}
