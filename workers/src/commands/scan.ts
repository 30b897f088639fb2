import type { Bus, Delivery } from '@tagsonic/core/bus';
import { isTagsonicError } from '@tagsonic/core/errors';
import type { ScanCommand } from '@tagsonic/core/library';
import { SUBJECTS, type Tasks } from '@tagsonic/core/tasks';
import { SCAN_ERRORS, type ScanResult, type Scanner } from '../scanner/scanner.ts';

export interface ScanHandlerDeps {
  bus: Bus;
  tasks: Tasks;
  scanner: Scanner;
}

/** Unreadable files listed in the task report; the count is always complete. */
const MAX_REPORTED_FAILURES = 1000;

/** What the task item keeps of a scan: the counts and the unreadable files (the spec's `fail` report list). */
export function scanReport(result: ScanResult): Record<string, unknown> {
  const { failed, walkErrors, ...counts } = result;
  return {
    ...counts,
    failedCount: failed.length,
    report: { fail: failed.slice(0, MAX_REPORTED_FAILURES), walk_errors: walkErrors.slice(0, MAX_REPORTED_FAILURES) },
  };
}

/**
 * Runs one scan (`tagsonic.cmd.library.scan`) and settles its task item. Progress goes out as
 * `tagsonic.evt.task.progressed` with a `scan` section, and keeps the delivery alive. A second scan
 * while one holds the lock ends as `skip`; unreadable files never fail the scan.
 */
export function libraryScanHandler(deps: ScanHandlerDeps) {
  return async (delivery: Delivery<ScanCommand>): Promise<void> => {
    const cmd = delivery.payload;
    const item = await deps.tasks.startItem(cmd.itemId);
    if (!item) return;
    try {
      const result = await deps.scanner.scan({
        full: cmd.full === true,
        roots: cmd.roots,
        taskId: cmd.taskId,
        onProgress: async (scan) => {
          await delivery.working();
          await deps.bus.publish(SUBJECTS.taskProgressed, {
            taskId: cmd.taskId,
            status: 'running',
            total: 1,
            done: 0,
            counts: { success: 0, fail: 0, miss: 0, skip: 0, stop: 0 },
            scan,
          });
        },
      });
      await deps.tasks.finishItem(cmd.itemId, { status: 'success', result: scanReport(result) });
    } catch (e) {
      if (isTagsonicError(e) && e.code === SCAN_ERRORS.running) {
        // A redelivery of the command whose scan is still running elsewhere: that scan settles the item.
        if ((await deps.scanner.runningTaskId()) === cmd.taskId) return;
        await deps.tasks.finishItem(cmd.itemId, { status: 'skip', error: e.message, errorCode: e.code });
        return;
      }
      if (isTagsonicError(e) && e.kind !== 'unavailable' && e.kind !== 'internal') {
        await deps.tasks.finishItem(cmd.itemId, { status: 'fail', error: e.message, errorCode: e.code });
        return;
      }
      throw e;
    }
  };
}
