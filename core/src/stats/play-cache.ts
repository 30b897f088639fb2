/**
 * Each user's plays in memory, followed incrementally from the play log — the statistics' equivalent of the
 * catalogue. A year's statistics read every play of two years: decoding ~50 000 play documents per request
 * from the embedded store costs a second on these machines, where grouping them in memory costs milliseconds.
 *
 * The play log is append-only and its `_id`s sort by creation time (`newId`), so a user's new plays are those
 * with a larger id: each read asks the store (index `userId_1__id_1`) for the ids above the newest one seen. A play
 * written by another process whose clock is a little behind gets a smaller id: an index-only count of the ids
 * within FOLLOW_OVERLAP_MS below the newest tells whether such a play arrived, and only then is that window read
 * again (and the plays already known dropped). The first read of a user loads all their plays.
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
  /** Ids created within FOLLOW_OVERLAP_MS of the newest: the window a late writer's play may land in. */
  recent: Set<string>;
  /** The largest id seen ('' before the first) and its time (-1 before the first read). */
  newestId: string;
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
    else u = { plays: [], recent: new Set(), newestId: '', newestMs: -1, queue: Promise.resolve() };
    this.users.set(userId, u);
    if (this.users.size > MAX_USERS) this.users.delete(this.users.keys().next().value!);
    const entry = u;
    const next = entry.queue.then(() => this.follow(userId, entry));
    entry.queue = next.catch(() => undefined);
    return next;
  }

  private async follow(userId: string, u: UserPlays): Promise<readonly Play[]> {
    if (u.newestMs < 0) {
      this.add(u, (await this.log.find({ userId }, { projection: PROJECTION })) as Play[]);
      return u.plays;
    }
    // New plays by id; then an index-only count of the overlap window tells whether a late one slipped in below.
    this.add(u, (await this.log.find({ userId, _id: { $gt: u.newestId } }, { projection: PROJECTION })) as Play[]);
    const windowStart = idAt(u.newestMs - FOLLOW_OVERLAP_MS);
    if ((await this.log.countDocuments({ userId, _id: { $gte: windowStart } })) !== u.recent.size) {
      this.add(u, (await this.log.find({ userId, _id: { $gte: windowStart } }, { projection: PROJECTION })) as Play[]);
    }
    return u.plays;
  }

  private add(u: UserPlays, docs: readonly Play[]): void {
    for (const d of docs) {
      if (u.recent.has(d._id)) continue;
      // A plain copy: what the store hands out may decode fields on access, and statistics read each many times.
      u.plays.push({
        _id: d._id,
        trackId: d.trackId,
        albumId: d.albumId,
        artistIds: [...d.artistIds],
        genres: [...d.genres],
        duration: d.duration,
        playedAt: new Date(d.playedAt.getTime()),
        client: d.client,
      });
      u.recent.add(d._id);
      if (d._id > u.newestId) u.newestId = d._id;
    }
    if (u.newestId === '') return;
    u.newestMs = msOf(u.newestId);
    const windowStart = idAt(u.newestMs - FOLLOW_OVERLAP_MS);
    for (const id of u.recent) if (id < windowStart) u.recent.delete(id);
  }
}
