import { Link, useLocation } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { Tag } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { useSession } from '../../../stores/session-store.ts';
import { activeTab, tabsFor } from '../lib/nav.ts';
import { useShell } from '../stores/shell-store.ts';
import { NotificationBell } from './notification-bell.tsx';
import { SearchPanel } from './search-panel.tsx';
import { UserMenu } from './user-menu.tsx';

/** Title (refreshes the view), role badge, role-filtered tabs, search (V2), theme, bell, user menu (§1). */
export function AppHeader({ onOpenActivation, onLogout }: { onOpenActivation: () => void; onLogout: () => void }) {
  const t = useT();
  const [location] = useLocation();
  const user = useSession((s) => s.user);
  const { searchOpen, toggleSearch, setThemeOpen, setSideNav, refreshView } = useShell();
  const role = user?.role;
  const current = activeTab(location);

  return (
    <header className="ts-header">
      <div className="ts-header-row">
        <Button className="ts-nav-toggle" variant="minimal" icon="menu" aria-label={t('导航')} onClick={() => setSideNav(true)} />
        <button type="button" className="ts-title" onClick={refreshView} title={t('刷新当前页面')}>
          <span className="ts-logo" aria-hidden="true">♪</span>
          <span className="ts-hide-small">Tagsonic</span>
        </button>
        <Tag
          interactive
          round
          intent={role === 'V2' ? 'success' : 'warning'}
          className="ts-role-badge"
          data-testid="role-badge"
          onClick={onOpenActivation}
          title={role === 'V1' ? t('激活 V2') : user?.is_forever ? t('永久激活') : t('V2 版本')}
        >
          {role ?? '…'}
        </Tag>
        <nav className="ts-tabs" aria-label={t('主导航')}>
          {tabsFor(role).map((tab) => (
            <Link key={tab.key} href={tab.path} className={`ts-tab${current === tab.key ? ' ts-active' : ''}`} data-tab={tab.key}>
              {t(tab.label)}
            </Link>
          ))}
        </nav>
        <div className="ts-header-tools">
          {role === 'V2' ? <Button variant="minimal" icon={searchOpen ? 'cross' : 'search'} aria-label={t('搜索')} title={t('搜索')} onClick={toggleSearch} /> : null}
          <Button variant="minimal" icon="contrast" aria-label={t('主题')} title={t('主题')} onClick={() => setThemeOpen(true)} data-testid="theme-toggle" />
          <NotificationBell />
          <UserMenu onOpenActivation={onOpenActivation} onLogout={onLogout} />
        </div>
      </div>
      {/* Unmounting clears the term when the panel is toggled (§4). */}
      {role === 'V2' && searchOpen ? <SearchPanel onClose={toggleSearch} /> : null}
    </header>
  );
}
