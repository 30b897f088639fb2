import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import { translate } from '../../../lib/i18n.ts';
import type { TaskCreated } from './types.ts';

/** Opens the task's report (wouter follows history.pushState), or the operation log when no id came back. */
const openReport = (taskId?: string) => history.pushState(null, '', taskId ? `/log_detail/${encodeURIComponent(taskId)}/` : '/log');

/**
 * POST of a library task from /progress (missing_music_task, rule_tag, batch_auto_update_artist): 创建成功！ with
 * 任务在后台努力运行中 and a button to the report of the task (§8 "Genre rule task"); 创建失败！ with the message of the server.
 */
export async function startTask(route: 'missing_music_task' | 'rule_tag' | 'batch_auto_update_artist', payload: object): Promise<TaskCreated> {
  const env = await apiCall<TaskCreated | null>(`/apimt/${route}/`, {
    body: payload,
    onError: { title: '创建失败！', fallback: '创建失败', timeout: SECONDS.five },
    onSuccess: (data) => ({
      title: '创建成功！',
      content: translate('任务在后台努力运行中'),
      timeout: SECONDS.five,
      action: { text: translate('查看任务'), onClick: () => openReport((data as TaskCreated | null)?.task_id) },
    }),
  });
  return env.data ?? {};
}
