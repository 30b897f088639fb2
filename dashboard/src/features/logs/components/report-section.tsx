import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { Button, ButtonGroup } from '../../../components/ui/button.tsx';
import { HTMLTable, Section, SectionCard, Tag } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import type { DetailRow, SectionKey } from '../api/types.ts';
import { CANDIDATE_SECTIONS, FINISHABLE_SECTIONS } from '../lib/candidates.ts';
import { pagesOf, SECTION_PAGE_SIZE, similarity, type Section as ReportSectionData } from '../lib/report.ts';
import { CandidateDrawers } from './candidate-drawers.tsx';

export interface RowActions {
  /** running: stop one item that has not started. */
  stop?: (row: DetailRow) => void;
  /** missing sections: mark the item done. */
  finish?: (row: DetailRow) => void;
  /** failed: delete one file (asks first). */
  remove?: (row: DetailRow) => void;
  /** failed: delete every failed file (asks first). */
  removeAll?: (rows: DetailRow[]) => void;
  /** The failure's reason in the interface language. */
  reasonText: (row: DetailRow) => string;
  /** Rows of page `page` (2 and later; page 1 came with the report). */
  loadPage: (key: SectionKey, page: number, signal: AbortSignal) => Promise<DetailRow[]>;
}

/** A change that is not a tag field is named by its kind. */
const KIND_LABEL: Record<string, string> = { move: '移动', copy: '复制', delete: '删除', create: '创建', convert: '转换' };

const MISSING = new Set(['miss_tag', 'miss_artist', 'miss_album', 'miss_artist_album']);

/** Rows a person goes on to fix by hand: the file's folder opens in the file screen (`/?path=`), where its editor is. */
const EDITABLE = new Set(['miss_tag', 'miss_artist', 'miss_album', 'miss_artist_album', 'fail', 'mode_success']);
const folderOf = (p: string) => p.slice(0, Math.max(1, p.lastIndexOf('/')));

/** The file name of a path (the report's rows carry both; older rows only the path); a path-less item is the whole task. */
const fileName = (row: DetailRow, t: (zh: string) => string) => row.name || row.path?.split(/[\\/]/).pop() || row.path || t('整个任务');

/**
 * What changed in a file: `field before → after` for a tag, `移动 → new path` for a move or copy (the row
 * shows the old one), just `删除` for a delete.
 */
