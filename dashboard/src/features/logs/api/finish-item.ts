import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/**
 * changeStatusAuditLogDetailRun (spec doc 2 §7, §4): a missing-tag item finished by hand (a report row's id)
 * becomes a success; the task's counts follow.
 */
export async function finishItem(id: string): Promise<void> {
  await apiCall('/apimt/change_status_audit_log_detail_run/', {
    body: { id, status: 'success' },
    onError: { title: '创建失败！', timeout: SECONDS.five },
    onSuccess: { title: '完成成功！', content: false, timeout: SECONDS.two },
  });
}
