import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** POST /user/active/: turns V1 into V2 with an activation code. */
export async function activate(code: string): Promise<{ role: string; is_forever: boolean; active_until: string | null }> {
  return (
    await apiCall<{ role: string; is_forever: boolean; active_until: string | null }>('/user/active/', {
      body: { code },
      onError: { title: '激活失败！', timeout: SECONDS.five },
      onSuccess: { title: '激活成功！', timeout: SECONDS.two, content: false },
    })
  ).data;
}
