import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { SaveReport } from './types.ts';

/** POST /apimt/update_id3/: saves one file's edits; the success notice carries an Undo button. */
export async function updateId3(entry: Record<string, unknown>, undo: (report: SaveReport) => { text: string; onClick: () => void } | undefined): Promise<SaveReport> {
  const env = await apiCall<SaveReport>('/apimt/update_id3/', {
    body: { music_id3_info: [entry] },
    onError: { title: '修改失败！', timeout: SECONDS.five },
    onSuccess: (data) => ({ title: '修改成功！', content: false, timeout: SECONDS.two, action: undo(data as SaveReport) }),
  });
  return env.data;
}
