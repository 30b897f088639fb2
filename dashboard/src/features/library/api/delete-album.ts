import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

export interface AlbumDeleted {
  /** The files.delete task (undo_task brings the files back); null on a dry run. */
  task_id: string | null;
  /** How many files it takes (or would take). */
  total: number;
  paths: string[];
}

/** What deleting the album would take, for the confirm dialog's count; nothing is moved. */
export async function countAlbumFiles(id: string): Promise<AlbumDeleted> {
  return (await apiCall<AlbumDeleted>('/apimt/delete_album/', { body: { id, dry_run: true }, onError: false })).data;
}

/** POST /apimt/delete_album/: the album's files go to the trash (§8: '删除成功！' / '删除失败！'). */
export async function deleteAlbum(id: string): Promise<AlbumDeleted> {
  const answer = await apiCall<AlbumDeleted>('/apimt/delete_album/', {
    body: { id },
    onSuccess: { title: '删除成功！', timeout: SECONDS.two, content: false },
    onError: { title: '删除失败！', timeout: SECONDS.five },
  });
  return answer.data;
}
