import { Link, useLocation } from 'wouter';
import { Icon, type IconName } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import type { NavEntry } from '../lib/nav.ts';

/** A vertical list of navigation entries; used docked on wide library pages and inside the drawer. */
export function SideNav({ title, entries, onNavigate }: { title?: string; entries: NavEntry[]; onNavigate?: () => void }) {
  const t = useT();
  const [location] = useLocation();
  if (entries.length === 0) return null;
  return (
    <nav className="ts-sidenav" aria-label={title ? t(title) : undefined}>
      {title ? <div className="ts-sidenav-title">{t(title)}</div> : null}
      {entries.map((e) => {
        const active = location === e.path || (e.path !== '/' && location.startsWith(e.path.replace(/\/$/, '')));
        return (
          <Link key={e.key} href={e.path} className={`ts-sidenav-item${active ? ' ts-active' : ''}`} onClick={onNavigate} data-nav={e.key}>
            <Icon icon={e.icon as IconName} />
            <span>{t(e.label)}</span>
          </Link>
        );
      })}
    </nav>
  );
}
