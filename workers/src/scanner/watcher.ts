/**
 * The background watcher's tick (scheduled every 3 minutes by the composition root): compares the
 * roots with the catalogue without reading any file, and queues an incremental scan task only when
 * something changed — so an idle library costs one directory walk per tick and no task noise.
 */
import type { LibraryScans } from '@tagsonic/core/library';
import type { ChangeSummary, Scanner } from './scanner.ts';

export interface WatchTick {
  /** Why nothing was checked: a scan is running, or the previous tick has not finished. */
  skipped?: 'scanning' | 'busy';
  changes?: ChangeSummary;
  /** The scan task queued because of the changes. */
  taskId?: string;
  durationMs: number;
}

/** Every 3 minutes (the spec's background watcher interval). */
export const WATCH_SCHEDULE = '*/3 * * * *';

export class LibraryWatcher {
  private readonly scanner: Scanner;
  private readonly scans: LibraryScans;
  private busy = false;

  constructor(deps: { scanner: Scanner; scans: LibraryScans }) {
    this.scanner = deps.scanner;
    this.scans = deps.scans;
  }

  async tick(): Promise<WatchTick> {
    const started = performance.now();
    const done = (t: Omit<WatchTick, 'durationMs'>): WatchTick => ({ ...t, durationMs: Math.round(performance.now() - started) });
    if (this.busy) return done({ skipped: 'busy' });
    this.busy = true;
    try {
      if ((await this.scans.scanStatus()).scanning) return done({ skipped: 'scanning' });
      const changes = await this.scanner.detectChanges();
      if (!changes.changed) return done({ changes });
      const task = await this.scans.startScan({ full: false, actor: 'watcher' });
      return done({ changes, taskId: task._id });
    } finally {
      this.busy = false;
    }
  }
}
