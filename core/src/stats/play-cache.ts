/**
 * Each user's plays in memory, followed incrementally from the play log — the statistics' equivalent of the
 * catalogue. A year's statistics read every play of two years: decoding ~50 000 play documents per request
 * from the embedded store costs a second on these machines, where grouping them in memory costs milliseconds.
 *
 * The play log is append-only and its `_id`s sort by creation time (`newId`), so a user's new plays are those
 * with a larger id: each read asks the store (index `userId_1__id_1`) for the ids created since shortly before
 * the newest one seen — FOLLOW_OVERLAP_MS earlier, so a play written by another process whose clock is a little
 * behind is not skipped — and drops the ones it already has. The first read of a user loads all their plays.
 * At most MAX_USERS users are kept (least recently used dropped).
 */
import type { Collection } from '../store/port.ts';
import type { PlayLogDoc } from '../library/model.ts';

export type Play = Pick<PlayLogDoc, '_id' | 'trackId' | 'albumId' | 'artistIds' | 'genres' | 'duration' | 'playedAt' | 'client'>;

/** Clocks of the processes writing plays may differ by up to this much. */
export const FOLLOW_OVERLAP_MS = 60_000;
export const MAX_USERS = 32;
const PROJECTION = { _id: 1, trackId: 1, albumId: 1, artistIds: 1, genres: 1, duration: 1, playedAt: 1, client: 1 } as const;

/** The smallest id `newId` could have made at `ms`. */
const idAt = (ms: number): string => Math.max(0, ms).toString(16).padStart(12, '0') + '0'.repeat(12);
const msOf = (id: string): number => parseInt(id.slice(0, 12), 16);

interface UserPlays {
  plays: Play[];
  /** Ids created within FOLLOW_OVERLAP_MS of the newest (the ones a follow-up read returns again). */
  recent: Set<string>;
  newestMs: number;
  /** Reads of one user run one after another. */
  queue: Promise<unknown>;
}

export class PlayCache {
  private readonly log: Collection<PlayLogDoc>;
  private readonly users = new Map<string, UserPlays>();

  constructor(log: Collection<PlayLogDoc>) {
    this.log = log;
  }

  /** Every play of the user, up to date with the store (do not modify the array). */
  plays(userId: string): Promise<readonly Play[]> {
    let u = this.users.get(userId);
    if (u) this.users.delete(userId); // re-inserted below: Map order is the LRU order
    else u = { plays: [], recent: new Set(), newestMs: -1, queue: Promise.resolve() };
    this.users.set(userId, u);
    if (this.users.size > MAX_USERS) this.users.delete(this.users.keys().next().value!);
    const entry = u;
    const next = entry.queue.then(() => this.follow(userId, entry));
    entry.queue = next.catch(() => undefined);
    return next;
  }

  private async follow(userId: string, u: UserPlays): Promise<readonly Play[]> {
    const filter = u.newestMs < 0 ? { userId } : { userId, _id: { $gte: idAt(u.newestMs - FOLLOW_OVERLAP_MS) } };
    const docs = (await this.log.find(filter, { projection: PROJECTION })) as Play[];
    let newest = u.newestMs;
    for (const d of docs) {
      if (u.recent.has(d._id)) continue;
      u.plays.push(d);
      u.recent.add(d._id);
      newest = Math.max(newest, msOf(d._id));
    }
    if (newest > u.newestMs) {
      u.newestMs = newest;
      for (const id of u.recent) if (msOf(id) < newest - FOLLOW_OVERLAP_MS) u.recent.delete(id);
    }
    return u.plays;
  }
}
