/** The notice sink: shows lib/notify's notices as Blueprint toasts (title, content, duration, action). */
import { useEffect, useRef } from 'react';
import { OverlayToaster, Position } from '@blueprintjs/core';
import { setNoticeSink, type Notice } from '../../lib/notify.ts';

const INTENT = { success: 'success', warning: 'warning', danger: 'danger', primary: 'primary', none: 'none' } as const;

export function NoticeToaster() {
  const ref = useRef<OverlayToaster | null>(null);
  useEffect(() => {
    setNoticeSink((n: Notice) =>
      ref.current?.show({
        intent: INTENT[n.intent],
        timeout: n.timeout,
        message: (
          <div className="ts-notice" data-notice-title={n.title}>
            <strong className="ts-notice-title">{n.title}</strong>
            {n.content ? <div className="ts-notice-content">{n.content}</div> : null}
          </div>
        ),
        action: n.action ? { text: n.action.text, onClick: n.action.onClick } : undefined,
      }),
    );
    return () => setNoticeSink(undefined);
  }, []);
  // ts-toaster starts below the header (app.css), so notices never cover the tabs.
  return <OverlayToaster ref={ref} className="ts-toaster" position={Position.TOP} maxToasts={5} usePortal />;
}
