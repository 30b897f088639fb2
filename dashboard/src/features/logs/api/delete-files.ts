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

/** What deleting by rules would delete (delete_files with dry_run): nothing is touched; the files and the rules' folder. */
export async function previewDelete(o: { logId: string; mode: DeleteMode; rules: Record<string, unknown> }): Promise<{ paths: string[]; target_dir: string | null }> {
  const env = await apiCall<{ paths?: string[]; target_dir?: string | null }>('/apimt/delete_files/', {
    body: { log_id: o.logId, mode: o.mode, rules: o.rules, dry_run: true },
    onError: { title: '删除失败！', timeout: SECONDS.five },
  });
  return { paths: env.data?.paths ?? [], target_dir: env.data?.target_dir ?? null };
}
