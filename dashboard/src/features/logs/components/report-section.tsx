import { useMemo, useState } from 'react';
import { Button, ButtonGroup } from '../../../components/ui/button.tsx';
import { HTMLTable, Section, SectionCard, Tag } from '../../../components/ui/display.tsx';
import { HTMLSelect } from '../../../components/ui/form.tsx';
import { useT } from '../../../lib/i18n.ts';
import type { DetailRow } from '../api/types.ts';
import { pageOf, similarity, type Section as ReportSectionData } from '../lib/report.ts';

export interface RowActions {
  /** running: stop one item. */
  stop?: (row: DetailRow) => void;
  /** missing sections: mark the item done. */
  finish?: (row: DetailRow) => void;
  /** failed: delete one file (asks first). */
  remove?: (row: DetailRow) => void;
  /** failed: delete every failed file (asks first). */
  removeAll?: (rows: DetailRow[]) => void;
  /** The failure's reason in the interface language. */
  reasonText: (row: DetailRow) => string;
}

/** A change that is not a tag field is named by its kind. */
const KIND_LABEL: Record<string, string> = { move: '移动', copy: '复制', delete: '删除', create: '创建', convert: '转换' };

const MISSING = new Set(['miss_tag', 'miss_artist', 'miss_album', 'miss_artist_album']);

/** The file name of a path (the report's rows carry both; older rows only the path). */
const fileName = (row: DetailRow) => row.name || row.path.split(/[\\/]/).pop() || row.path;

/** What changed in a file: `field: before → after` per change (a move shows the new path). */
function Changes({ row }: { row: DetailRow }) {
  const t = useT();
  if (!row.changes?.length) return null;
  return (
    <ul className="ts-report-changes">
      {row.changes.map((c, i) => (
        <li key={i} data-kind={c.kind}>
          <span className="ts-muted">{c.kind === 'tags' ? c.field : t(KIND_LABEL[c.kind] ?? c.kind)}</span> <s className="ts-report-before">{c.before ?? '∅'}</s>
          {' → '}
          <span className="ts-report-after">{c.after ?? '∅'}</span>
        </li>
      ))}
    </ul>
  );
}

/** Raw value struck through, then the new one (mode-success rows). */
function RawVsNew({ raw, now }: { raw?: string | null; now?: string | null }) {
  if (!raw || raw === now) return <>{now ?? ''}</>;
  return (
    <>
      <s className="ts-report-before">{raw}</s> <span className="ts-report-after">{now ?? ''}</span>
    </>
  );
}

/**
 * One section of the report: its title with a count badge, 10 rows a page and the section's actions. The
 * skipped section filters by reason.
 */
