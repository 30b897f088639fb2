import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import { translate } from '../../../lib/i18n.ts';

export interface UndoTaskReport {
  undone: number;
  skipped: number;
  failed: number;
}

/** POST /apimt/undo_task/ {task_id}: puts back every file the task changed (tags, names, moves, deletes). */
export async function undoTask(taskId: string): Promise<UndoTaskReport> {
  return (
    await apiCall<UndoTaskReport>('/apimt/undo_task/', {
      body: { task_id: taskId },
      onError: { title: '撤销失败！', timeout: SECONDS.five },
      onSuccess: (data) => {
        const r = (data ?? {}) as Partial<UndoTaskReport>;
        return { title: '撤销成功！', content: translate('已恢复 {n} 个文件，跳过 {skipped} 个，失败 {failed} 个', { n: r.undone ?? 0, skipped: r.skipped ?? 0, failed: r.failed ?? 0 }), timeout: SECONDS.three };
      },
    })
  ).data;
}
