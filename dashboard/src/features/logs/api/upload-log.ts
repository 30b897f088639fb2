import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** uploadLog (spec doc 2 §7): sends the logs with the user's reason to the maintainers. */
export async function uploadLog(reason: string): Promise<void> {
  await apiCall('/apimt/upload_log/', {
    body: { reason },
    onError: { title: '反馈失败！', timeout: SECONDS.five },
    onSuccess: { title: '反馈成功！', content: false, timeout: SECONDS.two },
  });
}
