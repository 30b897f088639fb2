import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** The modes of deleteFiles: a duplicate kind (by rules), one file, or every failed file. */
export type DeleteMode = 'hash' | 'name' | 'acoustid' | 'single' | 'fail';

/** deleteFiles (spec doc 2 §7): deletes report files (into the trash folder, undoable with the task). */
export async function deleteFiles(o: { logId: string; mode: DeleteMode; paths: string[]; detailId?: string; rules?: Record<string, unknown> }): Promise<void> {
  const body: Record<string, unknown> = { log_id: o.logId, mode: o.mode, paths: o.paths };
  if (o.detailId !== undefined) body.detail_id = o.detailId;
  if (o.rules) body.rules = o.rules;
  await apiCall('/apimt/delete_files/', {
    body,
    onError: { title: '删除失败！', timeout: SECONDS.five },
    onSuccess: { title: '删除成功！', content: false, timeout: SECONDS.two },
  });
}
