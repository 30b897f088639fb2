import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { Id3Row, SelectItem } from './types.ts';

/** POST /apimt/file_id3_list/: tags of the checked files and of the files inside checked folders. */
export async function getFileId3List(
  input: { file_full_path: string; select_data: SelectItem[]; limit: number; depth: 1 | -1; is_webdav: boolean; refresh?: boolean },
  signal?: AbortSignal,
): Promise<Id3Row[]> {
  const env = await apiCall<Id3Row[]>('/apimt/file_id3_list/', {
    body: { mode: 'all', ...input },
    signal,
    onError: { title: '查询失败', timeout: SECONDS.two, silentStatuses: [401] },
  });
  return env.data;
}
