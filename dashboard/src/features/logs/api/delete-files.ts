import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** Which files of a report go: one row, every failed file, or a duplicate section (its listed paths or by rules). */
export type DeleteMode = 'hash' | 'name' | 'acoustid' | 'single' | 'fail';

/**
 * deleteFiles (spec doc 2 §7): POST /apimt/delete_files/. Only files the report names; they go to the root's
 * trash (or the rules' folder) as a task of their own, which Undo task restores. Answers that task's id.
 */
export async function deleteFiles(o: { logId: string; mode: DeleteMode; paths?: string[]; rules?: Record<string, unknown>; detailId?: string }): Promise<{ task_id: string; total: number }> {
  const body: Record<string, unknown> = { log_id: o.logId, mode: o.mode };
  if (o.paths) body.paths = o.paths;
  if (o.rules) body.rules = o.rules;
  if (o.detailId) body.detail_id = o.detailId;
  return (
    await apiCall<{ task_id: string; total: number }>('/apimt/delete_files/', {
      body,
      onError: { title: '删除失败！', timeout: SECONDS.five },
      onSuccess: { title: '创建成功！', content: '任务在后台努力运行中', timeout: SECONDS.three },
    })
  ).data;
}
