import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

export interface ArtistEdit {
  id: string;
  name?: string;
  description?: string;
  /** The URL /apimt/upload_image/ answered, an http(s) URL (a suggestion), '' to clear; absent leaves the picture. */
  artist_img?: string;
  /** True: a 修改艺术家 task writes the new name and picture into every track (undoable in /log). */
  write_metadata?: boolean;
}

export interface ArtistEdited {
  /** The id the artist has after the edit (a rename in the files may change it). */
  id: string;
  task_id: string | null;
}

/** POST /apimt/post_artist/ ('修改成功！' / '修改失败！', 2 s, spec §8). */
export async function postArtist(edit: ArtistEdit): Promise<ArtistEdited> {
  const answer = await apiCall<ArtistEdited>('/apimt/post_artist/', {
    body: edit,
    onSuccess: { title: '修改成功！', timeout: SECONDS.two, content: false },
    onError: { title: '修改失败！', timeout: SECONDS.two },
  });
  return answer.data;
}