function Changes({ row }: { row: DetailRow }) {
  const t = useT();
  if (!row.changes?.length) return null;
  return (
    <ul className="ts-report-changes">
      {row.changes.map((c, i) => (
        <li key={i} data-kind={c.kind}>
          {c.kind === 'tags' ? (
            <>
              <span className="ts-muted">{c.field}</span> <s className="ts-report-before">{c.before ?? '∅'}</s>
              {' → '}
              <span className="ts-report-after">{c.after ?? '∅'}</span>
            </>
          ) : (
            <>
              <span className="ts-muted">{t(KIND_LABEL[c.kind] ?? c.kind)}</span>
              {c.after && c.kind !== 'delete' ? (
                <>
                  {' → '}
                  <span className="ts-report-after">{c.after}</span>
                </>
              ) : null}
            </>
          )}
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
 * One section of the report: its title with a count badge, 10 rows a page and the section's actions. Page 1
 * comes with the report; later pages are asked for, again whenever the report refreshes (`version`).
 */
export function ReportSection({ section, actions, version }: { section: ReportSectionData; actions: RowActions; version: number }) {
  const t = useT();
  const [page, setPage] = useState(1);
  const [loaded, setLoaded] = useState<{ page: number; rows: DetailRow[] } | null>(null);
  const [loading, setLoading] = useState(false);
  const [candidateRow, setCandidateRow] = useState<DetailRow | null>(null);
  const pages = pagesOf(section.count);
  const key = section.key;

  // A section that shrank (items moved on while the task runs) keeps a page that exists.
  useEffect(() => {
    if (page > pages) setPage(pages);
  }, [page, pages]);

  useEffect(() => {
    if (page === 1) return;
    const abort = new AbortController();
    setLoading(true);
    actions.loadPage(key, page, abort.signal).then(
      (rows) => {
        setLoaded({ page, rows });
        setLoading(false);
      },
      () => !abort.signal.aborted && setLoading(false),
    );
    return () => abort.abort();
  }, [key, page, version]);

  const rows = page === 1 ? section.rows : loaded?.page === page ? loaded.rows : [];
  const showReason = (key === 'fail' || key === 'skip' || key === 'delete' || MISSING.has(key)) && rows.some((r) => actions.reasonText(r));
  const showChanges = rows.some((r) => r.changes?.length);
  // A tag column nobody on this page has (a rename, a text fix of titles only) would only take room.
  const shows = (field: 'title' | 'artist' | 'album') => key === 'mode_success' || rows.some((r) => r[field]);
  const [showTitle, showArtist, showAlbum] = [shows('title'), shows('artist'), shows('album')];
  const hasActions = (key === 'running' && !!actions.stop) || EDITABLE.has(key) || (MISSING.has(key) && !!actions.finish) || (key === 'fail' && !!actions.remove);

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
      rightElement={
        key === 'fail' && actions.removeAll ? (
          <Button small intent="danger" icon="trash" text={t('全部删除')} data-testid="delete-all-failed" onClick={() => actions.removeAll!(section.rows)} />
        ) : undefined
      }
    >
      <SectionCard padded={false}>
        <div className="ts-log-table-wrap" data-loading={loading ? '' : undefined}>
          <HTMLTable compact striped className="ts-report-table">
            <thead>
              <tr>
                <th>#</th>
                <th>{t('文件')}</th>
                {showTitle ? <th>{t('标题')}</th> : null}
                {showArtist ? <th>{t('艺术家|字段')}</th> : null}
                {showAlbum ? <th>{t('专辑|字段')}</th> : null}
                {key === 'mode_success' ? <th>{t('相似度')}</th> : null}
                {showChanges ? <th>{t('修改')}</th> : null}
                {showReason ? <th>{t('原因')}</th> : null}
                {hasActions ? <th>{t('操作')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr key={row.id} data-row-id={row.id} data-path={row.path ?? undefined}>
                  <td className="ts-small ts-muted">{(page - 1) * SECTION_PAGE_SIZE + i + 1}</td>
                  <td className="ts-report-file" title={row.path ?? undefined}>
                    <div>{fileName(row, t)}</div>
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
                      {showTitle ? <td>{row.title ?? ''}</td> : null}
                      {showArtist ? <td>{row.artist ?? ''}</td> : null}
                      {showAlbum ? <td>{row.album ?? ''}</td> : null}
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
                      {key === 'running' && actions.stop && row.status !== 'running' ? (
                        <Button small minimal intent="warning" icon="stop" text={t('停止')} data-testid="stop-item" onClick={() => actions.stop!(row)} />
                      ) : null}
                      {CANDIDATE_SECTIONS.has(key) && row.path ? (
                        <Button small minimal icon="search-template" text={t('候选')} data-testid="candidate-item" title={t('在候选歌曲中挑选，编辑这个文件的标签')} onClick={() => setCandidateRow(row)} />
                      ) : null}
                      {EDITABLE.has(key) && row.path ? (
                        <Link href={`/?path=${encodeURIComponent(folderOf(row.path))}`} className="ts-report-edit" data-testid="edit-in-folder" title={t('在文件夹中打开，编辑这个文件的标签')}>
                          {key === 'mode_success' ? t('复核') : t('编辑')}
                        </Link>
                      ) : null}
                      {MISSING.has(key) && actions.finish ? <Button small minimal icon="tick" text={t('完成')} data-testid="finish-item" onClick={() => actions.finish!(row)} /> : null}
                      {key === 'fail' && actions.remove ? <Button small minimal intent="danger" icon="trash" text={t('删除')} data-testid="delete-item" onClick={() => actions.remove!(row)} /> : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
        <SectionPager page={page} pages={pages} onPage={setPage} />
      </SectionCard>
      <CandidateDrawers row={candidateRow} onClose={() => setCandidateRow(null)} onFinish={FINISHABLE_SECTIONS.has(key) ? actions.finish : undefined} />
    </Section>
  );
}

/** A report section's pager (previous / next, "第 n / m 页"); nothing when everything fits on one page. */
export function SectionPager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const t = useT();
  if (pages <= 1) return null;
  return (
    <div className="ts-report-pager" data-testid="section-pager">
      <ButtonGroup>
        <Button small icon="chevron-left" aria-label={t('上一页')} disabled={page <= 1} onClick={() => onPage(page - 1)} />
        <Button small icon="chevron-right" aria-label={t('下一页')} disabled={page >= pages} onClick={() => onPage(page + 1)} />
      </ButtonGroup>
      <span className="ts-small" data-testid="section-page-label">
        {t('第 {page} / {pages} 页', { page, pages })}
      </span>
    </div>
  );
}
