/**
 * NetEase lyrics to the LRC form Tagsonic stores: `[mm:ss.xx]`, one stamp per line, in time order. NetEase writes
 * `[mm:ss.xxx]` (milliseconds), sometimes `[mm:ss]` or `[mm:ss:xx]`, and opens many lyrics with credit lines that
 * are JSON objects instead of LRC (`{"t":0,"c":[{"tx":"作词: "},{"tx":"林夕"}]}`); those become ordinary timed
 * lines (`[00:00.00]作词: 林夕`) so the credits can be read like any other lyric line; the stamps then follow the
 * SDK's rules.
 */
import { formatStamp, normaliseLrc as normaliseStamps } from '@tagsonic/sdk';

/** A NetEase JSON credit line (`{"t":ms,"c":[{"tx":…}]}`) as a timed LRC line, or null when it is not one. */
function creditLine(line: string): string | null {
  if (!line.startsWith('{')) return null;
  try {
    const value = JSON.parse(line) as { t?: unknown; c?: unknown };
    if (typeof value.t !== 'number' || !Array.isArray(value.c)) return null;
    const text = value.c.map((part) => (typeof part === 'object' && part !== null && typeof (part as { tx?: unknown }).tx === 'string' ? (part as { tx: string }).tx : '')).join('');
    return `${formatStamp(Math.max(0, value.t))}${text}`;
  } catch {
    return null;
  }
}

/**
 * The lyric in the SDK's LRC form (`normaliseLrc`: every stamp `[mm:ss.xx]`, one per line, in time order), after
 * NetEase's own parts: JSON credit lines become timed lines and blank lines go. Text without a single stamp is
 * returned trimmed.
 */
export function normaliseLrc(text: string): string {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((raw) => (creditLine(raw.trim()) ?? raw).trimEnd())
    .filter((line) => line.trim() !== '');
  return normaliseStamps(lines.join('\n')).trim();
}
