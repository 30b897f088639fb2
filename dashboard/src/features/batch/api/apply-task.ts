import { translate } from '../../../lib/i18n.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { TaskCreated } from './types.ts';

/** POST /apimt/apply_task/: the real task that applies exactly the dry run's list of changes. */
export async function applyTask(taskId: string | number): Promise<TaskCreated> {
  const env = await apiCall<TaskCreated | null>('/apimt/apply_task/', {
    body: { task_id: taskId },
    onError: { title: '创建失败！', fallback: '创建失败', timeout: SECONDS.five },
    onSuccess: {
      title: '创建成功！',
      content: '任务在后台努力运行中',
      timeout: SECONDS.five,
      action: { text: translate('查看操作记录'), onClick: () => history.pushState(null, '', '/log') },
    },
  });
  return env.data ?? {};
}