export function ReportSection({ section, actions }: { section: ReportSectionData; actions: RowActions }) {
  const t = useT();
  const [page, setPage] = useState(1);
  const [reason, setReason] = useState('');
  const reasons = useMemo(() => (section.key === 'skip' ? [...new Set(section.rows.map((r) => actions.reasonText(r)).filter(Boolean))] : []), [section]);
  const rows = reason ? section.rows.filter((r) => actions.reasonText(r) === reason) : section.rows;
  const shown = pageOf(rows, page);
  const key = section.key;
  const showReason = key === 'fail' || key === 'skip' || MISSING.has(key) || key === 'delete';
  const showChanges = section.rows.some((r) => r.changes?.length);
  const hasActions = key === 'running' || MISSING.has(key) || key === 'fail' || key === 'mode_success';

  const right = (
    <div className="ts-report-section-tools">
      {key === 'skip' && reasons.length > 1 ? (
        <HTMLSelect
          minimal
          aria-label={t('按原因筛选')}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setPage(1);
          }}
          options={[{ value: '', label: t('全部原因') }, ...reasons.map((r) => ({ value: r, label: r }))]}
        />
      ) : null}
      {key === 'fail' && actions.removeAll ? (
        <Button small intent="danger" icon="trash" text={t('全部删除')} data-testid="delete-all-failed" onClick={() => actions.removeAll!(section.rows)} />
      ) : null}
    </div>
  );

  return (
    <Section
      className="ts-report-section"
      data-section={key}
      compact
      title={
        <span className="ts-report-section-title">
          {t(section.title)}
          <Tag round minimal intent={key === 'fail' ? 'danger' : key === 'success' ? 'success' : 'none'} data-testid="section-count">
            {section.count}
          </Tag>
        </span>
      }
      rightElement={right}
    >
      <SectionCard padded={false}>
        <div className="ts-log-table-wrap">
          <HTMLTable compact striped className="ts-report-table">
            <thead>
              <tr>
                <th>#</th>
                <th>{t('文件')}</th>
                <th>{t('标题')}</th>
                <th>{t('艺术家|字段')}</th>
                <th>{t('专辑|字段')}</th>
                {key === 'mode_success' ? <th>{t('相似度')}</th> : null}
                {showChanges ? <th>{t('修改')}</th> : null}
                {showReason ? <th>{t('原因')}</th> : null}
                {hasActions ? <th>{t('操作')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {shown.rows.map((row, i) => (
                <tr key={row.id} data-row-id={row.id} data-path={row.path}>
                  <td className="ts-small ts-muted">{(shown.page - 1) * 10 + i + 1}</td>
                  <td className="ts-report-file" title={row.path}>
                    <div>{fileName(row)}</div>
                    <div className="ts-small ts-muted ts-report-path">{row.path}</div>
                  </td>
                  {key === 'mode_success' ? (
                    <>
                      <td>
                        <RawVsNew raw={row.extra?.raw_title} now={row.title} />
                      </td>
                      <td>
                        <RawVsNew raw={row.extra?.raw_artist} now={row.artist} />
                      </td>
                      <td>
                        <RawVsNew raw={row.extra?.raw_album} now={row.album} />
                      </td>
                      <td className="ts-mono">{similarity(row.similar)}</td>
                    </>
                  ) : (
                    <>
                      <td>{row.title ?? ''}</td>
                      <td>{row.artist ?? ''}</td>
                      <td>{row.album ?? ''}</td>
                    </>
                  )}
                  {showChanges ? (
                    <td>
                      <Changes row={row} />
                    </td>
                  ) : null}
                  {showReason ? <td className="ts-report-reason">{actions.reasonText(row)}</td> : null}
                  {hasActions ? (
                    <td className="ts-nowrap">
                      {key === 'running' && actions.stop ? <Button small minimal intent="warning" icon="stop" text={t('停止')} data-testid="stop-item" onClick={() => actions.stop!(row)} /> : null}
                      {MISSING.has(key) && actions.finish ? <Button small minimal icon="tick" text={t('完成')} data-testid="finish-item" onClick={() => actions.finish!(row)} /> : null}
                      {key === 'fail' && actions.remove ? <Button small minimal intent="danger" icon="trash" text={t('删除')} data-testid="delete-item" onClick={() => actions.remove!(row)} /> : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
        {shown.pages > 1 || section.count > section.rows.length ? (
          <div className="ts-report-pager" data-testid="section-pager">
            {shown.pages > 1 ? (
              <ButtonGroup>
                <Button small icon="chevron-left" aria-label={t('上一页')} disabled={shown.page <= 1} onClick={() => setPage(shown.page - 1)} />
                <Button small icon="chevron-right" aria-label={t('下一页')} disabled={shown.page >= shown.pages} onClick={() => setPage(shown.page + 1)} />
              </ButtonGroup>
            ) : null}
            <span className="ts-small">{t('第 {page} / {pages} 页', { page: shown.page, pages: shown.pages })}</span>
            {section.count > section.rows.length ? <span className="ts-small ts-muted">{t('显示前 {n} 条（共 {total} 条）', { n: section.rows.length, total: section.count })}</span> : null}
          </div>
        ) : null}
      </SectionCard>
    </Section>
  );
}
