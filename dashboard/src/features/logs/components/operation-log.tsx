import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { Button, ButtonGroup } from '../../../components/ui/button.tsx';
import { HTMLTable, NonIdealState, Spinner, Tag } from '../../../components/ui/display.tsx';
import { InputGroup } from '../../../components/ui/form.tsx';
import { useFormatDateTime } from '../../../lib/dates.ts';
import { useT } from '../../../lib/i18n.ts';
import { getAuditLog } from '../api/get-audit-log.ts';
import type { AuditLogPage } from '../api/types.ts';
import { ACTION_FILTERS, ACTIONS_WITH_REPORT, hasNextPage, jumpTarget, LEVEL_INTENT, pageCount, STATUS_INTENT, statusText } from '../lib/operation-log.ts';

/**
 * 操作日志: the audit log, 50 entries a page, filtered by action; entries of actions with a report link to
 * /log_detail/{id}/. A page number can be typed to jump to it.
 */
const REFRESH_WHILE_RUNNING_MS = 3000;

export function OperationLog() {
  const t = useT();
  const when = useFormatDateTime();
  const [filter, setFilter] = useState(ACTION_FILTERS[0].key);
  const [page, setPage] = useState(1);
  const [typed, setTyped] = useState('1');
  const [data, setData] = useState<AuditLogPage | null>(null);
  const [failed, setFailed] = useState(false);
  const [retry, setRetry] = useState(0);
  const action = ACTION_FILTERS.find((f) => f.key === filter)?.action;

  useEffect(() => {
    const abort = new AbortController();
    setFailed(false);
    getAuditLog({ page, action }, abort.signal).then(setData, () => !abort.signal.aborted && setFailed(true));
    return () => abort.abort();
  }, [page, action, retry]);

  useEffect(() => setTyped(String(page)), [page]);

  // Entries of running tasks change state: the page refreshes itself until none on it runs.
  const anyRunning = data?.items.some((i) => i.status === 'running') ?? false;
  useEffect(() => {
    if (!anyRunning) return;
    const timer = setInterval(() => setRetry((n) => n + 1), REFRESH_WHILE_RUNNING_MS);
    return () => clearInterval(timer);
  }, [anyRunning]);

  const choose = (key: string) => {
    setFilter(key);
    setPage(1);
    setData(null);
  };
  // The box then shows the page actually shown (a number past the last page is the last page).
  const jump = () => {
    const target = data ? jumpTarget(typed, data.count) : null;
    if (target !== null && target !== page) setPage(target);
    setTyped(String(target ?? page));
  };

  return (
    <div className="ts-oplog" data-testid="operation-log" data-loading={data === null ? '' : undefined}>
      <div className="ts-log-filters" role="tablist" aria-label={t('按操作筛选')}>
        {ACTION_FILTERS.map((f) => (
          <Button
            key={f.key}
            role="tab"
            aria-selected={f.key === filter}
            data-filter={f.key}
            small
            minimal={f.key !== filter}
            intent={f.key === filter ? 'primary' : 'none'}
            text={t(f.label)}
            onClick={() => choose(f.key)}
          />
        ))}
      </div>
      {failed && data === null ? (
        <NonIdealState icon="error" title={t('查询失败！')} action={<Button icon="refresh" text={t('重试')} onClick={() => setRetry((n) => n + 1)} />} />
      ) : data === null ? (
        <Spinner />
      ) : data.items.length === 0 ? (
        <NonIdealState icon="history" title={t('还没有操作记录')} />
      ) : (
        <div className="ts-log-table-wrap">
          <HTMLTable striped compact className="ts-log-table" data-testid="audit-table">
            <thead>
              <tr>
                <th className="ts-log-col-id">ID</th>
                <th className="ts-log-col-user">{t('用户')}</th>
                <th>{t('级别')}</th>
                <th>{t('操作')}</th>
                <th>{t('详情')}</th>
                <th>{t('状态')}</th>
                <th>{t('时间')}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((item) => (
                <tr key={item.id} data-audit-id={item.id} data-status={item.status}>
                  <td className="ts-mono ts-small ts-log-id ts-log-col-id" title={item.id}>
                    {item.id}
                  </td>
                  <td className="ts-log-col-user">{item.user}</td>
                  <td>
                    <Tag minimal intent={LEVEL_INTENT[item.level] ?? 'none'} data-level={item.level}>
                      {item.level}
                    </Tag>
                  </td>
                  <td className="ts-nowrap">{t(item.action)}</td>
                  <td className="ts-log-extra">
                    {item.extra ? <span className="ts-log-extra-text">{item.extra}</span> : null}
                    {ACTIONS_WITH_REPORT.has(item.action) ? (
                      <Link href={`/log_detail/${encodeURIComponent(item.id)}/`} className="ts-log-detail-link" data-testid="detail-link">
                        {t('查看详情')}
                      </Link>
                    ) : null}
                  </td>
                  <td className="ts-nowrap">
                    <Tag minimal round intent={STATUS_INTENT[item.status] ?? 'none'} data-testid="audit-status">
                      {t(statusText(item.status))}
                    </Tag>
                  </td>
                  <td className="ts-nowrap ts-small">{when(item.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
      {data ? (
        <div className="ts-log-pager" data-testid="audit-pager">
          <ButtonGroup>
            <Button icon="chevron-left" aria-label={t('上一页')} disabled={page <= 1} onClick={() => setPage(page - 1)} />
            <Button icon="chevron-right" aria-label={t('下一页')} disabled={!hasNextPage(data.count, page)} onClick={() => setPage(page + 1)} />
          </ButtonGroup>
          <InputGroup
            type="number"
            min={1}
            max={pageCount(data.count)}
            className="ts-log-jump"
            aria-label={t('跳转到页码')}
            value={typed}
            onValueChange={setTyped}
            onBlur={jump}
            onKeyDown={(e) => e.key === 'Enter' && jump()}
          />
          <span className="ts-small" data-testid="audit-page-label">
            {t('第 {page} / {pages} 页，共 {n} 条', { page, pages: pageCount(data.count), n: data.count })}
          </span>
        </div>
      ) : null}
    </div>
  );
}
