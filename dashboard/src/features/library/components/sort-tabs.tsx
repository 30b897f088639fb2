import { Link } from 'wouter';
import { useT } from '../../../lib/i18n.ts';
import './library.css';

export interface SortTab {
  /** The route's `:sort` value. */
  key: string;
  /** The spec's Chinese label (translated here). */
  label: string;
}

/**
 * The sort tabs of a library list. The sort lives in the route (`/albums/a-z/`), so a tab is a link:
 * reload, back and shared links keep it, and the page re-reads `:sort` from useParams().
 */
export function SortTabs({ base, tabs, active }: { base: string; tabs: readonly SortTab[]; active: string }) {
  const t = useT();
  return (
    <nav className="ts-sort-tabs" aria-label={t('排序')}>
      {tabs.map((tab) => (
        <Link key={tab.key} href={`${base}/${tab.key}/`} className={`ts-sort-tab${tab.key === active ? ' ts-active' : ''}`} aria-current={tab.key === active ? 'page' : undefined} data-sort={tab.key}>
          {t(tab.label)}
        </Link>
      ))}
    </nav>
  );
}
