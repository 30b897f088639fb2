import type { TaskDoc, Tasks } from '@tagsonic/core/tasks';

/** Polls a task until it is no longer `running` and returns it; fails with its counts after `timeoutMs`. */
export async function taskFinished(tasks: Tasks, taskId: string, timeoutMs = 30_000): Promise<TaskDoc> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const task = await tasks.get(taskId);
    if (task.status !== 'running') return task;
    if (Date.now() > until) throw new Error(`task ${taskId} still running: ${JSON.stringify(task.counts)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
