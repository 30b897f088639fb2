import { useEffect, useRef, useState } from 'react';
import { getAuditLogDetail } from '../../logs/api/get-audit-log-detail.ts';

/** The report is polled this often while the task runs (spec doc 2 §9 "Detail poll 3 s"). */
export const TASK_POLL_MS = 3000;
/** The statuses a task ends in (§4 "Task status"). */
const FINAL = new Set(['success', 'fail', 'miss', 'stop']);

export interface TaskWatch {
  done: number;
  total: number;
  status: string;
}

/**
 * Follows a task /progress started, from its report every 3 s, until it ends; then `onFinish` (the page reloads
 * its counts and tables, which the task has changed). A failed poll is retried at the next tick, silently.
 */
export function useTaskWatch(taskId: string | null, onFinish: () => void): TaskWatch | null {
  const [watch, setWatch] = useState<TaskWatch | null>(null);
  const finish = useRef(onFinish);
  finish.current = onFinish;

  useEffect(() => {
    setWatch(null);
    if (!taskId) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const d = await getAuditLogDetail(taskId, { quiet: true, signal: controller.signal });
        if (controller.signal.aborted) return;
        const done = Number(d.progress?.done ?? d.static?.complete_count ?? 0);
        const total = Number(d.progress?.total ?? d.static?.total_count ?? 0);
        setWatch({ done, total, status: String(d.status) });
        if (FINAL.has(String(d.status))) {
          finish.current();
          return;
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      timer = setTimeout(() => void poll(), TASK_POLL_MS);
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [taskId]);

  return watch;
}
