import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** POST /apimt/apply_task/ {task_id}: applies exactly the changes a finished dry run listed, as a new task. */
export async function applyTask(taskId: string): Promise<{ task_id: string; total: number }> {
  return (
    await apiCall<{ task_id: string; total: number }>('/apimt/apply_task/', {
      body: { task_id: taskId },
      onError: { title: '创建失败！', timeout: SECONDS.five },
      onSuccess: { title: '创建成功！', content: '任务在后台努力运行中', timeout: SECONDS.three },
    })
  ).data;
}
