import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Callout } from '../../../components/ui/display.tsx';
import { FormGroup, NumericInput, TextArea } from '../../../components/ui/form.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.ts';
import { getRuntimeLog } from '../api/get-runtime-log.ts';
import type { RuntimeLog as RuntimeLogText } from '../api/types.ts';
import { POLL_DEFAULT_S, POLL_MAX_S, POLL_MIN_S, PROCESS_TABS, pollSeconds, type ProcessTab } from '../lib/runtime-log.ts';
import { FeedbackDialog } from './feedback-dialog.tsx';

/** Keeps a text area scrolled to its end whenever its text changes (the newest lines are what people read). */
function useScrollToEnd(text: string) {
  const ref = useRef<HTMLTextAreaElement | null>(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [text]);
  return ref;
}

/**
 * 运行日志: one tab per process; the run log and the error log, fetched every 1–60 s (default 5) while
 * polling is on (it is by default), each scrolled to its end after a fetch. A failed fetch stops the
 * polling and says why, instead of a notice every few seconds.
 */
export function RuntimeLog() {
  const t = useT();
  const [tab, setTab] = useState<ProcessTab>(PROCESS_TABS[0]);
  const [interval, setIntervalS] = useState(POLL_DEFAULT_S);
  const [polling, setPolling] = useState(true);
  const [logs, setLogs] = useState<RuntimeLogText>({ log: '', fail_log: '' });
  const [error, setError] = useState<string | null>(null);
  const [fetches, setFetches] = useState(0);
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const runRef = useScrollToEnd(logs.log);
  const failRef = useScrollToEnd(logs.fail_log);

  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const fetchOnce = async () => {
      try {
        const next = await getRuntimeLog(tab, abort.signal);
        if (abort.signal.aborted) return;
        setLogs({ log: next?.log ?? '', fail_log: next?.fail_log ?? '' });
        setError(null);
        setFetches((n) => n + 1);
        if (polling) timer = setTimeout(() => void fetchOnce(), interval * 1000);
      } catch (e) {
        if (abort.signal.aborted) return;
        setError(isApiError(e) && e.details.status === 404 ? t('服务器没有提供运行日志（接口不存在）。') : e instanceof Error ? e.message : String(e));
        setPolling(false);
      }
    };
    void fetchOnce();
    return () => {
      abort.abort();
      if (timer) clearTimeout(timer);
    };
  }, [tab, polling, interval]);

  return (
    <div className="ts-runtime-log" data-testid="runtime-log" data-fetches={fetches} data-polling={polling}>
      <div className="ts-log-filters" role="tablist" aria-label={t('进程')}>
        {PROCESS_TABS.map((p) => (
          <Button key={p} role="tab" aria-selected={p === tab} data-process={p} small minimal={p !== tab} intent={p === tab ? 'primary' : 'none'} text={p} onClick={() => setTab(p)} />
        ))}
      </div>
      <div className="ts-runtime-controls">
        <FormGroup label={t('刷新间隔（秒）')} labelFor="ts-runtime-interval" inline className="ts-runtime-interval">
          <NumericInput
            id="ts-runtime-interval"
            min={POLL_MIN_S}
            max={POLL_MAX_S}
            stepSize={1}
            minorStepSize={null}
            clampValueOnBlur
            value={interval}
            onValueChange={(n) => Number.isFinite(n) && setIntervalS(pollSeconds(n))}
          />
        </FormGroup>
        <Button
          icon={polling ? 'pause' : 'play'}
          intent={polling ? 'none' : 'primary'}
          text={polling ? t('停止刷新') : t('开始刷新')}
          data-testid="runtime-toggle"
          onClick={() => setPolling((p) => !p)}
        />
        <span className="ts-flex-grow" />
        <Button icon="comment" text={t('反馈日志')} data-testid="feedback-open" onClick={() => setFeedbackOpen(true)} />
      </div>
      {error ? (
        <Callout intent="warning" icon="warning-sign" className="ts-runtime-error" data-testid="runtime-error">
          {error}
        </Callout>
      ) : null}
      <div className="ts-runtime-areas">
        <FormGroup label={t('运行日志')} labelFor="ts-runtime-run">
          <TextArea id="ts-runtime-run" inputRef={runRef} readOnly fill className="ts-mono ts-runtime-text" value={logs.log} data-testid="runtime-run" />
        </FormGroup>
        <FormGroup label={t('错误日志')} labelFor="ts-runtime-fail">
          <TextArea id="ts-runtime-fail" inputRef={failRef} readOnly fill className="ts-mono ts-runtime-text" value={logs.fail_log} data-testid="runtime-fail" />
        </FormGroup>
      </div>
      <FeedbackDialog isOpen={feedbackOpen} onClose={() => setFeedbackOpen(false)} />
    </div>
  );
}
