/**
 * Dates and times as the interface language writes them: zh-CN `2026-11-24 23:36` (the spec's form),
 * English `24 Nov 2026, 23:36`. Both in the browser's time zone, 24-hour, to the minute.
 */
import { useLang, type Lang } from './i18n.ts';

const pad = (n: number) => String(n).padStart(2, '0');
const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `value` is an ISO string, a Date or ms since the epoch; an unreadable one is shown as given. */
export function formatDateTime(value: string | number | Date, lang: Lang = useLang.getState().lang): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (lang === 'en') return `${d.getDate()} ${EN_MONTHS[d.getMonth()]} ${d.getFullYear()}, ${time}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

/** A formatter bound to the current language; the component re-renders when it changes. */
export function useFormatDateTime(): (value: string | number | Date) => string {
  const lang = useLang((s) => s.lang);
  return (value) => formatDateTime(value, lang);
}
