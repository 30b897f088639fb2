import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** finishFiles (spec doc 2 §7, §4): POST /apimt/finish_files/, a missed row marked done by hand; counts follow. */
export async function finishItem(logId: string, detailId: string): Promise<void> {
  await apiCall('/apimt/finish_files/', {
    body: { log_id: logId, mode: 'single', detail_id: detailId },
    onError: { title: '创建失败！', timeout: SECONDS.five },
    onSuccess: { title: '完成成功！', content: false, timeout: SECONDS.two },
  });
}
