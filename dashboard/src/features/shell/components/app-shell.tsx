import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { Drawer } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import { loadSetting } from '../../../lib/local-settings.ts';
import { useSession } from '../../../stores/session-store.ts';
import { PlayerBar } from '../../player/components/player-bar.tsx';
import { activeTab, sidebarFor, tabsFor } from '../lib/nav.ts';
import { useShell } from '../stores/shell-store.ts';
import { AppHeader } from './app-header.tsx';
import { SideNav } from './side-nav.tsx';
import { ThemeDrawer } from './theme-drawer.tsx';

/**
 * The menu around every page but login: header, side navigation (docked beside library pages on wide
 * screens, a drawer otherwise and on small screens), the theme drawer. The page is keyed by the
 * title's refresh counter, so clicking the title remounts it with fresh data.
 */
export function AppShell({ children, onOpenActivation, onLogout }: { children: ReactNode; onOpenActivation: () => void; onLogout: () => void }) {
  const t = useT();
  const [location] = useLocation();
  const user = useSession((s) => s.user);
  const { sideNavOpen, setSideNav, viewKey } = useShell();
  const library = sidebarFor(user?.role, loadSetting('mi_play_in_pl', user?.sys_dict.mi_play_in_pl ?? 0));
  const docked = library.length > 0 && activeTab(location) === 'library';
  const close = () => setSideNav(false);

  return (
    <div className={`ts-shell${docked ? ' ts-with-sidenav' : ''}`}>
      <AppHeader onOpenActivation={onOpenActivation} onLogout={onLogout} />
      <div className="ts-body">
        {docked ? (
          <aside className="ts-sidenav-docked">
            <SideNav title="音乐库" entries={library} />
          </aside>
        ) : null}
        <main className="ts-main" key={viewKey}>
          {children}
        </main>
      </div>
      <PlayerBar />
      <Drawer isOpen={sideNavOpen} onClose={close} position="left" size="min(280px, 86vw)" title="Tagsonic" icon="music">
        <div className="ts-drawer-body">
          <SideNav title="导航" entries={tabsFor(user?.role)} onNavigate={close} />
          <SideNav title="音乐库" entries={library} onNavigate={close} />
          {library.length === 0 ? <p className="ts-muted ts-pad">{t('音乐库侧栏需要 V2 版本。')}</p> : null}
        </div>
      </Drawer>
      <ThemeDrawer />
    </div>
  );
}
