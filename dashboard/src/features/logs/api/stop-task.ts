import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** stopAuditLogDetail (spec doc 2 §7): stops a running task; items not yet started end as stopped. */
export async function stopTask(id: string): Promise<void> {
  await apiCall('/apimt/stop_audit_log_detail/', {
    body: { id },
    onError: { title: '停止失败！', timeout: SECONDS.five },
    onSuccess: { title: '停止成功！', content: false, timeout: SECONDS.two },
  });
}
