import { Spinner } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';

/**
 * The end of an infinite list: the sentinel the list loads more at, a spinner while a batch loads, and
 * 没有更多了 / the empty text once the last batch came.
 */
export function ListFooter({ sentinelRef, loading, done, empty, emptyText }: { sentinelRef: (el: HTMLElement | null) => void; loading: boolean; done: boolean; empty: boolean; emptyText: string }) {
  const t = useT();
  return (
    <div className="ts-list-end" ref={sentinelRef} data-testid="list-end" data-done={done ? 'true' : 'false'}>
      {loading ? <Spinner size={24} /> : done ? (empty ? t(emptyText) : t('没有更多了')) : null}
    </div>
  );
}
