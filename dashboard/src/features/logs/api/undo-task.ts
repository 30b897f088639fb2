import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import { translate } from '../../../lib/i18n.ts';

export interface UndoTaskReport {
  undone: number;
  skipped: number;
  /** Effects that could not be put back, and why (e.g. the file was changed again since). */
  failed: { path: string; reason: string }[];
  /** Files the task created that were changed since: left in place (counted in skipped); 仍然撤销 takes them too. */
  kept?: { path: string; reason: string }[];
}

/**
 * POST /apimt/undo_task/ {task_id}: puts back every journaled effect of the task, newest first. Files changed
 * again since are left alone unless `force`; `onForce` puts a "仍然撤销" button in the notice that says so.
 */
export async function undoTask(taskId: string, options: { force?: boolean; onForce?: () => void } = {}): Promise<UndoTaskReport> {
  const forceAction = options.onForce ? { text: translate('仍然撤销'), onClick: options.onForce } : undefined;
  return (
    await apiCall<UndoTaskReport>('/apimt/undo_task/', {
      body: options.force ? { task_id: taskId, force: true } : { task_id: taskId },
      onError: { title: '撤销失败！', timeout: forceAction ? 0 : SECONDS.five, action: forceAction },
      onSuccess: (data) => {
        const r = (data ?? {}) as Partial<UndoTaskReport>;
        const failed = Array.isArray(r.failed) ? r.failed : [];
        const kept = Array.isArray(r.kept) ? r.kept : [];
        const content = translate('已恢复 {n} 个文件，跳过 {skipped} 个，失败 {failed} 个', { n: r.undone ?? 0, skipped: r.skipped ?? 0, failed: failed.length });
        if (!failed.length && !kept.length) return { title: '撤销成功！', content, timeout: SECONDS.three };
        return {
          title: '撤销成功！',
          content: [content, ...failed.map((f) => f.reason), ...kept.map((k) => k.reason)].join(' · '),
          intent: 'warning',
          timeout: forceAction ? 0 : SECONDS.five,
          action: forceAction,
        };
      },
    })
  ).data;
}
