import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { EntityDeleteTask } from './artist-types.ts';

/** POST /apimt/delete_artist/ with dry_run: how many tracks a delete would move to the trash (no notice). */
export async function countArtistTracks(id: string): Promise<EntityDeleteTask> {
  const answer = await apiCall<EntityDeleteTask>('/apimt/delete_artist/', { body: { id, dry_run: true }, onError: { title: '查询失败！', timeout: SECONDS.five } });
  return answer.data;
}

/** POST /apimt/delete_artist/: the artist's tracks to the trash through an undoable task ('删除成功！' / '删除失败！'). */
export async function deleteArtist(id: string): Promise<EntityDeleteTask> {
  const answer = await apiCall<EntityDeleteTask>('/apimt/delete_artist/', {
    body: { id },
    onSuccess: { title: '删除成功！', timeout: SECONDS.two, content: false },
    onError: { title: '删除失败！', timeout: SECONDS.five },
  });
  return answer.data;
}
