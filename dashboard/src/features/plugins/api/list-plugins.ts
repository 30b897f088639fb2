import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { PluginKind, PluginPage } from './types.ts';

/** Page size of both plugin lists (spec §7: getResourceScript / getActionScript, page_size 20). */
export const PLUGIN_PAGE_SIZE = 20;

const ROUTE: Record<PluginKind, string> = { 'tag-source': '/apimt/get_resource_script/', 'batch-action': '/apimt/get_action_script/' };

/** POST /apimt/get_resource_script/ (tag sources) or /apimt/get_action_script/ (batch actions); reads data.items. */
export async function listPlugins(kind: PluginKind, query: { page: number; search?: string }, signal?: AbortSignal): Promise<PluginPage> {
  const body: Record<string, unknown> = { page: query.page, page_size: PLUGIN_PAGE_SIZE };
  if (query.search) body.search = query.search;
  return (await apiCall<PluginPage>(ROUTE[kind], { body, signal, onError: { title: '查询失败！', timeout: SECONDS.five, silentStatuses: [401] } })).data;
}
