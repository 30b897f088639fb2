import type { Bus, Subscription } from '@tagsonic/core/bus';
import type { MediaRoots } from '@tagsonic/core/media';
import type { SettleReport, Tasks } from '@tagsonic/core/tasks';
import { emptyTrash, NOT_RESUMABLE, SUBJECTS } from '@tagsonic/core/tasks';
import { createTagWriterPool, type TagJournal } from '@tagsonic/core/tags';
import { SCAN_TASK_KIND } from '@tagsonic/core/library';
import type { PluginRegistry } from '@tagsonic/core/plugins';
import type { ArtistMeta } from '@tagsonic/core/library';
import type { Store } from '@tagsonic/core/store';
import { tagsWriteHandler, tagsWriteSettler } from './commands/tags-write.ts';
import { libraryScanHandler } from './commands/scan.ts';
import type { Scanner } from './scanner/scanner.ts';
import { followEdits } from './scanner/follow-edits.ts';
import { PluginPool, servePluginInvocations } from './plugin-pool/index.ts';
import { createLibraryIndexer } from './plugin-runtime/capabilities/library.ts';
import { actionItemHandler, actionSettler, ACTION_KIND_PREFIX, DELETE_TASK_KIND, deleteSettler, filesDeleteHandler } from './actions/index.ts';
import { actionLanes } from './action-lanes.ts';
import { idleReaderPool } from './tag-readers.ts';

export interface WorkerDeps {
  bus: Bus;
  tasks: Tasks;
  roots: MediaRoots;
  journal: TagJournal;
  /** Commands handled at once per subject in this process. */
  concurrency: number;
  /** Present: this worker runs library scans. */
  scanner?: Scanner;
  /** Present: this worker runs plugins for the gateway (`tagsonic.rpc.plugins.invoke`) from this registry. */
  plugins?: { registry: PluginRegistry; store: Store; artists?: ArtistMeta };
  /** How often tasks whose owners died are looked for after the start-up settle (default: the lease ttl). */
  settleEveryMs?: number;
}

export interface Worker {
  /** What the start-up settle did with tasks left unfinished by dead processes (for the start-up log). */
  settled: SettleReport[];
  close(): Promise<void>;
}

/**
 * Starts consuming commands. The same code runs inside the embedded process and in each
 * `tagsonic worker` process of a distributed deployment; durable names make workers compete.
 */
export async function startWorker(deps: WorkerDeps): Promise<Worker> {
  const subs: Subscription[] = [];
  // Tasks a dead process left unfinished are settled before new work, then whenever a lease expires.
  const settle = () =>
    deps.tasks.settleOrphans({
      settlers: {
        'tags.write': tagsWriteSettler(deps),
        // A scan cut short is not resumed: the scan at every start covers the library again.
        [SCAN_TASK_KIND]: async () => async () => ({ status: 'fail', errorCode: NOT_RESUMABLE, error: 'Interrupted by a crash; the next scan covers the library again.' }),
        // Batch actions: an item whose effect the journal committed is done; the others run again.
        [`${ACTION_KIND_PREFIX}*`]: actionSettler(deps),
        [DELETE_TASK_KIND]: deleteSettler(deps),
      },
      subjects: { 'tags.write': SUBJECTS.tagsWrite },
    });
  const settled = await settle();
  let sweeping = false;
  const sweep = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    // Writes of a worker that died while this one runs are settled first (recover() leaves live
    // owners' entries alone), so the settle below counts them from the journal instead of redoing them.
    void deps.journal
      .recover()
      .then(settle)
      .catch(() => undefined)
      .finally(() => (sweeping = false));
  }, deps.settleEveryMs ?? deps.tasks.leases.ttlMs);
  sweep.unref();
  // Files deleted from task reports stay in the trash (undoable) for 30 days, then go; hourly, from every worker.
  const trash = setInterval(() => void emptyTrash(deps.roots).catch(() => undefined), 3600_000);
  trash.unref();
  void emptyTrash(deps.roots).catch(() => undefined);
  const writers = createTagWriterPool();
  // Plugins' tags.read / tags.write parse on these threads too (capabilities/tags.ts), not on this one.
  const readers = idleReaderPool();
  subs.push(
    await deps.bus.consume(SUBJECTS.tagsWrite, tagsWriteHandler({ ...deps, writers }), {
      durable: 'tags-write',
      // Enough commands in flight to keep every writer thread busy while this thread journals and renames.
      concurrency: Math.max(deps.concurrency, writers.capacity * 2),
      ackWaitMs: 60_000,
      maxDeliver: 5,
      onDeadLetter: (letter) => deps.tasks.deadLetter(letter),
    }),
  );
  // Deletes from a task report (into the trash, journaled): any worker, no plugin needed.
  subs.push(
    await deps.bus.consume(SUBJECTS.filesDelete, filesDeleteHandler(deps), {
      durable: 'files-delete',
      concurrency: Math.max(deps.concurrency, 2),
      ackWaitMs: 60_000,
      maxDeliver: 5,
      onDeadLetter: (letter) => deps.tasks.deadLetter(letter),
    }),
  );
  if (deps.scanner) {
    subs.push(
      await deps.bus.consume(SUBJECTS.libraryScan, libraryScanHandler({ bus: deps.bus, tasks: deps.tasks, scanner: deps.scanner }), {
        durable: 'library-scan',
        // One scan per process; the scan lock keeps it to one across processes.
        concurrency: 1,
        ackWaitMs: 120_000,
        maxDeliver: 3,
        onDeadLetter: (letter) => deps.tasks.deadLetter(letter),
      }),
    );
    // Saved tags, batch actions' moves and deletes, undos: into the library within a second (scanner/follow-edits.ts).
    subs.push(await followEdits({ bus: deps.bus, scanner: deps.scanner }));
  }
  let pool: PluginPool | undefined;
  // Import collection (caps.library) indexes files through this worker's scanner; without one it is refused.
  const library = deps.scanner ? createLibraryIndexer(deps.scanner) : undefined;
  if (deps.plugins) {
    pool = new PluginPool({ registry: deps.plugins.registry, store: deps.plugins.store, bus: deps.bus, roots: deps.roots, artists: deps.plugins.artists, library, journal: deps.journal, tagThreads: { readers, writers } });
    subs.push(await servePluginInvocations(deps.bus, pool, Math.max(deps.concurrency, 4)));
    // Batch action items run where the plugins are; an item mostly waits, so more run at once than commands
    // (tool-running plugins' items excepted): action-lanes.ts.
    const lanes = actionLanes(deps.concurrency, deps.plugins.registry);
    subs.push(
      await deps.bus.consume(SUBJECTS.actionItem, lanes.wrap(actionItemHandler({ bus: deps.bus, tasks: deps.tasks, pool })), {
        durable: 'action-item',
        concurrency: lanes.inFlight,
        ackWaitMs: 120_000,
        maxDeliver: 5,
        onDeadLetter: (letter) => deps.tasks.deadLetter(letter),
      }),
    );
  }
  return {
    settled,
    async close() {
      clearInterval(sweep);
      clearInterval(trash);
      await Promise.all(subs.map((s) => s.close()));
      await pool?.close();
      await writers.close();
      await readers.close();
    },
  };
}
