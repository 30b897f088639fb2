/**
 * A pool of writer threads so tag writes use every core: each thread parses originals, renders the new
 * bytes into temp files and verifies them (write-steps.ts) for several writes at once, while the calling
 * thread keeps the fsyncs, the journal and the rename (safe-write.ts). A write's verify step runs on the
 * thread that prepared it. A thread that crashes or hangs past the timeout is replaced; the writes it
 * held fail with a clear error, their temp files are removed and their originals are untouched.
 *
 * Threads start with the first write and stop after `idleMs` without one: an idle server keeps no writer
 * thread (each is a V8 isolate with the tag engine loaded, tens of MB resident), and the next write starts
 * them again (a few hundred ms, once per burst of writes).
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { workerEnv } from '../compile-cache.ts';
import { TagsonicError } from '../errors/index.ts';
import type { TagEdit, TagSnapshot } from './model.ts';
import type { PrepareRequest, Prepared, VerifyRequest } from './write-steps.ts';
import type { SerializedError, WorkerFault, WriterReply, WriterRequest } from './writer-worker.ts';
import { runSafeWrite, type SafeWriteOptions, type WriteContext, type WriteResult, type WriteStepRunner } from './safe-write.ts';
import { TAG_ERRORS, unavailable } from './errors.ts';

export interface TagWriterPoolOptions {
  /** Threads to start; defaults to the number of cores. */
  threads?: number;
  /** Writes one thread works on at once (their I/O and fsync waits overlap its CPU work); default 8. */
  inFlightPerThread?: number;
  /** How long one step (prepare or verify) of one write may take before its thread is replaced; default 120 s. */
  stepTimeoutMs?: number;
  /** Stop the threads after this long without a write; default 30 s. The next write starts them again. */
  idleMs?: number;
}

export interface TagWriterPoolWriteOptions extends SafeWriteOptions {
  /** Fault injection for tests only: the writer thread exits or hangs instead of running this step. */
  injectFault?: { step: 'prepare' | 'verify'; fault: WorkerFault };
}

export interface TagWriterPool {
  readonly threads: number;
  /** Writes the threads work on at once; more wait their turn. */
  readonly capacity: number;
  /** Threads running now: 0 before the first write and after `idleMs` without one. */
  readonly liveThreads: number;
  /** `safeWriteTags` with the CPU-heavy steps on a writer thread: same protocol, result and errors. */
  write(filePath: string, edit: TagEdit, context: WriteContext, options?: TagWriterPoolWriteOptions): Promise<WriteResult>;
  /** Refuses new writes, finishes every write already asked for, then stops the threads. */
  close(): Promise<void>;
}

interface Call {
  id: number;
  path: string;
  resolve: (reply: WriterReply) => void;
  reject: (err: unknown) => void;
  timer: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  /** Writes prepared (or being prepared) here and not yet verified or released. */
  writes: Set<string>;
  calls: Map<number, Call>;
  dead: boolean;
}

const WORKER_URL = new URL('./writer-worker.ts', import.meta.url);
const DEFAULT_STEP_TIMEOUT_MS = 120_000;
const DEFAULT_IDLE_MS = 30_000;

