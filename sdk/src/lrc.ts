/**
 * LRC normalisation (in the SDK so plugins and the host share one set of rules — a plugin can import only the
 * SDK): sources write timestamps as [m:ss], [mm:ss.xxx], [mm:ss:xx], several per line, with
 * an [offset:] tag and CRLF line ends; players and our editor want one form, `[mm:ss.xx]`, one stamp per
 * line, in time order, with the offset already applied.
 */

/** One timestamp: minutes, seconds, then an optional fraction after `.` or `:` (1–3 digits). */
const STAMP = /^\[\s*(\d{1,3})\s*:\s*(\d{1,2})(?:\s*[.:]\s*(\d{1,3}))?\s*\]/;
/** LRC's `[offset:±ms]`: a positive offset makes the lyrics come sooner. */
const OFFSET = /^\[offset:\s*([+-]?\d+)\s*\]$/i;

/** A timed line, and the untimed lines that followed it (they move with it when lines are sorted). */
interface Timed {
  ms: number;
  text: string;
  after: string[];
}

/**
 * Text in the LRC form we store. Timestamps become `[mm:ss.xx]` (rounded to the centisecond, minutes
 * past 99 keep their digits); a line with several stamps becomes one line per stamp; timed lines are
 * sorted by time, stably (a translation under the same stamp stays under its original); an `[offset:]`
 * tag is applied to every stamp and removed; CRLF and CR become LF; a leading BOM goes. Lines before the
 * first timestamp (the [ti:] [ar:] header) stay first; any other untimed line stays after the timed line
 * it followed. Lyrics without a single timestamp come back with only the line ends changed.
 */
export function normaliseLrc(text: string): string {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  let offset = 0;
  const head: string[] = [];
  const timed: Timed[] = [];
  for (const raw of lines) {
    const line = raw.trimEnd();
    const offsetTag = OFFSET.exec(line.trim());
    if (offsetTag) {
      offset = Number(offsetTag[1]);
      continue;
    }
    const stamps: number[] = [];
    let rest = line.trimStart();
    for (let m = STAMP.exec(rest); m; m = STAMP.exec(rest)) {
      stamps.push(toMs(m[1]!, m[2]!, m[3]));
      rest = rest.slice(m[0].length);
    }
    if (stamps.length === 0) {
      if (timed.length === 0) head.push(line);
      else timed[timed.length - 1]!.after.push(line);
      continue;
    }
    for (const ms of stamps) timed.push({ ms, text: rest, after: [] });
  }
  if (timed.length === 0) return head.join('\n');
  // Array.prototype.sort is stable: equal stamps keep their order.
  timed.sort((a, b) => a.ms - b.ms);
  const out = [...head];
  for (const t of timed) out.push(formatStamp(Math.max(0, t.ms - offset)) + t.text, ...t.after);
  return out.join('\n');
}

/** A stamp's parts in milliseconds; the fraction's digits are its own precision (".5" is 500 ms, ":05" 50). */
function toMs(min: string, sec: string, fraction: string | undefined): number {
  const frac = fraction ? Number(fraction) * 10 ** (3 - fraction.length) : 0;
  return (Number(min) * 60 + Number(sec)) * 1000 + frac;
}

/** `[mm:ss.xx]` for a time in milliseconds, rounded to the nearest centisecond. */
export function formatStamp(ms: number): string {
  const cs = Math.round(ms / 10);
  const min = Math.floor(cs / 6000);
  const sec = Math.floor((cs % 6000) / 100);
  return `[${String(min).padStart(2, '0')}:${String(sec).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}]`;
}

/** The lyric lines without their timestamps (header tags dropped), for reading credits and plain text. */
export function lyricLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n?|\n/)) {
    let rest = raw.trim();
    let stamped = false;
    for (let m = STAMP.exec(rest); m; m = STAMP.exec(rest)) {
      rest = rest.slice(m[0].length).trimStart();
      stamped = true;
    }
    if (!stamped && /^\[[a-z#]+:.*\]$/i.test(rest)) continue;
    out.push(rest.trimEnd());
  }
  return out;
}
