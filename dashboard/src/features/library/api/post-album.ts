import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

export interface AlbumEdit {
  id: string;
  name?: string;
  comment?: string;
  /** The URL /apimt/upload_image/ answered, an http(s) URL, '' to clear; absent leaves the cover. */
  album_img?: string;
  /** True: a 修改专辑 task writes name, comment and cover into every track (undoable in /log). */
  write_metadata?: boolean;
}

export interface AlbumEdited {
  /** The id the album has after the edit (a rename in the files gives it a new one). */
  id: string;
  task_id: string | null;
}

/** POST /apimt/post_album/ (§8: '修改成功！'; an album save failure is '创建失败！'). */
export async function postAlbum(edit: AlbumEdit): Promise<AlbumEdited> {
  const answer = await apiCall<AlbumEdited>('/apimt/post_album/', {
    body: edit,
    onError: { title: '创建失败！', timeout: SECONDS.five },
  });
  return answer.data;
}
