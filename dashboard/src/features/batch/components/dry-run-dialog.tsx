import { useEffect, useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { HTMLTable, NonIdealState, Spinner, Tag } from '../../../components/ui/display.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import { applyTask } from '../api/apply-task.ts';
import { createBatchTask } from '../api/create-batch-task.ts';
import { DRY_RUN_ROWS, getDryRun, type DryRunState } from '../api/get-dry-run.ts';
import { actionInfo, type ActionId } from '../lib/actions.ts';
import { commonFolder, isPath, shownValue } from '../lib/change-paths.ts';
import { label } from '../lib/labels.ts';
import { useBatchStore } from '../stores/batch-store.ts';

/** Rows shown; the rest are counted (the applying task still applies all of them). */
const SHOWN = 1000;
const POLL_MS = 1000;

const KIND_LABELS: Record<string, string> = { tags: '标签', move: '移动', copy: '复制', delete: '删除', create: '新建', convert: '转换' };

/**
 * The dry run (issue 12): the action runs with `dry_run` — nothing is touched — and the list of before →
 * after changes shows here; 应用 then creates the task that applies exactly that list (apply_task).
 */
export function DryRunDialog({ request, onClose, onApplied }: { request: { action: ActionId; payload: object } | null; onClose: () => void; onApplied: () => void }) {
  const t = useT();
  const [taskId, setTaskId] = useState<string | number | null>(null);
  const [result, setResult] = useState<DryRunState | null>(null);
  const [failed, setFailed] = useState(false);
  const [applying, setApplying] = useState(false);

  useEffect(() => {
    setTaskId(null);
    setResult(null);
    setFailed(false);
    if (!request) return;
    const route = actionInfo(request.action).route;
    if (!route) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async (id: string | number) => {
      try {
        const changes = await getDryRun(id, controller.signal);
        if (controller.signal.aborted) return;
        setResult(changes);
        if (changes.status === 'running') timer = setTimeout(() => void poll(id), POLL_MS);
      } catch {
        if (!controller.signal.aborted) setFailed(true);
      }
    };
    createBatchTask(route, request.payload, { dryRun: true })
      .then((created) => {
        if (controller.signal.aborted) return;
        if (created.task_id === undefined) throw new Error('no task id');
        setTaskId(created.task_id);
        void poll(created.task_id);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [request]);

  const running = !failed && (result === null || result.status === 'running');
  const apply = async () => {
    if (taskId === null) return;
    setApplying(true);
    try {
      await applyTask(taskId);
      useBatchStore.getState().show(null);
      onApplied();
      onClose();
    } catch {
      // 创建失败！ has been shown.
    } finally {
      setApplying(false);
    }
  };

  const changes = result?.changes ?? [];
  const common = useMemo(() => commonFolder(changes.filter(isPath).flatMap((c) => [c.before, c.after]).filter((p): p is string => p !== null)), [changes]);
  return (
    <Dialog isOpen={request !== null} onClose={onClose} title={t('预览变更')} icon="eye-open" className="ts-batch-dry-run" portalClassName="ts-batch-dry-run-portal" data-testid="dry-run">
      <DialogBody>
        {result ? (
          <p className="ts-muted" data-testid="dry-run-progress">
            {t('已检查 {done} / {total} 项，{n} 项将有变更', { done: result.done, total: result.total, n: result.changedItems })}
            {result.failedItems > 0 ? <span className="ts-batch-failed"> {t('（{n} 项失败，应用时同样会失败）', { n: result.failedItems })}</span> : null}
            {running && result.itemsPerSec > 0 ? <span> {t('（{rate} 项/秒，约剩 {eta} 秒）', { rate: result.itemsPerSec.toFixed(1), eta: Math.ceil(result.etaSec) })}</span> : null}
          </p>
        ) : null}
        {result && running ? (
          <div className="ts-batch-progress" role="progressbar" aria-valuemin={0} aria-valuemax={result.total} aria-valuenow={result.done}>
            <div style={{ width: `${result.total ? (100 * result.done) / result.total : 0}%` }} />
          </div>
        ) : null}
        {failed ? (
          <NonIdealState icon="error" title={t('预览失败！')} />
        ) : changes.length === 0 ? (
          running ? <Spinner size={30} /> : <NonIdealState icon="tick" title={t('没有需要变更的内容')} />
        ) : (
          <div className="ts-batch-changes">
            <HTMLTable compact striped className="ts-fill-width" data-testid="dry-run-table">
              <thead>
                <tr>
                  <th>{t('文件')}</th>
                  <th>{t('变更')}</th>
                  <th>{t('原值')}</th>
                  <th>{t('新值')}</th>
                </tr>
              </thead>
              <tbody>
                {changes.slice(0, SHOWN).map((c, i) => (
                  <tr key={i}>
                    <td className="ts-batch-path" title={c.path}>
                      {c.path.slice(c.path.lastIndexOf('/') + 1)}
                    </td>
                    <td>
                      <Tag minimal>{c.kind === 'tags' && c.field ? t(label(c.field)) : t(KIND_LABELS[c.kind] ?? c.kind)}</Tag>
                    </td>
                    <td className="ts-batch-before" title={isPath(c) ? (c.before ?? undefined) : undefined}>
                      {shownValue(c, c.before, common)}
                    </td>
                    <td className="ts-batch-after" title={isPath(c) ? (c.after ?? undefined) : undefined}>
                      {shownValue(c, c.after, common)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
            {changes.length > SHOWN || result!.changedItems > DRY_RUN_ROWS ? <p className="ts-muted">{t('只列出前 {n} 处变更；应用时全部生效。', { n: Math.min(SHOWN, changes.length) })}</p> : null}
          </div>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('取消')} onClick={onClose} />
            <Button intent="primary" text={t('应用')} loading={applying} disabled={running || failed || changes.length === 0} onClick={() => void apply()} data-testid="dry-run-apply" />
          </>
        }
      />
    </Dialog>
  );
}
