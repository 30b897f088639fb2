/**
 * Substring search over many folded strings: they are joined into one string, so finding a word is
 * one `indexOf` sweep that jumps from match to match instead of testing every entry.
 */

export interface TextIndex {
  readonly text: string;
  /** Start offset of entry i; `starts[length]` is the end. */
  readonly starts: Int32Array;
  readonly length: number;
}

/** Entries must not contain `\u0000` (folded library strings never do). */
export function buildTextIndex(entries: readonly string[]): TextIndex {
  const starts = new Int32Array(entries.length + 1);
  let offset = 0;
  entries.forEach((e, i) => {
    starts[i] = offset;
    offset += e.length + 1;
  });
  starts[entries.length] = offset;
  return { text: entries.join('\u0000') + '\u0000', starts, length: entries.length };
}

/** The entry holding text offset `pos`. */
function entryAt(index: TextIndex, pos: number): number {
  let lo = 0;
  let hi = index.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (index.starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Entries (ascending) that contain every term. The longest term drives the sweep (fewest matches);
 * the others are checked inside each candidate entry. No terms: every entry.
 */
export function* matchingEntries(index: TextIndex, terms: readonly string[]): Generator<number> {
  if (terms.length === 0) {
    for (let i = 0; i < index.length; i++) yield i;
    return;
  }
  const lead = terms.reduce((a, b) => (b.length > a.length ? b : a));
  const rest = terms.filter((t) => t !== lead);
  let from = 0;
  for (;;) {
    const pos = index.text.indexOf(lead, from);
    if (pos < 0) return;
    const i = entryAt(index, pos);
    const start = index.starts[i]!;
    const end = index.starts[i + 1]! - 1;
    let ok = true;
    for (const t of rest) {
      const at = index.text.indexOf(t, start);
      if (at < 0 || at + t.length > end) {
        ok = false;
        break;
      }
    }
    if (ok) yield i;
    from = end + 1;
  }
}
