/**
 * A pool of reader threads so a library scan uses every core: each thread runs `readTags` with several
 * files in flight. A file that makes a thread hang past the timeout gets a clear error, and that thread
 * is replaced (a synchronous parser loop cannot be interrupted any other way); the other files it was
 * reading are re-queued.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { workerEnv } from '../compile-cache.ts';
import { TagsonicError } from '../errors/index.ts';
import type { ReadOptions, ReadResult } from './model.ts';
import type { ReadBatch, ReadReply, ReadRequest, ReplyBatch } from './reader-worker.ts';
import { DEFAULT_READ_TIMEOUT_MS } from './read.ts';
import { TAG_ERRORS, invalid, unavailable } from './errors.ts';

export interface TagReaderPoolOptions {
  /** Threads to start; defaults to the number of cores. */
  threads?: number;
  /** Files parsed at once by one thread (their I/O overlaps when the disk is slow); default 32. */
  inFlightPerThread?: number;
  timeoutMs?: number;
}

export interface TagReaderPool {
  readonly threads: number;
  read(path: string, options?: ReadOptions): Promise<ReadResult>;
  /** Refuses new reads, finishes every read already asked for, then stops the threads. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  path: string;
  artwork: boolean;
  attempts: number;
  resolve: (r: ReadResult) => void;
  reject: (e: unknown) => void;
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  jobs: Map<number, Job>;
}

const WORKER_URL = new URL('./reader-worker.ts', import.meta.url);
const YOUNG_GENERATION_MB = 64;

export function createTagReaderPool(options: TagReaderPoolOptions = {}): TagReaderPool {
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const perThread = Math.max(1, options.inFlightPerThread ?? 32);
  /** A thread gets more work once it is down to this many files, then a batch filling it up again. */
  const refillAt = Math.floor(perThread / 2);
  const timeoutMs = options.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  const slots: Slot[] = [];
  const queue = new JobQueue();
  let nextId = 1;
  let closed = false;
  /** Set once the threads are being stopped; until then a dead thread is always replaced. */
  let terminated = false;
  let drained: (() => void) | null = null;

  const spawn = (): Slot => {
    // execArgv: [] — the parent's flags (e.g. --no-node-snapshot) are not all valid in a worker. A larger
    // young generation: parsing makes short-lived garbage only, and fewer scavenges cut a scan's CPU ~5 %.
    const slot: Slot = { worker: new Worker(WORKER_URL, { execArgv: [], env: workerEnv(), resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } }), jobs: new Map() };
    slot.worker.on('message', (batch: ReplyBatch) => {
      for (const reply of batch.replies) settle(slot, reply);
      pump();
    });
    slot.worker.on('error', (err) => replace(slot, err));
    slot.worker.on('exit', (code) => {
      if (!terminated && slots.includes(slot)) replace(slot, new Error(`reader thread exited with code ${code}`));
    });
    // Idle threads must not keep the process alive; busy ones must (see pump/settle).
    slot.worker.unref();
    return slot;
  };

  const pump = () => {
    while (queue.length > 0) {
      let best: Slot | undefined;
      for (const s of slots) if (s.jobs.size <= refillAt && (!best || s.jobs.size < best.jobs.size)) best = s;
      if (!best) break;
      if (best.jobs.size === 0) best.worker.ref();
      const requests: ReadRequest[] = [];
      while (queue.length > 0 && best.jobs.size < perThread) {
        const job = queue.take()!;
        const slot = best;
        best.jobs.set(job.id, job);
        job.timer = setTimeout(() => timedOut(slot, job), timeoutMs + 1000);
        requests.push({ id: job.id, path: job.path, artwork: job.artwork, timeoutMs });
      }
      best.worker.postMessage({ requests } satisfies ReadBatch);
    }
    if (closed && drained && queue.length === 0 && slots.every((s) => s.jobs.size === 0)) drained();
  };

  /** Reads asked for in one go (a scan asks for thousands) leave in full batches, not one by one. */
  let pumpScheduled = false;
  const pumpSoon = () => {
    if (pumpScheduled) return;
    pumpScheduled = true;
    queueMicrotask(() => {
      pumpScheduled = false;
      pump();
    });
  };

  const settle = (slot: Slot, reply: ReadReply) => {
    const job = slot.jobs.get(reply.id);
    if (!job) return;
    slot.jobs.delete(reply.id);
    clearTimeout(job.timer);
    if (slot.jobs.size === 0) slot.worker.unref();
    if (reply.ok) job.resolve(reply.result);
    else {
      const e = reply.error;
      job.reject(
        e.code && e.kind
          ? new TagsonicError(e.kind as TagsonicError['kind'], e.code, e.message, { details: e.details })
          : new TagsonicError('internal', TAG_ERRORS.UNREADABLE, `Reading ${job.path} failed: ${e.message}`, { details: { path: job.path } }),
      );
    }
  };

  const timedOut = (slot: Slot, job: Job) => {
    slot.jobs.delete(job.id);
    job.reject(invalid(TAG_ERRORS.READ_TIMEOUT, `Reading ${job.path} took longer than ${timeoutMs} ms; the file is probably malformed.`, { path: job.path }));
    replace(slot, null);
  };

  /** Swap a dead or stuck thread for a fresh one and give its other files another try. */
  const replace = (slot: Slot, err: unknown) => {
    const index = slots.indexOf(slot);
    if (index < 0) return;
    slots.splice(index, 1);
    void slot.worker.terminate();
    for (const job of slot.jobs.values()) {
      clearTimeout(job.timer);
      if (job.attempts >= 2) job.reject(unavailable(TAG_ERRORS.ENGINE_UNAVAILABLE, `The reader thread reading ${job.path} failed twice.`, err));
      else {
        job.attempts++;
        queue.retry(job);
      }
    }
    slot.jobs.clear();
    if (!terminated) slots.push(spawn());
    pump();
  };

  for (let i = 0; i < threads; i++) slots.push(spawn());

  return {
    threads,
    read(path, readOptions = {}) {
      if (closed) return Promise.reject(unavailable(TAG_ERRORS.POOL_CLOSED, 'The tag reader pool is closed.'));
      return new Promise<ReadResult>((resolve, reject) => {
        queue.push({ id: nextId++, path, artwork: readOptions.artwork === true, attempts: 1, resolve, reject });
        pumpSoon();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      if (queue.length > 0 || slots.some((s) => s.jobs.size > 0)) await new Promise<void>((resolve) => (drained = resolve));
      terminated = true;
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}

/** First in, first out, without `Array.shift` (linear in the queue's length: a scan queues thousands). */
class JobQueue {
  #items: Job[] = [];
  #head = 0;
  readonly #retries: Job[] = [];

  get length(): number {
    return this.#items.length - this.#head + this.#retries.length;
  }

  push(job: Job): void {
    this.#items.push(job);
  }

  /** Goes before everything else. */
  retry(job: Job): void {
    this.#retries.push(job);
  }

  take(): Job | undefined {
    if (this.#retries.length > 0) return this.#retries.shift();
    if (this.#head >= this.#items.length) return undefined;
    const job = this.#items[this.#head]!;
    this.#items[this.#head++] = undefined as unknown as Job;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return job;
  }
}
