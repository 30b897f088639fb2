import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

export interface UndoReport {
  undone: number;
  skipped: number;
  failed: number;
  items: { write_id: string; path: string; status: string; error: string | null; undo_write_id: string | null }[];
}

/** POST /apimt/undo/ {write_id}: puts the file's tags back as they were before that save. */
export async function undoWrite(writeId: string, force = false): Promise<UndoReport> {
  const env = await apiCall<UndoReport>('/apimt/undo/', {
    body: force ? { write_id: writeId, force: true } : { write_id: writeId },
    // A 409 (changed since) is answered by the editor, which offers to force it.
    onError: { title: '撤销失败！', timeout: SECONDS.five, silentStatuses: [409] },
    onSuccess: { title: '撤销成功！', content: '标签已恢复为修改前的内容', timeout: SECONDS.three },
  });
  return env.data;
}
