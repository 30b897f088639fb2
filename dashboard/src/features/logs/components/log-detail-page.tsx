import { useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { Callout, Card, NonIdealState, Spinner, Tag } from '../../../components/ui/display.tsx';
import { Alert } from '../../../components/ui/overlay.tsx';
import { useFormatDateTime } from '../../../lib/dates.ts';
import { useLang, useT } from '../../../lib/i18n.ts';
import { serverMessage } from '../../../lib/server-messages.ts';
import { deleteFiles } from '../api/delete-files.ts';
import { finishItem } from '../api/finish-item.ts';
import { getAuditLogDetail } from '../api/get-audit-log-detail.ts';
import { stopItem } from '../api/stop-item.ts';
import { stopTask } from '../api/stop-task.ts';
import type { DetailRow, LogDetail } from '../api/types.ts';
import { undoTask } from '../api/undo-task.ts';
import { useTaskProgress } from '../hooks/use-task-progress.ts';
import { STATUS_INTENT, statusText } from '../lib/operation-log.ts';
import { formatEta, formatRate } from '../lib/progress.ts';
import { DETAIL_POLL_MS, formatRunTime, isFinal, sectionsOf, statCards } from '../lib/report.ts';
import { ReportSection } from './report-section.tsx';
import './logs.css';

type Confirm = { kind: 'delete'; rows: DetailRow[]; mode: 'single' | 'fail' } | { kind: 'undo' } | null;

/**
 * /log_detail/{id}/ (spec doc 2 §2 "Task report"): the task's card (stop while it runs), stat cards, a live
 * progress bar (SSE: items/s, time left), every non-empty section with its count and actions, and Undo
 * task. The report is fetched again every 3 s while the task runs (§4) and once more when it ends.
 */
export function LogDetailPage({ id }: { id: string }) {
  const t = useT();
  const lang = useLang((s) => s.lang);
  const when = useFormatDateTime();
  const [detail, setDetail] = useState<LogDetail | null>(null);
  const [failed, setFailed] = useState(false);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [busy, setBusy] = useState(false);
  const [refreshKey, setRefreshKey] = useState(0);
  const refresh = useCallback(() => setRefreshKey((k) => k + 1), []);

  const running = detail ? !isFinal(detail.status) : false;
  const taskId = detail ? (detail.task_id ?? detail.id) : null;

  useEffect(() => {
    const abort = new AbortController();
    getAuditLogDetail(id, { signal: abort.signal, quiet: detail !== null }).then(
      (d) => {
        setDetail(d);
        setFailed(false);
      },
      () => !abort.signal.aborted && setFailed(true),
    );
    return () => abort.abort();
  }, [id, refreshKey]);

  // While the task runs the lists change: poll every 3 s, and stop once it is final.
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(refresh, DETAIL_POLL_MS);
    return () => clearInterval(timer);
  }, [running, refresh]);

  const progress = useTaskProgress(taskId, running, (e) => {
    if (e.status !== 'running') refresh();
  });

  const reasonText = (row: DetailRow) => (row.reason_code ? serverMessage(row.reason_code, row.reason ?? '', lang) : (row.reason ?? ''));

  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
      refresh();
    } catch {
      // The client announced the failure.
    } finally {
      setBusy(false);
    }
  };

  if (detail === null) {
    return failed ? (
      <NonIdealState icon="error" title={t('查询失败！')} action={<Button icon="refresh" text={t('重试')} onClick={refresh} />} />
    ) : (
      <div className="ts-logs">
        <Spinner />
      </div>
    );
  }

  const sections = sectionsOf(detail);
  const total = progress?.total ?? detail.static?.total_count ?? 0;
  const done = progress?.done ?? detail.static?.complete_count ?? 0;
  const percent = total ? Math.min(100, (done / total) * 100) : running ? 0 : 100;

  return (
    <div className="ts-logs ts-log-detail" data-testid="log-detail" data-status={detail.status}>
      <div className="ts-page-head">
        <h2>
          <Link href="/log" className="ts-log-back" aria-label={t('返回操作记录')}>
            {t('操作记录')}
          </Link>
          {' / '}
          {t('任务报告')}
        </h2>
      </div>
      <Card className="ts-report-card" data-testid="report-card">
        <div className="ts-report-card-main">
          <div className="ts-report-name">
            <h3>{t(detail.name)}</h3>
            <Tag round intent={STATUS_INTENT[detail.status] ?? 'none'} data-testid="report-status">
              {detail.status_display ? t(detail.status_display) : t(statusText(detail.status))}
            </Tag>
          </div>
          <dl className="ts-report-facts">
            <div>
              <dt>{t('创建时间')}</dt>
              <dd>{detail.created_at ? when(detail.created_at) : '-'}</dd>
            </div>
            <div>
              <dt>{t('运行时间')}</dt>
              <dd data-testid="report-run-time">{formatRunTime(detail.run_time)}</dd>
            </div>
            <div>
              <dt>{t('完成时间')}</dt>
              <dd>{detail.complete_at ? when(detail.complete_at) : '-'}</dd>
            </div>
          </dl>
        </div>
        <div className="ts-report-card-actions">
          {running ? <Button intent="danger" icon="stop" text={t('停止任务')} data-testid="stop-task" loading={busy} onClick={() => void act(() => stopTask(detail.id))} /> : null}
          {!running && detail.can_undo !== false && taskId ? (
            <Button icon="undo" text={t('撤销任务')} data-testid="undo-task" loading={busy} onClick={() => setConfirm({ kind: 'undo' })} />
          ) : null}
        </div>
      </Card>

      <div className="ts-report-progress" data-testid="report-progress" data-done={done} data-total={total}>
        <div className="ts-report-bar" role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-label={t('进度')}>
          <div className={`ts-report-bar-fill${running ? ' ts-running' : ''}`} style={{ width: `${percent}%` }} />
        </div>
        <span className="ts-small">
          {t('{done} / {total}', { done, total })}
          {running ? (
            <span className="ts-muted" data-testid="report-rate">
              {' · '}
              {t('{rate} 项/秒，剩余 {eta}', { rate: formatRate(progress?.rate ?? null), eta: formatEta(progress?.etaSeconds ?? null) })}
            </span>
          ) : null}
        </span>
      </div>

      <div className="ts-report-stats" data-testid="report-stats">
        {statCards(detail.static).map((c) => (
          <Card key={c.key} className="ts-report-stat" data-stat={c.key}>
            <div className="ts-report-stat-value">{c.value}</div>
            <div className="ts-small ts-muted">{t(c.label)}</div>
          </Card>
        ))}
      </div>

      {sections.length === 0 ? (
        <Callout icon="info-sign">{running ? t('任务正在排队，稍后刷新。') : t('这个任务没有需要列出的文件。')}</Callout>
      ) : (
        <div className="ts-report-sections">
          {sections.map((s) => (
            <ReportSection
              key={s.key}
              section={s}
              actions={{
                reasonText,
                stop: (row) => void act(() => stopItem(row.id)),
                finish: (row) => void act(() => finishItem(row.id)),
                remove: (row) => setConfirm({ kind: 'delete', rows: [row], mode: 'single' }),
                removeAll: (rows) => setConfirm({ kind: 'delete', rows, mode: 'fail' }),
              }}
            />
          ))}
        </div>
      )}

      <Alert
        isOpen={confirm !== null}
        intent={confirm?.kind === 'delete' ? 'danger' : 'warning'}
        icon={confirm?.kind === 'delete' ? 'trash' : 'undo'}
        confirmButtonText={confirm?.kind === 'delete' ? t('删除') : t('撤销')}
        cancelButtonText={t('取消')}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          const c = confirm;
          setConfirm(null);
          if (c?.kind === 'undo' && taskId) void act(() => undoTask(taskId));
          if (c?.kind === 'delete') {
            const paths = c.rows.map((r) => r.path);
            void act(() => deleteFiles({ logId: detail.id, mode: c.mode, paths, detailId: c.mode === 'single' ? c.rows[0].id : undefined }));
          }
        }}
      >
        <p data-testid="confirm-text">
          {confirm?.kind === 'delete'
            ? t('确认要删除文件？')
            : t('撤销这个任务对文件做的全部修改（标签、重命名、移动、删除）？之后被再次修改过的文件会跳过。')}
        </p>
        {confirm?.kind === 'delete' && confirm.rows.length > 1 ? <p className="ts-small ts-muted">{t('{n} 个文件', { n: confirm.rows.length })}</p> : null}
      </Alert>
    </div>
  );
}
