/**
 * The library follows edits at once: files the editor's save (`tagsonic.evt.track.updated`), a batch action's
 * or a delete's items (`tagsonic.evt.files.changed`) and undos (track.updated again) changed are put into the
 * library within about a second, instead of at the watcher's next round (3 minutes). See README.md.
 *
 * Events reach every process, so each worker with a scanner turns them into a `tagsonic.cmd.library.follow`
 * command with a msgId derived from the event (the bus drops the copies the other workers send) and one durable
 * consumer takes each command. Paths are gathered for a second (or until 500) and indexed with one
 * `Scanner.indexFiles(paths, { follow: true })` call: one library revision per batch.
 */
import path from 'node:path';
import type { Bus, Subscription } from '@tagsonic/core/bus';
import { isTagsonicError } from '@tagsonic/core/errors';
import { SUBJECTS } from '@tagsonic/core/tasks';
import { SCAN_ERRORS, type Scanner } from './scanner.ts';

export const FOLLOW_DURABLE = 'library-follow';

/** Payload of `tagsonic.cmd.library.follow`. */
export interface FollowCommand {
  paths: string[];
}

export interface FollowEditsOptions {
  bus: Bus;
  scanner: Scanner;
  /** Paths are gathered this long after the first one before they are indexed. Default 1 s. */
  windowMs?: number;
  /** A batch is indexed at once when this many paths are waiting, and never holds more. Default 500. */
  maxBatch?: number;
  /** Failures nobody waits for (the watcher's next round covers the files). Default: one line on stderr. */
  onError?: (e: unknown) => void;
}

/** While a full scan runs (it re-reads everything) batches wait; how often that is looked at again. */
const SCAN_POLL_MS = 2_000;
/** indexFiles waits this long for an incremental scan's lock before the batch is put back and tried later. */
const LOCK_WAIT_MS = 5_000;
/**
 * After a batch during which more paths came in, the next one waits three times as long as this one took: during a 10k-file batch edit following
 * takes at most about a quarter of this worker's time, and since each revision derives albums and artists over
 * the whole library again, slower batches (a larger library) gather more paths each.
 */
const PAUSE_FACTOR = 3;

interface TrackUpdated {
  path?: unknown;
  writeId?: unknown;
  undoOf?: unknown;
}

interface FilesChanged {
  itemId?: unknown;
  paths?: unknown;
}

/** Starts following edits; the returned subscription stops it (paths still gathered are left to the watcher). */
export async function followEdits(options: FollowEditsOptions): Promise<Subscription> {
  const { bus, scanner } = options;
  const windowMs = options.windowMs ?? 1_000;
  const maxBatch = options.maxBatch ?? 500;
  const onError = options.onError ?? ((e: unknown) => process.stderr.write(`library follow: ${(e as Error)?.message ?? String(e)}\n`));
  const pending = new Set<string>();
  let firstAt = 0;
  let notBefore = 0;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let closed = false;

  const schedule = () => {
    if (closed || timer || running || pending.size === 0) return;
    const now = Date.now();
    const due = Math.max(pending.size >= maxBatch ? now : firstAt + windowMs, notBefore);
    timer = setTimeout(() => {
      timer = null;
      running = flush().finally(() => {
        running = null;
        schedule();
      });
    }, Math.max(0, due - now));
    timer.unref();
  };

  const flush = async (): Promise<void> => {
    if (await scanner.fullScanRunning().catch(() => false)) {
      notBefore = Date.now() + SCAN_POLL_MS;
      return;
    }
    const batch: string[] = [];
    for (const p of pending) {
      if (batch.length >= maxBatch) break;
      batch.push(p);
      pending.delete(p);
    }
    firstAt = Date.now();
    const started = Date.now();
    let retry = false;
    try {
      await scanner.indexFiles(batch, { follow: true, waitMs: LOCK_WAIT_MS });
    } catch (e) {
      if (isTagsonicError(e) && e.code === SCAN_ERRORS.running) {
        // A scan holds the lock: the paths wait for it (it may have walked before they changed).
        for (const p of batch) pending.add(p);
        retry = true;
      } else onError(e);
    } finally {
      // The pause only holds back a stream (paths came in while this batch ran): a lone save goes in after the window.
      notBefore = Date.now() + (retry ? SCAN_POLL_MS : pending.size > 0 ? (Date.now() - started) * PAUSE_FACTOR : 0);
    }
  };

  const add = (paths: unknown) => {
    if (!Array.isArray(paths)) return;
    if (pending.size === 0) firstAt = Date.now();
    // Absolute and normal only (a plugin's change names any text): indexFiles then keeps to the roots.
    for (const p of paths) if (typeof p === 'string' && path.isAbsolute(p) && path.normalize(p) === p) pending.add(p);
    schedule();
  };

  const forward = (paths: string[], msgId: string) => {
    if (paths.length) bus.send(SUBJECTS.libraryFollow, { paths } satisfies FollowCommand, { msgId }).catch(onError);
  };
  const events: Subscription[] = [
    bus.subscribe<TrackUpdated>(SUBJECTS.trackUpdated, (_subject, e) => {
      if (typeof e?.path !== 'string') return;
      // The write (or the undo's write, or the undone write) names the event; without either, this copy is its own.
      const id = typeof e.writeId === 'string' ? e.writeId : typeof e.undoOf === 'string' ? `undo:${e.undoOf}` : `${Date.now()}:${Math.random()}`;
      forward([e.path], `follow:track:${id}:${e.path}`);
    }),
    bus.subscribe<FilesChanged>(SUBJECTS.filesChanged, (_subject, e) => {
      if (typeof e?.itemId !== 'string' || !Array.isArray(e.paths)) return;
      forward(e.paths.filter((p): p is string => typeof p === 'string'), `follow:item:${e.itemId}`);
    }),
  ];
  const commands = await bus.consume<FollowCommand>(SUBJECTS.libraryFollow, async (delivery) => add(delivery.payload?.paths), {
    durable: FOLLOW_DURABLE,
    concurrency: 16,
    ackWaitMs: 60_000,
    maxDeliver: 3,
  });

  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await Promise.all(events.map((s) => s.close()));
      await commands.close();
      await running;
    },
  };
}
