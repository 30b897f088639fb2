import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** POST /apimt/restore_logo/: back to the default background. */
export async function restoreBackground(): Promise<void> {
  await apiCall<null>('/apimt/restore_logo/', {
    method: 'POST',
    onError: { title: '恢复失败！', timeout: SECONDS.three },
    onSuccess: { title: '恢复成功！', content: '背景已恢复为默认', timeout: SECONDS.three },
  });
}
