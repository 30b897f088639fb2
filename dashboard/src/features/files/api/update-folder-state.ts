import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { ScrapeState } from './types.ts';

/** POST /apimt/update_folder_state/: marks a folder or file as scraped (success), failed, or not scraped (null). */
export async function updateFolderState(fullPath: string, state: ScrapeState, options: { quiet?: boolean } = {}): Promise<void> {
  await apiCall<null>('/apimt/update_folder_state/', {
    body: { full_path: fullPath, state },
    onError: { title: '创建失败！', fallback: '创建失败', timeout: SECONDS.five },
    onSuccess: options.quiet ? undefined : { title: '标记成功！', content: false, timeout: SECONDS.two },
  });
}
