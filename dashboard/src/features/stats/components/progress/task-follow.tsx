import { Link } from 'wouter';
import { Spinner, Tag } from '../../../../components/ui/display.tsx';
import { useT } from '../../../../lib/i18n.ts';
import { useTaskWatch } from '../../hooks/use-task-watch.ts';

/** A running task of a /progress section: done/total, linking to its report; gone (and the page reloaded) when it ends. */
export function TaskFollow({ taskId, onFinish }: { taskId: string; onFinish: () => void }) {
  const t = useT();
  const watch = useTaskWatch(taskId, onFinish);
  return (
    <Link href={`/log_detail/${encodeURIComponent(taskId)}/`} data-task-follow={taskId}>
      <Tag intent="primary" minimal round icon={<Spinner size={12} />}>
        {watch && watch.total > 0 ? t('任务进行中 {done}/{total}', { done: watch.done, total: watch.total }) : t('任务进行中')}
      </Tag>
    </Link>
  );
}
