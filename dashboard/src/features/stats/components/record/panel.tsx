import type { ReactNode } from 'react';
import { NonIdealState, Spinner } from '../../../../components/ui/display.tsx';
import { useT } from '../../../../lib/i18n.ts';
import type { Loaded } from '../../hooks/use-load.ts';

/**
 * A /record panel: its title, then the content once its data is there; a spinner on the first load, the last data
 * (dimmed) while a new period loads, an empty state when there is nothing (or the call failed, already announced).
 */
export function RecordPanel<T>({ title, loaded, empty, testId, wide, children }: { title: string; loaded: Loaded<T>; empty: (data: T) => boolean; testId: string; wide?: boolean; children: (data: T) => ReactNode }) {
  const t = useT();
  const data = loaded.data;
  let body: ReactNode;
  if (data === null) body = loaded.loading ? <NonIdealState icon={<Spinner size={30} />} /> : <NonIdealState icon="error" description={t('加载失败')} />;
  else if (empty(data)) body = <NonIdealState icon="headset" description={t('这段时间还没有听歌记录')} />;
  else body = children(data);
  return (
    <section className={`ts-stats-panel${wide ? ' ts-stats-wide' : ''}`} data-testid={testId} data-loading={loaded.loading || undefined} style={loaded.loading && data ? { opacity: 0.6 } : undefined}>
      <div className="ts-stats-panel-head">
        <h3>{t(title)}</h3>
      </div>
      {body}
    </section>
  );
}
