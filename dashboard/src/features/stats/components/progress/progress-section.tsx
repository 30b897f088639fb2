import { useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { Button } from '../../../../components/ui/button.tsx';
import { HTMLTable, Icon, NonIdealState, Spinner } from '../../../../components/ui/display.tsx';
import { HTMLSelect } from '../../../../components/ui/form.tsx';
import { useT } from '../../../../lib/i18n.ts';
import { useFilesStore } from '../../../files/stores/files-store.ts';
import { coverUrl } from '../../../library/lib/cover-url.ts';
import { getProgressRate } from '../../api/get-progress-rate.ts';
import type { MissingItem, MissKind } from '../../api/types.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { DEFAULT_PROGRESS_PAGE_SIZE, PROGRESS_PAGE_SIZES } from '../../lib/constants.ts';
import { fileNameOf, folderOf } from '../../lib/folder-of.ts';
import { resize, turnPage, type PagerState } from '../../lib/pager.ts';
import { KIND_LABELS } from './kind-labels.ts';

function Mark({ on }: { on: boolean }) {
  const t = useT();
  return <Icon icon={on ? 'tick' : 'cross'} intent={on ? 'success' : 'danger'} aria-label={t(on ? '有' : '无')} />;
}

/**
 * One /progress section (spec doc 2 §2 "Progress"): the tracks missing `kind`, a page at a time — previous,
 * 第 N 页, next, and 10/20/50 per page (a new size starts again at page 1; a page outside 1..pages is ignored).
 * The action opens the track in the file screen's editor (its folder listed, the file open).
 */
export function ProgressSection({ kind, total, actions, version }: { kind: MissKind; total: number | null; actions?: ReactNode; version: number }) {
  const t = useT();
  const [, navigate] = useLocation();
  const [pager, setPager] = useState<PagerState>({ page: 1, pageSize: DEFAULT_PROGRESS_PAGE_SIZE });
  const rows = useLoad((signal) => getProgressRate({ mode: kind, page: pager.page, pageSize: pager.pageSize }, signal), [kind, pager.page, pager.pageSize, version]);
  const pages = Math.max(1, rows.data?.total_page ?? 1);
  const items = rows.data?.items ?? [];

  const openInEditor = (item: MissingItem) => {
    const files = useFilesStore.getState();
    const name = fileNameOf(item.path);
    files.setOpenFile({ id: item.path, name, title: name, icon: 'icon-music', state: null, children: [], selected: false, is_dir: false, full_path: item.path, size: 0, update_time: '' });
    navigate(`/?path=${encodeURIComponent(folderOf(item.path))}`);
  };

  return (
    <section className="ts-stats-panel" id={`progress-${kind}`} data-progress-section={kind} data-page={pager.page} data-page-size={pager.pageSize}>
      <div className="ts-stats-panel-head">
        <h3>
          {t(KIND_LABELS[kind].section)} <span className="ts-muted">({total ?? rows.data?.count ?? 0})</span>
        </h3>
        <div className="ts-progress-actions">{actions}</div>
      </div>
      <div className="ts-progress-table-wrap">
        <HTMLTable compact striped className="ts-progress-table">
          <thead>
            <tr>
              <th>#</th>
              <th>{t('标题')}</th>
              <th>{t('艺术家|字段')}</th>
              <th>{t('专辑|字段')}</th>
              <th>{t('年份')}</th>
              <th>{t('流派|字段')}</th>
              <th>{t('歌词')}</th>
              <th>{t('封面')}</th>
              <th>{t('操作')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item, i) => (
              <tr key={item.id} data-item={item.id}>
                <td className="ts-muted">{(pager.page - 1) * pager.pageSize + i + 1}</td>
                <td className="ts-progress-title">
                  <span className="ts-stats-ellipsis" title={item.path}>
                    {item.name || fileNameOf(item.path)}
                  </span>
                </td>
                <td>{item.artist_name}</td>
                <td>{item.album_name}</td>
                <td>{item.year ?? ''}</td>
                <td>{item.genre ?? ''}</td>
                <td>
                  <Mark on={item.lyrics === true} />
                </td>
                <td>{item.album_cover ? <img className="ts-progress-cover" src={coverUrl(item.album_cover, 60)} alt={t('有')} loading="lazy" /> : <Mark on={false} />}</td>
                <td>
                  <Button size="small" variant="minimal" icon="edit" text={t('编辑')} onClick={() => openInEditor(item)} data-action="edit" />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        {!items.length ? <NonIdealState icon={rows.loading ? <Spinner size={24} /> : 'tick-circle'} description={rows.loading ? undefined : t(rows.failed ? '加载失败' : '没有缺失的歌曲')} /> : null}
      </div>
      <div className="ts-progress-pager" data-testid={`pager-${kind}`}>
        <Button size="small" icon="chevron-left" text={t('上一页')} disabled={pager.page <= 1} onClick={() => setPager((p) => turnPage(p, p.page - 1, pages))} data-pager="previous" />
        <span data-pager="page">{t('第 {n} 页', { n: pager.page })}</span>
        <span className="ts-muted">/ {pages}</span>
        <Button size="small" endIcon="chevron-right" text={t('下一页')} disabled={pager.page >= pages} onClick={() => setPager((p) => turnPage(p, p.page + 1, pages))} data-pager="next" />
        <HTMLSelect
          value={pager.pageSize}
          aria-label={t('每页条数')}
          onChange={(e) => setPager((p) => resize(p, Number(e.currentTarget.value)))}
          options={PROGRESS_PAGE_SIZES.map((n) => ({ value: n, label: t('{n} 条/页', { n }) }))}
          data-pager="size"
        />
      </div>
    </section>
  );
}
