import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import { translate } from '../../../lib/i18n.ts';

export interface UndoTaskReport {
  undone: number;
  skipped: number;
  /** Effects that could not be put back, and why. */
  failed: { path: string; reason: string }[];
}

/** POST /apimt/undo_task/ {task_id}: puts back every journaled effect of the task, newest first. */
export async function undoTask(taskId: string): Promise<UndoTaskReport> {
  return (
    await apiCall<UndoTaskReport>('/apimt/undo_task/', {
      body: { task_id: taskId },
      onError: { title: '撤销失败！', timeout: SECONDS.five },
      onSuccess: (data) => {
        const r = (data ?? {}) as Partial<UndoTaskReport>;
        const failed = Array.isArray(r.failed) ? r.failed : [];
        const content = translate('已恢复 {n} 个文件，跳过 {skipped} 个，失败 {failed} 个', { n: r.undone ?? 0, skipped: r.skipped ?? 0, failed: failed.length });
        return { title: '撤销成功！', content: failed.length ? `${content}\n${failed.map((f) => `${f.path}: ${f.reason}`).join('\n')}` : content, timeout: failed.length ? SECONDS.five : SECONDS.three, intent: failed.length ? 'warning' : undefined };
      },
    })
  ).data;
}
