import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { Callout, Card, NonIdealState, Spinner, Tag } from '../../../components/ui/display.tsx';
import { Alert } from '../../../components/ui/overlay.tsx';
import { useFormatDateTime } from '../../../lib/dates.ts';
import { useLang, useT } from '../../../lib/i18n.ts';
import { serverMessage } from '../../../lib/server-messages.ts';
import { applyTask } from '../api/apply-task.ts';
import { deleteFiles } from '../api/delete-files.ts';
import { finishItem } from '../api/finish-item.ts';
import { getAuditLogDetail } from '../api/get-audit-log-detail.ts';
import { stopItem } from '../api/stop-item.ts';
import { stopTask } from '../api/stop-task.ts';
import type { DetailRow, LogDetail, SectionKey } from '../api/types.ts';
import { undoTask } from '../api/undo-task.ts';
import { useTaskProgress } from '../hooks/use-task-progress.ts';
import { STATUS_INTENT, statusText } from '../lib/operation-log.ts';
import { formatEta, formatRate } from '../lib/progress.ts';
import { DETAIL_POLL_MS, formatRunTime, isFinal, sectionsOf, statCards } from '../lib/report.ts';
import { DUPLICATE_TASK_KIND } from '../lib/duplicates.ts';
import { DuplicateReport } from './duplicate-report.tsx';
import { ImportReport, IMPORT_TASK_KIND } from './import-report.tsx';
import { ReportSection, type RowActions } from './report-section.tsx';
import './logs.css';

const detailHref = (id: string) => `/log_detail/${encodeURIComponent(id)}/`;

/**
 * /log_detail/{id}/ (spec doc 2 §2 "Task report"): the task's card (stop while it runs; Undo task once it
 * ended), a live progress bar (SSE: items/s, time left), stat cards and every non-empty section with its
 * count and actions. The report is fetched again every 3 s while the task runs (§4) and once more when it
 * ends. A dry run says that nothing was touched and offers to apply exactly the changes it lists.
 */
