import { apiCall } from '../../../lib/api-client.ts';
import type { AdminUser } from './types.ts';

/** GET /apimt/admin/users/ (administrators only; the page says so when refused). */
export async function listUsers(): Promise<AdminUser[]> {
  return (await apiCall<{ users: AdminUser[] }>('/apimt/admin/users/', { onError: false })).data.users;
}
