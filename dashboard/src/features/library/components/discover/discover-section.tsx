import type { ReactNode } from 'react';
import { useT } from '../../../../lib/i18n.ts';

/** One titled block of the discover page; an empty one says so instead of leaving a gap. */
export function DiscoverSection({ title, testId, empty, action, children, className }: { title: string; testId: string; empty: boolean; action?: ReactNode; children: ReactNode; className?: string }) {
  const t = useT();
  return (
    <section className={`ts-discover-section${className ? ` ${className}` : ''}`} data-testid={testId} data-empty={empty ? 'true' : undefined}>
      <header className="ts-discover-section-head">
        <h3>{t(title)}</h3>
        {action}
      </header>
      {empty ? <p className="ts-muted ts-discover-empty">{t('暂无数据')}</p> : children}
    </section>
  );
}
