import { apiCall } from '../../../lib/api-client.ts';
import type { UserInfo } from '../../../stores/session-store.ts';

/** GET /user/info/: the logged-in check of the shell; silent, a failure sends the user to login. */
export async function getUserInfo(): Promise<UserInfo> {
  return (await apiCall<UserInfo>('/user/info/', { onError: false })).data;
}
