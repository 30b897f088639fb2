/**
 * Kugou's LRC as the spec wants it: time tags as `[mm:ss.xx]` (Kugou writes `[00:01.43]`, older files
 * `[0:01.430]` or `[00:01]`), and Kugou's own bookkeeping tags dropped — `[id:$…]`, `[hash:…]`, `[sign:…]`,
 * `[qq:…]`, `[total:…]` and `[language:<base64 JSON>]` (its translation blob) mean nothing to a player — as
 * are standard tags left empty (`[by:]`, `[al:]`). `[ar:]`, `[ti:]`, `[al:]`, `[by:]` and a non-zero
 * `[offset:]` are kept.
 */

/** Tags Kugou adds for itself. */
const KUGOU_TAGS = new Set(['id', 'hash', 'sign', 'qq', 'total', 'language']);

/** One time tag: minutes, seconds, and an optional fraction of any precision. */
const TIME = /\[(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?\]/g;

/** `[mm:ss.xx]` for a time in hundredths of a second (minutes beyond 99 keep their digits). */
const timeTag = (centis: number) =>
  `[${String(Math.floor(centis / 6000)).padStart(2, '0')}:${String(Math.floor(centis / 100) % 60).padStart(2, '0')}.${String(centis % 100).padStart(2, '0')}]`;

/** The normalised LRC, or `null` when no line is left (an empty or header-only lyric). */
export function normaliseLrc(text: string): string | null {
  const lines: string[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    const header = /^\[([a-z]+):(.*)\]$/i.exec(line);
    if (header) {
      const [, name, value] = header as unknown as [string, string, string];
      const key = name.toLowerCase();
      if (KUGOU_TAGS.has(key) || !value.trim() || (key === 'offset' && Number(value) === 0)) continue;
      lines.push(`[${key}:${value.trim()}]`);
      continue;
    }
    lines.push(
      line.replace(TIME, (_, m: string, s: string, fraction?: string) => {
        const hundredths = fraction ? Math.floor(Number(fraction.padEnd(3, '0')) / 10) : 0;
        return timeTag((Number(m) * 60 + Number(s)) * 100 + hundredths);
      }),
    );
  }
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  while (lines.length > 0 && lines[0] === '') lines.shift();
  return lines.some((l) => l !== '' && !/^\[[a-z]+:/.test(l)) ? lines.join('\n') : null;
}
