import { apiCall } from '../../../lib/api-client.ts';
import type { SourceInfo } from './types.ts';

/**
 * POST /apimt/get_sources/: the installed, enabled tag sources in the spec's order. Silent on failure:
 * the 刮削配置 select then keeps the built-in list.
 */
export async function getSources(signal?: AbortSignal): Promise<SourceInfo[]> {
  const env = await apiCall<SourceInfo[]>('/apimt/get_sources/', { body: {}, signal, onError: false });
  return Array.isArray(env.data) ? env.data : [];
}