export function createTagWriterPool(options: TagWriterPoolOptions = {}): TagWriterPool {
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const perThread = Math.max(1, options.inFlightPerThread ?? 8);
  const stepTimeoutMs = options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const slots: Slot[] = [];
  /** Writes waiting for room on a thread. */
  const waiting: Array<() => void> = [];
  /** Which thread holds each prepared write. */
  const owner = new Map<string, Slot>();
  let nextId = 1;
  let closed = false;
  let terminated = false;
  let active = 0;
  let drained: (() => void) | null = null;
  let idleTimer: NodeJS.Timeout | undefined;

  const spawn = (): Slot => {
    // execArgv: [] — the parent's flags (e.g. --no-node-snapshot) are not all valid in a worker.
    const slot: Slot = { worker: new Worker(WORKER_URL, { execArgv: [], env: workerEnv() }), writes: new Set(), calls: new Map(), dead: false };
    slot.worker.on('message', (reply: WriterReply) => {
      const call = slot.calls.get(reply.id);
      if (!call) return;
      slot.calls.delete(reply.id);
      clearTimeout(call.timer);
      if (slot.calls.size === 0) slot.worker.unref();
      call.resolve(reply);
    });
    slot.worker.on('error', (err) => lose(slot, crashed(err)));
    slot.worker.on('exit', (code) => {
      if (!slot.dead) lose(slot, crashed(new Error(`writer thread exited with code ${code}`)));
    });
    // Idle threads must not keep the process alive; threads with a step under way must.
    slot.worker.unref();
    return slot;
  };

  const crashed = (cause: unknown) => (path: string) =>
    unavailable(TAG_ERRORS.WRITER_CRASHED, `The writer thread working on ${path} stopped (${cause instanceof Error ? cause.message : String(cause)}); the original was left untouched. Try again.`, cause);

  /** Fails everything a dead or stuck thread held and puts a fresh thread in its place. */
  const lose = (slot: Slot, error: (path: string) => TagsonicError) => {
    if (slot.dead) return;
    slot.dead = true;
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    void slot.worker.terminate();
    for (const call of slot.calls.values()) {
      clearTimeout(call.timer);
      call.reject(error(call.path));
    }
    slot.calls.clear();
    if (!terminated) {
      slots.push(spawn());
      wake();
    }
  };

  const send = (slot: Slot, msg: WriterRequest & { id: number }, path: string): Promise<WriterReply> => {
    if (slot.dead) return Promise.reject(crashed(new Error('it was replaced'))(path));
    return new Promise<WriterReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        // Which of the thread's writes is stuck cannot be told from outside; each one in flight on it
        // did not finish in time, and each one fails.
        lose(slot, (p) =>
          unavailable(
            TAG_ERRORS.WRITE_TIMEOUT,
            `Writing tags to ${p} did not finish: its writer thread gave no answer for ${stepTimeoutMs} ms and was replaced; the original was left untouched.`,
          ),
        );
      }, stepTimeoutMs);
      if (slot.calls.size === 0) slot.worker.ref();
      slot.calls.set(msg.id, { id: msg.id, path, resolve, reject, timer });
      slot.worker.postMessage(msg);
    });
  };

  const leastLoaded = (): Slot | undefined => {
    let best: Slot | undefined;
    for (const s of slots) if (s.writes.size < perThread && (!best || s.writes.size < best.writes.size)) best = s;
    return best;
  };

  const wake = () => {
    while (waiting.length > 0 && leastLoaded()) waiting.shift()!();
  };

  const finish = (writeId: string) => {
    const slot = owner.get(writeId);
    owner.delete(writeId);
    slot?.writes.delete(writeId);
    wake();
  };

  /** Starts the threads if an idle period stopped them (or no write came yet). */
  const wakeThreads = () => {
    clearTimeout(idleTimer);
    idleTimer = undefined;
    while (!terminated && slots.length < threads) slots.push(spawn());
  };

  /** Stops every thread: nothing is in flight, so nothing can fail (a dead slot is not replaced). */
  const stopThreads = () => {
    idleTimer = undefined;
    if (active > 0 || closed) return;
    for (const slot of slots.splice(0)) {
      slot.dead = true;
      void slot.worker.terminate();
    }
  };

  const steps = (fault: TagWriterPoolWriteOptions['injectFault']): WriteStepRunner => ({
    async prepare(req: PrepareRequest): Promise<Prepared> {
      let slot = leastLoaded();
      while (!slot) {
        await new Promise<void>((resolve) => waiting.push(resolve));
        slot = leastLoaded();
      }
      slot.writes.add(req.writeId);
      owner.set(req.writeId, slot);
      try {
        // A fault injected into verify needs verify as a step of its own.
        const request = fault?.step === 'verify' ? { ...req, syncAndVerify: false } : req;
        const reply = unwrap(await send(slot, { id: nextId++, op: 'prepare', req: request, fault: fault?.step === 'prepare' ? fault.fault : undefined }, req.filePath), req.filePath);
        const prepared = (reply as { prepared: Prepared }).prepared;
        // A no-op, or a write verified in the same step: the thread holds nothing for it any more.
        if (prepared.noop || prepared.after) finish(req.writeId);
        return prepared;
      } catch (err) {
        finish(req.writeId);
        throw err;
      }
    },
    async verify(req: VerifyRequest): Promise<TagSnapshot> {
      const slot = owner.get(req.writeId);
      try {
        if (!slot) throw crashed(new Error('its thread was replaced'))(req.filePath);
        const reply = unwrap(await send(slot, { id: nextId++, op: 'verify', req, fault: fault?.step === 'verify' ? fault.fault : undefined }, req.filePath), req.filePath);
        return (reply as { after: TagSnapshot }).after;
      } finally {
        finish(req.writeId);
      }
    },
    release(writeId: string): void {
      const slot = owner.get(writeId);
      if (slot && !slot.dead) slot.worker.postMessage({ id: 0, op: 'release', writeId } satisfies WriterRequest);
      finish(writeId);
    },
  });

  return {
    threads,
    capacity: threads * perThread,
    get liveThreads() {
      return slots.length;
    },
    async write(filePath, edit, context, writeOptions = {}) {
      if (closed) throw unavailable(TAG_ERRORS.POOL_CLOSED, 'The tag writer pool is closed.');
      active++;
      wakeThreads();
      try {
        return await runSafeWrite(steps(writeOptions.injectFault), filePath, edit, context, writeOptions);
      } finally {
        active--;
        if (active === 0) {
          drained?.();
          if (!closed) {
            idleTimer = setTimeout(stopThreads, idleMs);
            idleTimer.unref();
          }
        }
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(idleTimer);
      if (active > 0) await new Promise<void>((resolve) => (drained = resolve));
      terminated = true;
      for (const slot of slots) slot.dead = true;
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}

function unwrap(reply: WriterReply, path: string): WriterReply {
  if (reply.ok) return reply;
  throw rebuild(reply.error, path);
}

function rebuild(e: SerializedError, path: string): TagsonicError {
  return e.code && e.kind
    ? new TagsonicError(e.kind as TagsonicError['kind'], e.code, e.message, { details: e.details })
    : new TagsonicError('internal', TAG_ERRORS.WRITE_FAILED, `Writing tags to ${path} failed: ${e.message}; the original was left untouched.`, { details: { path } });
}
