import { useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { Icon, Tab, Tabs } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { useSession } from '../../../stores/session-store.ts';
import type { PluginItem, PluginKind } from '../api/types.ts';
import { InstalledList } from './installed-list.tsx';
import { PluginDrawer } from './plugin-drawer.tsx';
import { UploadPanel } from './upload-panel.tsx';
import './plugins.css';

/** The two plugin screens of spec §2: /mod lists tag sources, /actionMod batch actions. */
const SCREENS: { kind: PluginKind; path: string; label: string; icon: 'search-template' | 'layers' }[] = [
  { kind: 'tag-source', path: '/mod', label: '标签数据源', icon: 'search-template' },
  { kind: 'batch-action', path: '/actionMod', label: '批量操作插件', icon: 'layers' },
];

/**
 * /mod and /actionMod: a side menu switching the two lists, tabs 已安装 (installed) and 插件市场 (upload a custom
 * plugin), and the details drawer, opened by `?plugin=<id>` so a plugin can be linked to and an upload of the
 * other kind lands on its own screen.
 */
export function PluginsPage({ kind }: { kind: PluginKind }) {
  const t = useT();
  const isAdmin = useSession((s) => s.user?.is_admin === true);
  const [location, navigate] = useLocation();
  const open = new URLSearchParams(useSearch()).get('plugin');
  const [tab, setTab] = useState<'installed' | 'market'>('installed');
  const [reloadKey, setReloadKey] = useState(0);
  const screen = SCREENS.find((s) => s.kind === kind)!;
  const reload = () => setReloadKey((k) => k + 1);
  const openPlugin = (id: string | null, path = location) => navigate(id ? `${path}?plugin=${encodeURIComponent(id)}` : path);

  const uploaded = (item: PluginItem) => {
    setTab('installed');
    reload();
    openPlugin(item.id, SCREENS.find((s) => s.kind === item.kind)?.path ?? location);
  };

  return (
    <div className="ts-plugins" data-testid="plugins-page" data-kind={kind}>
      <nav className="ts-plugins-menu" aria-label={t('插件管理')}>
        {SCREENS.map((s) => (
          <Link key={s.kind} href={s.path} className={`ts-plugins-menu-item${s.kind === kind ? ' ts-active' : ''}`} data-nav={s.kind}>
            <Icon icon={s.icon} />
            <span>{t(s.label)}</span>
          </Link>
        ))}
      </nav>
      <section className="ts-plugins-main">
        <div className="ts-page-head">
          <h2>{t(screen.label)}</h2>
        </div>
        <Tabs id="ts-plugin-tabs" selectedTabId={tab} onChange={(id) => setTab(id === 'market' ? 'market' : 'installed')} large>
          <Tab id="installed" title={t('已安装')} panel={<InstalledList kind={kind} isAdmin={isAdmin} reloadKey={reloadKey} onOpen={(id) => openPlugin(id)} />} />
          <Tab id="market" title={t('插件市场')} panel={<UploadPanel isAdmin={isAdmin} onUploaded={uploaded} />} />
        </Tabs>
      </section>
      <PluginDrawer id={open} isAdmin={isAdmin} onClose={() => openPlugin(null)} onChanged={reload} />
    </div>
  );
}
