import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

export interface PlaylistEdit {
  id: string;
  name: string;
  description: string;
  /** The URL /apimt/upload_image/ answered, an http(s) URL, '' to clear; absent leaves the cover. */
  playlist_img?: string;
}

/** POST /apimt/put_playlist/: name, comment and cover of the user's own playlist ('修改成功！'/'修改失败！', 2 s). */
export async function putPlaylist(edit: PlaylistEdit): Promise<void> {
  await apiCall('/apimt/put_playlist/', {
    body: edit,
    onSuccess: { title: '修改成功！', timeout: SECONDS.two, content: false },
    onError: { title: '修改失败！', timeout: SECONDS.two },
  });
}
