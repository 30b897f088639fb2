import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { NonIdealState } from '../../../components/ui/display.tsx';
import { Popover } from '../../../components/ui/menu.tsx';
import { useFormatDateTime } from '../../../lib/dates.ts';
import { useLang, useT } from '../../../lib/i18n.ts';
import { getFailedRecords, type FailedRecord } from '../api/get-failed-records.ts';
import { markRecordsRead } from '../api/mark-records-read.ts';
import { recordText } from '../lib/record-text.ts';

const POLL_MS = 60_000;

/** The bell: failed-task records (title, content, update time, in the interface language); opening it posts the list and the unread count drops to 0 (§4). */
export function NotificationBell() {
  const t = useT();
  const lang = useLang((s) => s.lang);
  const date = useFormatDateTime();
  const [items, setItems] = useState<FailedRecord[]>([]);
  const [unread, setUnread] = useState(0);

  const load = useCallback(async () => {
    try {
      const r = await getFailedRecords();
      setItems(r.items);
      setUnread(r.unread_count);
    } catch {
      // The bell stays quiet when records cannot be read; the next poll tries again.
    }
  }, []);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [load]);

  async function opened() {
    await load();
    try {
      setUnread(await markRecordsRead(items));
    } catch {
      // Left unread; nothing else depends on it.
    }
  }

  const list = (
    <div className="ts-bell-list">
      <div className="ts-bell-head">{t('失败任务通知')}</div>
      {items.length === 0 ? (
        <NonIdealState className="ts-bell-empty" icon="notifications" description={t('暂无通知')} />
      ) : (
        <ul>
          {items.map((r) => {
            const text = recordText(r, lang);
            return (
              <li key={r.id} className={r.read ? '' : 'ts-unread'}>
                <div className="ts-bell-title">{text.title}</div>
                <div className="ts-bell-content">{text.content}</div>
                <time className="ts-muted" dateTime={r.update_at}>
                  {date(r.update_at)}
                </time>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );

  return (
    <Popover content={list} placement="bottom-end" onOpening={() => void opened()}>
      <span className="ts-bell">
        <Button variant="minimal" icon="notifications" aria-label={t('通知')} title={t('通知')} />
        {unread > 0 ? (
          <span className="ts-badge" data-testid="unread-count">
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </span>
    </Popover>
  );
}