export function LogDetailPage({ id }: { id: string }) {
  const t = useT();
  const lang = useLang((s) => s.lang);
  const when = useFormatDateTime();
  const [, navigate] = useLocation();
  const [detail, setDetail] = useState<LogDetail | null>(null);
  const [failed, setFailed] = useState(false);
  const [confirmUndo, setConfirmUndo] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState<{ rows: DetailRow[]; all: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);
  const refresh = useCallback(() => setVersion((k) => k + 1), []);

  const running = detail ? !isFinal(detail.status) : false;

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
  }, [id, version]);

  // While the task runs its lists change: poll every 3 s, and stop once it is final. A stopped task's queued
  // items end as stopped only when a worker reaches them, so its lists keep changing until none is left.
  const draining = detail !== null && (running || Number(detail.running_count ?? 0) > 0);
  useEffect(() => {
    if (!draining) return;
    const timer = setInterval(refresh, DETAIL_POLL_MS);
    return () => clearInterval(timer);
  }, [draining, refresh]);

  const live = useTaskProgress(detail?.id ?? null, running, (e) => {
    if (e.status !== 'running') refresh();
  });

  // The catalogue's words for the code, then the server's own detail (which file, which field) when it adds any.
  const reasonText = (row: DetailRow) => {
    const raw = row.reason ?? '';
    const said = row.error_code ? serverMessage(row.error_code, raw, lang) : raw;
    return said !== raw && raw ? `${said}：${raw}` : said;
  };
  const loadPage = async (section: SectionKey, page: number, signal: AbortSignal) => (await getAuditLogDetail(id, { section, page, signal, quiet: true }))[section] ?? [];

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

  // A duplicate check's items are sets of candidates: its report is the duplicate-check detail instead of
  // their success/skip lists (the files deleted from it are its delete list, as for any report).
  const isDuplicateCheck = detail.kind === DUPLICATE_TASK_KIND;
  const sections = sectionsOf(detail).filter((s) => !isDuplicateCheck || (s.key !== 'success' && s.key !== 'skip'));
  // An import collection's successes and skips are its 元数据扫描 and 音乐收藏 lists (import-report.tsx).
  const isImport = detail.kind === IMPORT_TASK_KIND;
  // The live figures win while they are newer than the last fetch (events arrive between the 3 s polls).
  const fetched = detail.progress ?? { done: detail.static?.complete_count ?? 0, total: detail.static?.total_count ?? 0, items_per_sec: null, eta_sec: null };
  const useLive = live !== null && live.done >= fetched.done;
  const total = useLive ? live.total : fetched.total;
  const done = useLive ? live.done : fetched.done;
  const rate = useLive ? live.rate : fetched.items_per_sec;
  const eta = useLive ? live.etaSeconds : fetched.eta_sec;
  const percent = total ? Math.min(100, (done / total) * 100) : running ? 0 : 100;
  const canApply = detail.dry_run && !running && !detail.applied_task_id && (detail.static?.success_count ?? 0) > 0;
  // Only successful items changed files: a task where nothing succeeded has nothing to put back.
  // A duplicate check reads only (its deletes are tasks of their own, undone from their reports).
  const canUndo = !running && !detail.dry_run && !detail.undone && (detail.static?.success_count ?? 0) > 0 && detail.kind !== DUPLICATE_TASK_KIND;

  const rowActions: RowActions = {
    reasonText,
    loadPage,
    stop: running ? (row) => void act(() => stopItem(row.id)) : undefined,
    finish: (row) => void act(() => finishItem(detail.id, row.id)),
    remove: (row) => setConfirmDelete({ rows: [row], all: false }),
    removeAll: (rows) => setConfirmDelete({ rows, all: true }),
  };

  const apply = () =>
    void act(async () => {
      const next = await applyTask(detail.id);
      navigate(detailHref(next.task_id));
    });

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
            {detail.dry_run ? <Tag minimal intent="primary">{t('预览')}</Tag> : null}
            {detail.undone ? (
              <Tag minimal intent="warning" data-testid="report-undone">
                {t('已撤销')}
              </Tag>
            ) : null}
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
          {canApply ? <Button intent="primary" icon="tick" text={t('应用这些修改')} data-testid="apply-task" loading={busy} onClick={apply} /> : null}
          {canUndo ? <Button icon="undo" text={t('撤销任务')} data-testid="undo-task" loading={busy} onClick={() => setConfirmUndo(true)} /> : null}
        </div>
      </Card>

      {detail.dry_run ? (
        <Callout intent="primary" icon="eye-open" className="ts-report-note" data-testid="dry-run-note">
          {t('这是预览：没有修改任何文件。下面列出的修改会在“应用这些修改”后原样执行。')}
          {detail.applied_task_id ? (
            <>
              {' '}
              <Link href={detailHref(detail.applied_task_id)}>{t('查看应用任务')}</Link>
            </>
          ) : null}
        </Callout>
      ) : null}
      {detail.source_task_id ? (
        <Callout icon="eye-open" className="ts-report-note">
          {t('这个任务应用了一次预览。')} <Link href={detailHref(detail.source_task_id)}>{t('查看预览')}</Link>
        </Callout>
      ) : null}

      <div className="ts-report-progress" data-testid="report-progress" data-done={done} data-total={total}>
        <div className="ts-report-bar" role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-label={t('进度')}>
          <div className={`ts-report-bar-fill${running ? ' ts-running' : ''}`} style={{ width: `${percent}%` }} />
        </div>
        <span className="ts-small ts-nowrap">
          {done} / {total}
          {running ? (
            <span className="ts-muted" data-testid="report-rate">
              {' · '}
              {t('{rate} 项/秒，剩余 {eta}', { rate: formatRate(rate ?? null), eta: formatEta(eta ?? null) })}
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

      {isDuplicateCheck && !running ? <DuplicateReport id={detail.id} version={Number(detail.delete_count ?? 0)} /> : null}
      {isImport ? (
        <ImportReport detail={detail} version={version} actions={rowActions} />
      ) : sections.length === 0 ? (
        isDuplicateCheck && !running ? null : (
          <Callout icon="info-sign">{running ? t('任务正在排队，稍后刷新。') : t('这个任务没有需要列出的文件。')}</Callout>
        )
      ) : (
        <div className="ts-report-sections">
          {sections.map((s) => (
            <ReportSection
              key={s.key}
              section={s}
              version={version}
              actions={rowActions}
            />
          ))}
        </div>
      )}

      <Alert
        isOpen={confirmDelete !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('删除')}
        cancelButtonText={t('取消')}
        onCancel={() => setConfirmDelete(null)}
        onConfirm={() => {
          const c = confirmDelete!;
          setConfirmDelete(null);
          void act(() =>
            c.all ? deleteFiles({ logId: detail.id, mode: 'fail' }) : deleteFiles({ logId: detail.id, mode: 'single', paths: c.rows[0].path ? [c.rows[0].path] : [], detailId: c.rows[0].id }),
          );
        }}
      >
        <p data-testid="confirm-delete-text">{t('确认要删除文件？')}</p>
        <p className="ts-small ts-muted">{confirmDelete?.all ? t('全部失败的文件（{n} 个）', { n: Number(detail.fail_count ?? 0) }) : confirmDelete?.rows[0]?.path}</p>
      </Alert>
      <Alert
        isOpen={confirmUndo}
        intent="warning"
        icon="undo"
        confirmButtonText={t('撤销')}
        cancelButtonText={t('取消')}
        onCancel={() => setConfirmUndo(false)}
        onConfirm={() => {
          setConfirmUndo(false);
          void act(() => undoTask(detail.id, { onForce: () => void act(() => undoTask(detail.id, { force: true })) }));
        }}
      >
        <p data-testid="confirm-text">{t('撤销这个任务对文件做的全部修改（标签、重命名、移动、删除）？之后被再次修改过的文件会跳过。')}</p>
      </Alert>
    </div>
  );
}
