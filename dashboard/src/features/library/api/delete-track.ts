import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/**
 * `delete_file` moves the file (and its .lrc) into its root's trash through an undoable task;
 * `delete_track` keeps the file and leaves it out of the library from now on.
 */
export type DeleteTrackMode = 'delete_file' | 'delete_track';

export interface DeletedTrack {
  track_id: string;
  path: string;
  mode: DeleteTrackMode;
  /** delete_file: the files.delete task (undo_task brings the file back). */
  task_id: string | null;
  scan_task_id: string | null;
}

/** POST /apimt/delete_track/ (§8: '删除成功！' / '删除失败！' with the server's message). */
export async function deleteTrack(trackId: string, mode: DeleteTrackMode): Promise<DeletedTrack> {
  const answer = await apiCall<DeletedTrack>('/apimt/delete_track/', {
    body: { track_id: trackId, mode },
    onSuccess: { title: '删除成功！', timeout: SECONDS.two, content: false },
    onError: { title: '删除失败！', timeout: SECONDS.five },
  });
  return answer.data;
}
