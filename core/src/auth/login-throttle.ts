import type { Collection, Store } from '../store/port.ts';
import { TagsonicError } from '../errors/errors.ts';

export interface LoginThrottleOptions {
  /** Failed sign-ins allowed per key within the window. */
  maxFailures?: number;
  windowMs?: number;
  now?: () => number;
}

interface FailureDoc {
  _id: string;
  count: number;
  /** Start of the current window (ms). */
  since: number;
  [key: string]: unknown;
}

export const RATE_LIMITED = 'TAGSONIC_ERR_AUTH_RATE_LIMITED';

/**
 * Counts failed sign-ins per client address and per account name in the store, so every gateway of
 * a distributed deployment sees the same counts. After `maxFailures` failures inside `windowMs` the
 * key is refused until the window ends; a successful sign-in clears the account's count (not the
 * address's, or one valid account would unlock guessing at all the others).
 */
export class LoginThrottle {
  private readonly failures: Collection<FailureDoc>;
  readonly maxFailures: number;
  readonly windowMs: number;
  private readonly now: () => number;

  constructor(store: Store, options: LoginThrottleOptions = {}) {
    this.failures = store.collection<FailureDoc>('login_failures');
    this.maxFailures = options.maxFailures ?? 10;
    this.windowMs = options.windowMs ?? 15 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Throws a rate-limit error when any key is locked out. */
  async check(ip: string, username: string): Promise<void> {
    const now = this.now();
    for (const id of keys(ip, username)) {
      const doc = await this.failures.findOne({ _id: id });
      if (doc && doc.count >= this.maxFailures && now - doc.since < this.windowMs) {
        const minutes = Math.max(1, Math.ceil((doc.since + this.windowMs - now) / 60_000));
        throw new TagsonicError('forbidden', RATE_LIMITED, `Too many failed sign-ins; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
          details: { retryAfterSec: Math.ceil((doc.since + this.windowMs - now) / 1000) },
        });
      }
    }
  }

  async recordFailure(ip: string, username: string): Promise<void> {
    const now = this.now();
    for (const id of keys(ip, username)) {
      // A window that ended starts over; otherwise count up.
      const reset = await this.failures.updateOne({ _id: id, since: { $lte: now - this.windowMs } }, { $set: { count: 1, since: now } });
      if (reset.matchedCount > 0) continue;
      await this.failures.updateOne({ _id: id }, { $inc: { count: 1 }, $setOnInsert: { since: now } }, { upsert: true });
    }
  }

  async recordSuccess(username: string): Promise<void> {
    await this.failures.deleteOne({ _id: `user:${username}` });
  }
}

const keys = (ip: string, username: string) => [`ip:${ip}`, `user:${username}`];
