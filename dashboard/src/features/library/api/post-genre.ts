import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/**
 * POST /apimt/post_genre/: the genre's picture (an upload's URL, a library cover id — one of the genre's album
 * covers the drawer suggests —, or '' to clear);
 * '修改成功！' / '修改失败！', 2 s.
 */
export async function postGenre(id: string, genreImg: string): Promise<void> {
  await apiCall('/apimt/post_genre/', {
    body: { id, genre_img: genreImg },
    onSuccess: { title: '修改成功！', timeout: SECONDS.two, content: false },
    onError: { title: '修改失败！', timeout: SECONDS.two },
  });
}
