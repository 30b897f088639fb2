import { useState } from 'react';
import { useT } from '../../../lib/i18n.ts';
import { notifyWarning } from '../../../lib/notify.ts';
import { startTask } from '../api/start-task.ts';

type Route = Parameters<typeof startTask>[0];

/**
 * The submit of a /progress task dialog: a form that is not ready names its problem as a warning (the payload builder
 * returns that message instead of a payload); otherwise the task starts (创建成功！/创建失败！ come from startTask),
 * `onCreated` gets its id and the dialog closes. `busy` while the request runs.
 */
export function useStartTask(route: Route, onCreated: (taskId: string | null) => void, onClose: () => void) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const submit = async (payload: object | string | null) => {
    if (payload === null) return;
    if (typeof payload === 'string') {
      notifyWarning(t(payload), undefined, 3000);
      return;
    }
    setBusy(true);
    try {
      const created = await startTask(route, payload);
      onCreated(created.task_id ?? null);
      onClose();
    } catch {
      // Announced by the client (创建失败！ with the server's words).
    } finally {
      setBusy(false);
    }
  };
  return { busy, submit };
}
