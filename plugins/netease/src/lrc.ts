/**
 * NetEase lyrics to the LRC form Tagsonic stores: `[mm:ss.xx]`, one stamp per line, in time order. NetEase writes
 * `[mm:ss.xxx]` (milliseconds), sometimes `[mm:ss]` or `[mm:ss:xx]`, and opens many lyrics with credit lines that
 * are JSON objects instead of LRC (`{"t":0,"c":[{"tx":"作词: "},{"tx":"林夕"}]}`); those become ordinary timed
 * lines (`[00:00.00]作词: 林夕`) so the credits can be read like any other lyric line. The sandbox has no access
 * to core/src/lyrics, so this is the plugin's own small copy of the same rules.
 */

/** One timestamp at the start of a line: minutes, seconds, an optional 1–3 digit fraction after `.` or `:`. */
const STAMP = /^\[\s*(\d{1,3})\s*:\s*(\d{1,2})(?:\s*[.:]\s*(\d{1,3}))?\s*\]/;

/** `[mm:ss.xx]` for a time in milliseconds, rounded to the centisecond. */
export function stamp(ms: number): string {
  const cs = Math.round(Math.max(0, ms) / 10);
  const two = (n: number) => String(n).padStart(2, '0');
  return `[${two(Math.floor(cs / 6000))}:${two(Math.floor((cs % 6000) / 100))}.${two(cs % 100)}]`;
}

/** A NetEase JSON credit line (`{"t":ms,"c":[{"tx":…}]}`) as a timed LRC line, or null when it is not one. */
function creditLine(line: string): string | null {
  if (!line.startsWith('{')) return null;
  try {
    const value = JSON.parse(line) as { t?: unknown; c?: unknown };
    if (typeof value.t !== 'number' || !Array.isArray(value.c)) return null;
    const text = value.c.map((part) => (typeof part === 'object' && part !== null && typeof (part as { tx?: unknown }).tx === 'string' ? (part as { tx: string }).tx : '')).join('');
    return `${stamp(value.t)}${text}`;
  } catch {
    return null;
  }
}

/**
 * The lyric with every stamp as `[mm:ss.xx]`: a line with several stamps becomes one line per stamp, timed lines
 * are sorted by time (stably), untimed lines before the first stamp (`[ti:]`, `[by:]`) stay first, other untimed
 * lines stay after the line they followed, blank untimed lines go, and CRLF becomes LF. Text without a single
 * stamp is returned trimmed.
 */
export function normaliseLrc(text: string): string {
  const head: string[] = [];
  const timed: { ms: number; text: string; after: string[] }[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n')) {
    const line = (creditLine(raw.trim()) ?? raw).trimEnd();
    const stamps: number[] = [];
    let rest = line.trimStart();
    for (let m = STAMP.exec(rest); m; m = STAMP.exec(rest)) {
      const fraction = m[3] ? Number(m[3]) * 10 ** (3 - m[3].length) : 0;
      stamps.push((Number(m[1]) * 60 + Number(m[2])) * 1000 + fraction);
      rest = rest.slice(m[0].length);
    }
    if (stamps.length === 0) {
      if (timed.length === 0) head.push(line);
      else if (line.trim()) timed[timed.length - 1]!.after.push(line);
      continue;
    }
    for (const ms of stamps) timed.push({ ms, text: rest, after: [] });
  }
  if (timed.length === 0) return head.join('\n').trim();
  timed.sort((a, b) => a.ms - b.ms);
  const out = head.filter((line) => line.trim() !== '');
  for (const t of timed) out.push(stamp(t.ms) + t.text, ...t.after);
  return out.join('\n');
}
