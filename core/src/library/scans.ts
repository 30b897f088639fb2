/**
 * Starting scans and reporting on them, for the gateway (Subsonic startScan/getScanStatus, the
 * dashboard) and the background watcher. A scan is a task with one item on `tagsonic.cmd.library.scan`;
 * a worker runs it under the store-based scan lock, so two requests never scan at once.
 */
import type { Store } from '../store/port.ts';
import type { TaskDoc, Tasks } from '../tasks/tasks.ts';
import { SUBJECTS } from '../tasks/subjects.ts';
import { invalid } from '../errors/errors.ts';
import type { Catalog } from './catalog.ts';
import type { LibraryStore } from './library-store.ts';

export const SCAN_TASK_KIND = 'library.scan';
/** The action name shown in the operation log. */
export const SCAN_ACTION = '媒体库扫描';

/** Payload of `tagsonic.cmd.library.scan`. */
export interface ScanCommand {
  taskId: string;
  itemId: string;
  /** Re-read every file, not only new and changed ones. */
  full: boolean;
  /** Root names to scan; default media and download (webdav only when named). */
  roots?: string[];
  actor: string;
}

export interface ScanStatus {
  scanning: boolean;
  /** Files handled so far while scanning; the number of songs otherwise. */
  count: number;
  lastScan: Date | null;
  /** The running scan's task, if any. */
  taskId: string | null;
}

/** A scan task not yet picked up by a worker counts as running for this long. */
const PENDING_GRACE_MS = 60_000;

export class LibraryScans {
  private readonly tasks: Tasks;
  private readonly library: LibraryStore;
  private readonly catalog: Catalog;
  private readonly store: Store;

  constructor(deps: { tasks: Tasks; library: LibraryStore; catalog: Catalog; store: Store }) {
    this.tasks = deps.tasks;
    this.library = deps.library;
    this.catalog = deps.catalog;
    this.store = deps.store;
  }

  /**
   * Queues a scan and returns its task — or the task of the scan already running or queued, so
   * repeated requests (a double click, the watcher) never stack up scans.
   */
  async startScan(options: { full?: boolean; actor?: string; roots?: string[] } = {}): Promise<TaskDoc> {
    if (options.roots && (!Array.isArray(options.roots) || options.roots.some((r) => typeof r !== 'string'))) {
      throw invalid('TAGSONIC_ERR_LIBRARY_BAD_ROOTS', 'roots must be a list of media root names.');
    }
    const running = await this.runningTask();
    if (running) return running;
    const full = options.full === true;
    const actor = options.actor ?? 'system';
    return this.tasks.create({
      kind: SCAN_TASK_KIND,
      action: SCAN_ACTION,
      actor,
      subject: SUBJECTS.libraryScan,
      items: [{ path: null, payload: { full, actor, ...(options.roots ? { roots: options.roots } : {}) } }],
      extra: full ? 'full scan' : 'incremental scan',
    });
  }

  private async runningTask(): Promise<TaskDoc | null> {
    const lock = await this.library.scanLock();
    if (lock?.taskId) {
      const task = await this.store.collection<TaskDoc>('tasks').findOne({ _id: lock.taskId });
      if (task && task.status === 'running') return task;
    }
    const queued = await this.store
      .collection<TaskDoc>('tasks')
      .find({ kind: SCAN_TASK_KIND, status: 'running' }, { sort: { createdAt: -1 }, limit: 1 });
    const task = queued[0];
    if (task && Date.now() - task.createdAt.getTime() < PENDING_GRACE_MS) return task;
    return null;
  }

  async scanStatus(): Promise<ScanStatus> {
    const lock = await this.library.scanLock();
    const state = await this.library.readState();
    if (lock) return { scanning: true, count: lock.progress, lastScan: state.lastScan?.at ?? null, taskId: lock.taskId };
    await this.catalog.sync();
    return { scanning: false, count: this.catalog.tracks.size, lastScan: state.lastScan?.at ?? null, taskId: null };
  }
}
