/**
 * The worker's reader threads for plugins' `tags.read` (capabilities/tags.ts): core's reader pool, started by the
 * first read and stopped after `idleMs` without one, as the writer pool does. An idle worker keeps no reader thread
 * (each is a V8 isolate with the tag engine loaded, tens of MB resident); a batch action's burst of reads starts
 * them once (a few hundred ms) and parses on every core instead of on the worker's main thread.
 */
import { TagsonicError } from '@tagsonic/core/errors';
import { createTagReaderPool, TAG_ERRORS, type ReadOptions, type ReadResult, type TagReaderPool, type TagReaderPoolOptions } from '@tagsonic/core/tags';

export interface IdleReaderPool {
  read(path: string, options?: ReadOptions): Promise<ReadResult>;
  /** Threads running now: 0 before the first read and after `idleMs` without one. */
  readonly liveThreads: number;
  close(): Promise<void>;
}

const DEFAULT_IDLE_MS = 30_000;

export function idleReaderPool(options: TagReaderPoolOptions & { idleMs?: number } = {}): IdleReaderPool {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  let pool: TagReaderPool | null = null;
  let active = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  let closed = false;
  /** Pools being stopped: close() waits for them too. */
  const stopping = new Set<Promise<void>>();

  const stop = () => {
    idleTimer = undefined;
    if (active > 0 || !pool) return;
    const old = pool;
    pool = null;
    const done = old.close().finally(() => stopping.delete(done));
    stopping.add(done);
  };

  return {
    get liveThreads() {
      return pool?.threads ?? 0;
    },
    async read(path, readOptions) {
      if (closed) throw new TagsonicError('unavailable', TAG_ERRORS.POOL_CLOSED, 'The tag reader pool is closed.');
      clearTimeout(idleTimer);
      idleTimer = undefined;
      pool ??= createTagReaderPool({ threads: options.threads, inFlightPerThread: options.inFlightPerThread, timeoutMs: options.timeoutMs });
      active++;
      try {
        return await pool.read(path, readOptions);
      } finally {
        active--;
        if (active === 0 && !closed) {
          idleTimer = setTimeout(stop, idleMs);
          idleTimer.unref();
        }
      }
    },
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      const last = pool;
      pool = null;
      await Promise.all([last?.close(), ...stopping]);
    },
  };
}
