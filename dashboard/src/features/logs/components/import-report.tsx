import { useEffect, useState } from 'react';
import { HTMLTable, Section, SectionCard, Tag } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { getImportSection, type ImportSectionKey } from '../api/get-import-section.ts';
import type { DetailRow, LogDetail } from '../api/types.ts';
import { pagesOf, SECTION_PAGE_SIZE, sectionsOf } from '../lib/report.ts';
import { ReportSection, SectionPager, type RowActions } from './report-section.tsx';

/** The task kind of 导入收藏 (plugins/import-music). */
export const IMPORT_TASK_KIND = 'action:import-music';

/** The import's own lists, between running and failed (spec doc 2 §2: running, metadata scan, music collection, failed). */
const IMPORT_LISTS: ReadonlyArray<{ key: ImportSectionKey; title: string; intent: 'none' | 'success' }> = [
  { key: 'import_scan', title: '元数据扫描', intent: 'none' },
  { key: 'import_collection', title: '音乐收藏', intent: 'success' },
];

/** What the import did with a row's track (the item's `report.library`), or why it skipped the file. */
const LIBRARY_TEXT: Record<string, string> = { added: '新加入收藏', updated: '已更新', unchanged: '无变化' };

interface ImportList {
  key: ImportSectionKey;
  title: string;
  intent: 'none' | 'success';
  rows: DetailRow[];
  count: number;
}

/**
 * 导入收藏's detail (spec doc 2 §2 "Task report"): running (stop one queued file), 元数据扫描 (songs already in the
 * collection: re-read, or skipped with the reason), 音乐收藏 (songs newly added), 失败 (with the candidate link, and
 * delete, which asks '确认要删除文件？' on the page). Each list has its count badge and pages of 10 rows. Running and
 * failed are the report's common sections (same actions as any report); the two import lists are the server's
 * `import_scan` / `import_collection`, by each item's `report.section`.
 */
export function ImportReport({ detail, version, actions }: { detail: LogDetail; version: number; actions: RowActions }) {
  // Successes and skips are all in the import's two lists; the other common lists keep their place.
  const common = sectionsOf(detail).filter((s) => s.key !== 'success' && s.key !== 'skip');
  const running = common.find((s) => s.key === 'running');
  const rest = common.filter((s) => s.key !== 'running');
  const lists: ImportList[] = IMPORT_LISTS.map((l) => {
    const rows = (detail[l.key] as DetailRow[] | undefined) ?? [];
    return { ...l, rows, count: Math.max(Number(detail[`${l.key}_count`] ?? 0) || 0, rows.length) };
  });
  return (
    <div className="ts-report-sections" data-testid="import-report">
      {running ? <ReportSection section={running} version={version} actions={actions} /> : null}
      {lists.map((l) => (
        <ImportSection key={l.key} taskId={detail.id} list={l} version={version} dryRun={detail.dry_run === true} />
      ))}
      {rest.map((s) => (
        <ReportSection key={s.key} section={s} version={version} actions={actions} />
      ))}
    </div>
  );
}

/** A tag change as `field before → after` (a default filled in: before is ∅). */
function TagChanges({ row }: { row: DetailRow }) {
  if (!row.changes?.length) return null;
  return (
    <ul className="ts-report-changes">
      {row.changes.map((c, i) => (
        <li key={i} data-kind={c.kind}>
          <span className="ts-muted">{c.field ?? c.kind}</span> <s className="ts-report-before">{c.before ?? '∅'}</s>
          {' → '}
          <span className="ts-report-after">{c.after ?? '∅'}</span>
        </li>
      ))}
    </ul>
  );
}

/** One of the import's lists: 10 rows a page, page 1 from the report, later pages asked for (again on each refresh). */
function ImportSection({ taskId, list, version, dryRun }: { taskId: string; list: ImportList; version: number; dryRun: boolean }) {
  const t = useT();
  const [page, setPage] = useState(1);
  const [loaded, setLoaded] = useState<{ page: number; rows: DetailRow[] } | null>(null);
  const [loading, setLoading] = useState(false);
  const pages = pagesOf(list.count);

  useEffect(() => {
    if (page > pages) setPage(pages);
  }, [page, pages]);

  useEffect(() => {
    if (page === 1) return;
    const abort = new AbortController();
    setLoading(true);
    getImportSection(taskId, list.key, page, abort.signal).then(
      (rows) => {
        setLoaded({ page, rows });
        setLoading(false);
      },
      () => !abort.signal.aborted && setLoading(false),
    );
    return () => abort.abort();
  }, [taskId, list.key, page, version]);

  const rows = page === 1 ? list.rows : loaded?.page === page ? loaded.rows : [];
  const showChanges = rows.some((r) => r.changes?.length);
  const outcome = (row: DetailRow) => {
    if (row.status === 'skip') return `${t('跳过')}${row.reason ? `：${row.reason}` : ''}`;
    const library = (row.report as { library?: string } | null | undefined)?.library ?? '';
    if (dryRun && library === 'added') return t('将加入收藏');
    return LIBRARY_TEXT[library] ? t(LIBRARY_TEXT[library]) : '';
  };

  return (
    <Section
      className="ts-report-section"
      data-section={list.key}
      compact
      title={
        <span className="ts-report-section-title">
          {t(list.title)}
          <Tag round minimal intent={list.intent} data-testid="section-count">
            {list.count}
          </Tag>
        </span>
      }
    >
      <SectionCard padded={false}>
        <div className="ts-log-table-wrap" data-loading={loading ? '' : undefined}>
          <HTMLTable compact striped className="ts-report-table">
            <thead>
              <tr>
                <th>#</th>
                <th>{t('文件')}</th>
                <th>{t('标题')}</th>
                <th>{t('艺术家|字段')}</th>
                <th>{t('专辑|字段')}</th>
                {showChanges ? <th>{t('修改')}</th> : null}
                <th>{t('结果')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={showChanges ? 7 : 6} className="ts-small ts-muted" data-testid="import-empty">
                    {t('没有文件')}
                  </td>
                </tr>
              ) : null}
              {rows.map((row, i) => (
                <tr key={row.id} data-row-id={row.id} data-path={row.path ?? undefined} data-status={row.status}>
                  <td className="ts-small ts-muted">{(page - 1) * SECTION_PAGE_SIZE + i + 1}</td>
                  <td className="ts-report-file" title={row.path ?? undefined}>
                    <div>{row.name || row.path}</div>
                    <div className="ts-small ts-muted ts-report-path">{row.path}</div>
                  </td>
                  <td>{row.title ?? ''}</td>
                  <td>{row.artist ?? ''}</td>
                  <td>{row.album ?? ''}</td>
                  {showChanges ? (
                    <td>
                      <TagChanges row={row} />
                    </td>
                  ) : null}
                  <td className="ts-report-reason" data-testid="import-outcome">
                    {outcome(row)}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
        <SectionPager page={page} pages={pages} onPage={setPage} />
      </SectionCard>
    </Section>
  );
}
