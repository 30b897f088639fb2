import { hostname } from 'node:os';
import type { Collection, Store } from '../store/port.ts';
import { newId } from '../ids.ts';

/** One process that may own tasks and task items: its lease runs until `expiresAt` unless renewed. */
export interface TaskOwnerDoc {
  /** The owner id stamped on the tasks and items this process holds. */
  _id: string;
  host: string;
  pid: number;
  startedAt: Date;
  heartbeatAt: Date;
  expiresAt: Date;
  [key: string]: unknown;
}

export interface TaskLeaseOptions {
  /** How long a lease lasts without a heartbeat (default 30 s); the heartbeat runs every third of it. */
  ttlMs?: number;
  /** The clock, in ms since the epoch (tests move it by hand). */
  now?: () => number;
  host?: string;
  pid?: number;
  /** Whether a process of this host still runs (default: signal 0). */
  pidAlive?: (pid: number) => boolean;
  /** The owner id (default: a new id per process). */
  ownerId?: string;
}

export const TASK_OWNERS_COLLECTION = 'task_owners';
export const DEFAULT_LEASE_TTL_MS = 30_000;
/** Owner documents expired longer than this are deleted by the next sweep. */
const FORGET_AFTER_MS = 24 * 3600_000;
/** Leases held by this process (tests run several runtimes in one process; each one's work is live). */
const LOCAL_OWNERS = new Set<string>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs under another user, so it runs.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Task leases: each process that creates tasks or works on their items holds one lease in
 * `task_owners` (owner id, host, pid, heartbeat, expiry) and stamps its owner id on what it holds.
 * Work held by an owner whose lease is live is never taken over, so a gateway or worker restart
 * does not steal a task a live worker still runs. A lease is dead when it expired, when its
 * document is gone (a clean shutdown deletes it), or — on the same host — when its process no
 * longer runs (a `kill -9` followed by a restart is settled at once instead of after the ttl; the
 * same pid under another owner id is a container restart where every process is pid 1).
 */
export class TaskLeases {
  readonly ownerId: string;
  readonly ttlMs: number;
  private readonly owners: Collection<TaskOwnerDoc>;
  private readonly now: () => number;
  private readonly host: string;
  private readonly pid: number;
  private readonly pidAlive: (pid: number) => boolean;
  private registered: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(store: Store, options: TaskLeaseOptions = {}) {
    this.owners = store.collection<TaskOwnerDoc>(TASK_OWNERS_COLLECTION);
    this.ownerId = options.ownerId ?? newId();
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.now = options.now ?? Date.now;
    this.host = options.host ?? hostname();
    this.pid = options.pid ?? process.pid;
    this.pidAlive = options.pidAlive ?? processAlive;
  }

  /**
   * Takes this process's lease before its owner id is stamped anywhere (later calls wait for the
   * first), and keeps it alive with a heartbeat that does not hold the process open.
   */
  ensure(): Promise<void> {
    this.registered ??= this.heartbeat().then(
      () => {
        if (!this.closed) LOCAL_OWNERS.add(this.ownerId);
        if (this.closed || this.timer) return;
        this.timer = setInterval(() => void this.heartbeat().catch(() => undefined), Math.max(1, Math.floor(this.ttlMs / 3)));
        this.timer.unref();
      },
      (e: unknown) => {
        this.registered = null;
        throw e;
      },
    );
    return this.registered;
  }

  /** Renews this process's lease until now + ttl. */
  async heartbeat(): Promise<void> {
    if (this.closed) return;
    const at = this.now();
    await this.owners.updateOne(
      { _id: this.ownerId },
      {
        $set: { heartbeatAt: new Date(at), expiresAt: new Date(at + this.ttlMs), host: this.host, pid: this.pid },
        $setOnInsert: { startedAt: new Date(at) },
      },
      { upsert: true },
    );
  }

  /** The owners among `ids` whose lease is live now. */
  async liveOwners(ids: Iterable<string | null | undefined>): Promise<Set<string>> {
    const wanted = [...new Set([...ids].filter((id): id is string => typeof id === 'string'))];
    const live = new Set<string>();
    const others = wanted.filter((id) => {
      if (id !== this.ownerId) return true;
      if (!this.closed) live.add(id);
      return false;
    });
    if (!others.length) return live;
    for (const doc of await this.owners.find({ _id: { $in: others } })) {
      if (this.isLive(doc)) live.add(doc._id);
    }
    return live;
  }

  /** Whether any process other than this one holds a live lease (then a settle waits for in-flight writes). */
  async othersAlive(): Promise<boolean> {
    const docs = await this.owners.find({ _id: { $ne: this.ownerId }, expiresAt: { $gt: new Date(this.now()) } });
    return docs.some((d) => this.isLive(d));
  }

  /** Deletes owner documents that expired long ago (nothing can hold work under them any more). */
  async forgetExpired(): Promise<void> {
    await this.owners.deleteMany({ expiresAt: { $lt: new Date(this.now() - FORGET_AFTER_MS) } });
  }

  private isLive(doc: TaskOwnerDoc): boolean {
    if (new Date(doc.expiresAt).getTime() <= this.now()) return false;
    if (LOCAL_OWNERS.has(doc._id)) return true;
    if (doc.host === this.host && (doc.pid === this.pid || !this.pidAlive(doc.pid))) return false;
    return true;
  }

  /** Stops the heartbeat and gives the lease up, so whatever this process left is settled by the next start. */
  async close(): Promise<void> {
    this.closed = true;
    LOCAL_OWNERS.delete(this.ownerId);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.registered) await this.owners.deleteOne({ _id: this.ownerId }).catch(() => undefined);
  }
}
