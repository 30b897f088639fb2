import { useEffect, useState } from 'react';
import { Button, ButtonGroup } from '../../../components/ui/button.tsx';
import { NonIdealState, Spinner } from '../../../components/ui/display.tsx';
import { InputGroup } from '../../../components/ui/form.tsx';
import { SEARCH_DEBOUNCE_MS } from '../../../lib/constants.ts';
import { useT } from '../../../lib/i18n.ts';
import { useRefreshTick } from '../../../lib/use-refresh-tick.ts';
import { listPlugins } from '../api/list-plugins.ts';
import type { PluginItem, PluginKind, PluginPage } from '../api/types.ts';
import { PluginRow } from './plugin-row.tsx';

/** How often the installed list reads its page again while shown (the plugins' health). */
const HEALTH_REFRESH_MS = 10_000;

/**
 * The 已安装 tab: one kind's installed plugins, 20 a page, searched by id, name or description. `reloadKey`
 * changes when something elsewhere (an upload, the details drawer) changed a plugin. The page is read again every
 * HEALTH_REFRESH_MS while shown, so each plugin's calls, failures, last success and last error stay current (a
 * source that starts failing, or gets disabled after repeated failures, shows without a reload).
 */
export function InstalledList({ kind, isAdmin, reloadKey, onOpen }: { kind: PluginKind; isAdmin: boolean; reloadKey: number; onOpen: (id: string) => void }) {
  const t = useT();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<PluginPage | null>(null);
  const [failed, setFailed] = useState(false);
  const [retry, setRetry] = useState(0);
  const refresh = useRefreshTick(HEALTH_REFRESH_MS);

  useEffect(() => {
    // Only a new search goes back to page 1: without this check the debounce also fired once after mounting
    // and sent a user who had already turned the page back to page 1.
    const next = typed.trim();
    if (next === search) return;
    const timer = setTimeout(() => {
      setSearch(next);
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed, search]);

  useEffect(() => {
    const abort = new AbortController();
    setFailed(false);
    listPlugins(kind, { page, search }, abort.signal).then(
      (p) => {
        // A page emptied by a removal falls back to the last one that has plugins.
        if (p.items.length === 0 && p.page > 1 && p.total > 0) setPage(Math.max(1, p.total_page));
        else setData(p);
      },
      () => !abort.signal.aborted && setFailed(true),
    );
    return () => abort.abort();
  }, [kind, page, search, reloadKey, retry, refresh]);

  const replace = (next: PluginItem) => setData((d) => (d ? { ...d, items: d.items.map((i) => (i.id === next.id ? next : i)) } : d));

  return (
    <div className="ts-plugin-list" data-testid="plugin-list" data-loading={data === null ? '' : undefined}>
      <div className="ts-plugin-toolbar">
        <InputGroup
          type="search"
          leftIcon="search"
          className="ts-plugin-search"
          placeholder={t('搜索名称、ID 或描述')}
          aria-label={t('搜索插件')}
          value={typed}
          onValueChange={setTyped}
        />
        {data ? <span className="ts-muted ts-small" data-testid="plugin-total">{t('共 {n} 个插件', { n: data.total })}</span> : null}
      </div>
      {failed && data === null ? (
        <NonIdealState icon="error" title={t('查询失败！')} action={<Button icon="refresh" text={t('重试')} onClick={() => setRetry((n) => n + 1)} />} />
      ) : data === null ? (
        <Spinner />
      ) : data.items.length === 0 ? (
        <NonIdealState icon="cube" title={search ? t('没有匹配的插件') : t('还没有安装插件')} description={search ? undefined : t('在“插件市场”中上传自定义插件。')} />
      ) : (
        <div className="ts-plugin-rows">
          {data.items.map((item) => (
            <PluginRow key={item.id} item={item} isAdmin={isAdmin} onOpen={() => onOpen(item.id)} onChanged={replace} />
          ))}
        </div>
      )}
      {data && data.total_page > 1 ? (
        <div className="ts-plugin-pager" data-testid="plugin-pager">
          <ButtonGroup>
            <Button icon="chevron-left" aria-label={t('上一页')} disabled={page <= 1} onClick={() => setPage(page - 1)} />
            <Button icon="chevron-right" aria-label={t('下一页')} disabled={page >= data.total_page} onClick={() => setPage(page + 1)} />
          </ButtonGroup>
          <span className="ts-small">{t('第 {page} / {pages} 页', { page: data.page, pages: data.total_page })}</span>
        </div>
      ) : null}
    </div>
  );
}
