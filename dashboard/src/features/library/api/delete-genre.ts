import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { EntityDeleteTask } from './artist-types.ts';

/** POST /apimt/delete_genre/: an undoable task removes the genre from every track's tag ('删除成功！' / '删除失败！'). */
export async function deleteGenre(id: string): Promise<EntityDeleteTask> {
  const answer = await apiCall<EntityDeleteTask>('/apimt/delete_genre/', {
    body: { id },
    onSuccess: { title: '删除成功！', timeout: SECONDS.two, content: false },
    onError: { title: '删除失败！', timeout: SECONDS.five },
  });
  return answer.data;
}
