/**
 * LRC in the form the SDK promises (`[mm:ss.xx]`, one stamp per line, in time order, `[offset:]` applied).
 * Migu's LRC files mostly use `[mm:ss.xx]`, but some carry `[m:ss]`, `[mm:ss.xxx]`, several stamps
 * on one line and an offset tag. The host's own normaliser lives in core, which a plugin cannot import (it runs
 * in the sandbox with the SDK only), so this small one travels with the plugin.
 */

/** `[m:ss]`, `[mm:ss.x]`…`[mm:ss.xxx]`, `[mm:ss:xx]`. */
const STAMP = /^\[(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?\]/;
const OFFSET = /^\[offset:\s*([+-]?\d+)\s*\]$/i;

const stamp = (ms: number): string => {
  const cs = Math.round(Math.max(0, ms) / 10);
  const two = (n: number) => String(n).padStart(2, '0');
  return `[${two(Math.floor(cs / 6000))}:${two(Math.floor((cs % 6000) / 100))}.${two(cs % 100)}]`;
};

/** The lyric with every time stamp rewritten; text without a single stamp comes back with LF line ends only. */
export function normaliseLrc(text: string): string {
  let offset = 0;
  const head: string[] = [];
  const timed: { ms: number; line: string; after: string[] }[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n?|\n/)) {
    const line = raw.trim();
    const tag = OFFSET.exec(line);
    if (tag) {
      offset = Number(tag[1]);
      continue;
    }
    const stamps: number[] = [];
    let rest = line;
    for (let m = STAMP.exec(rest); m; m = STAMP.exec(rest)) {
      const fraction = m[3] ? Number(m[3]) * 10 ** (3 - m[3].length) : 0;
      stamps.push((Number(m[1]) * 60 + Number(m[2])) * 1000 + fraction);
      rest = rest.slice(m[0].length);
    }
    if (stamps.length === 0) {
      // Header tags ([ti:], [ar:]) before the first timed line stay on top; a later untimed line moves with the
      // timed line it followed; blank lines go.
      if (line) (timed.length === 0 ? head : timed[timed.length - 1]!.after).push(line);
      continue;
    }
    for (const ms of stamps) timed.push({ ms, line: rest, after: [] });
  }
  if (timed.length === 0) return head.join('\n');
  // Array.prototype.sort is stable: a translation under the same stamp stays under its original.
  timed.sort((a, b) => a.ms - b.ms);
  return [...head, ...timed.flatMap((t) => [stamp(t.ms - offset) + t.line, ...t.after])].join('\n');
}
