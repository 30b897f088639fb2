import { Tag } from '../../../components/ui/display.tsx';
import { useFormatDateTime } from '../../../lib/dates.ts';
import { useLang, useT } from '../../../lib/i18n.ts';
import { serverMessage } from '../../../lib/server-messages.ts';
import type { PluginHealth, PluginItem } from '../api/types.ts';
import { failureRate, formatLatency, healthState } from '../lib/health.ts';

/**
 * The verdict at a glance: red when the latest call failed or the workers stopped the plugin, green when the
 * latest call worked, nothing before the first call. The tag carries the error's text, so a broken source
 * says why without opening it.
 */
export function HealthTag({ item }: { item: Pick<PluginItem, 'enabled' | 'disabled_reason' | 'health'> }) {
  const t = useT();
  const lang = useLang((s) => s.lang);
  const state = healthState(item);
  const error = item.health.last_error;
  if (state === 'unused') return null;
  if (state === 'ok') {
    return (
      <Tag minimal intent="success" icon="tick-circle" data-health="ok">
        {t('正常')}
      </Tag>
    );
  }
  const said = error ? serverMessage(error.code, error.message, lang) : '';
  return (
    <Tag intent="danger" icon="error" data-health={state} title={error ? `${error.code}: ${error.message}` : undefined} className="ts-plugin-broken">
      {state === 'auto-disabled' ? t('连续失败，已自动停用') : t('故障')}
      {said ? `${lang === 'en' ? ': ' : '：'}${said}` : ''}
    </Tag>
  );
}

/** Calls, failures, median latency and the last success, on one line. */
export function HealthFigures({ health }: { health: PluginHealth }) {
  const t = useT();
  const date = useFormatDateTime();
  const rate = failureRate(health);
  return (
    <span className="ts-plugin-figures ts-small ts-muted" data-testid="plugin-health">
      <span>{t('调用 {n} 次', { n: health.calls })}</span>
      <span className={health.failures > 0 ? 'ts-plugin-failures' : undefined}>
        {t('失败 {n} 次', { n: health.failures })}
        {rate !== null && health.failures > 0 ? ` (${rate}%)` : ''}
      </span>
      <span>p50 {formatLatency(health.p50_ms)}</span>
      <span>{t('最近成功')}: {health.last_success_at ? date(health.last_success_at) : '—'}</span>
    </span>
  );
}

/**
 * The last error in full: when, the text for its code, and the source's own words (the HTTP status, the field
 * whose shape changed), which say what to fix.
 */
export function LastError({ health }: { health: PluginHealth }) {
  const t = useT();
  const date = useFormatDateTime();
  const lang = useLang((s) => s.lang);
  const error = health.last_error;
  if (!error) return null;
  const said = serverMessage(error.code, error.message, lang);
  return (
    <div className="ts-plugin-error" data-testid="plugin-last-error" data-code={error.code}>
      <strong>{t('最近错误')}</strong> <span className="ts-small">{date(error.at)}</span>
      <div>{said}</div>
      {said !== error.message ? <code className="ts-small ts-break">{error.message}</code> : null}
    </div>
  );
}

/** The list's version of the last error: when, and the source's own words, on one line. */
export function LastErrorLine({ health }: { health: PluginHealth }) {
  const t = useT();
  const date = useFormatDateTime();
  const error = health.last_error;
  if (!error) return null;
  return (
    <div className="ts-plugin-error-line ts-small" data-testid="plugin-last-error" data-code={error.code}>
      {t('最近错误')} {date(error.at)}: <code>{error.message}</code>
    </div>
  );
}
