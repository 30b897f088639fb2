/**
 * Kugou's LRC as the spec wants it. Kugou's own bookkeeping tags are dropped — `[id:$…]`, `[hash:…]`, `[sign:…]`,
 * `[qq:…]`, `[total:…]` and `[language:<base64 JSON>]` (its translation blob) mean nothing to a player — as are
 * standard tags left empty (`[by:]`, `[al:]`); the stamps then follow the SDK's rules (`normaliseLrc`: `[mm:ss.xx]`,
 * one per line, in time order, `[offset:]` applied).
 */
import { normaliseLrc as normaliseStamps } from '@tagsonic/sdk';

/** Tags Kugou adds for itself. */
const KUGOU_TAGS = new Set(['id', 'hash', 'sign', 'qq', 'total', 'language']);

/** The normalised LRC, or `null` when no line is left (an empty or header-only lyric). */
export function normaliseLrc(text: string): string | null {
  const lines: string[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    const header = /^\[([a-z]+):(.*)\]$/i.exec(line);
    if (header) {
      const [, name, value] = header as unknown as [string, string, string];
      const key = name.toLowerCase();
      if (KUGOU_TAGS.has(key) || !value.trim()) continue;
      lines.push(key === 'offset' ? line : `[${key}:${value.trim()}]`);
      continue;
    }
    lines.push(line);
  }
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  while (lines.length > 0 && lines[0] === '') lines.shift();
  const out = normaliseStamps(lines.join('\n'));
  return out.split('\n').some((l) => l !== '' && !/^\[[a-z]+:/i.test(l)) ? out : null;
}
