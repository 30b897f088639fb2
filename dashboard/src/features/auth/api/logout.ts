import { apiCall } from '../../../lib/api-client.ts';

/** POST /logout/: the server clears the session and CSRF cookies. */
export async function logout(): Promise<void> {
  await apiCall<null>('/logout/', { method: 'POST', onError: false });
}
