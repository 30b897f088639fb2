import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { FileListData } from './types.ts';

/** POST /apimt/file_list/: one folder level; an empty path is the server's media folder. A 401 stays silent (§6). */
export async function getFileList(
  input: { file_path: string; sorted_fields: string; search_word: string; refresh?: boolean },
  signal?: AbortSignal,
): Promise<FileListData> {
  const env = await apiCall<FileListData>('/apimt/file_list/', {
    body: input,
    signal,
    onError: { title: '查询失败！', timeout: SECONDS.five, silentStatuses: [401] },
  });
  return env.data;
}
