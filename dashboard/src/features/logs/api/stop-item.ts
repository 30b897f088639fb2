import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/**
 * stopAuditLogDetailRun (spec doc 2 §7): stops one item of a task that has not started yet (a report row's
 * id); an item a worker is already running finishes.
 */
export async function stopItem(id: string): Promise<void> {
  await apiCall('/apimt/stop_audit_log_detail_run/', {
    body: { id },
    onError: { title: '停止失败！', timeout: SECONDS.five },
    onSuccess: { title: '停止成功！', content: false, timeout: SECONDS.two },
  });
}
