/**
 * Substring search over many folded strings. The entries are joined into one string (so checking an
 * entry is a slice, not a separate allocation per entry), and each entry carries a 64-bit signature of
 * the characters it contains: a query first skips every entry whose signature lacks one of the query's
 * characters — a few integer operations per entry — and only the remaining candidates are searched for
 * the terms. That keeps a search over 100 000 entries well under a millisecond for any script: a plain
 * `indexOf` sweep is fast for ASCII (memchr on the first byte) but slow for CJK, whose first character's
 * low byte matches everywhere in a two-byte string.
 */

export interface TextIndex {
  readonly text: string;
  /** Start offset of entry i; `starts[length]` is the end. */
  readonly starts: Int32Array;
  /** Character signature of entry i: bits `2i` (low word) and `2i + 1` (high word). */
  readonly signatures: Int32Array;
  readonly length: number;
}

/** Low and high 32-bit words of the signature of `text`'s characters, into `out[at]`, `out[at + 1]`. */
function signInto(text: string, out: Int32Array, at: number): void {
  let lo = 0;
  let hi = 0;
  for (let k = 0; k < text.length; k++) {
    // Fibonacci hashing of the UTF-16 code unit onto 64 bits.
    const bit = Math.imul(text.charCodeAt(k), 0x9e3779b1) >>> 26;
    if (bit < 32) lo |= 1 << bit;
    else hi |= 1 << (bit - 32);
  }
  out[at] = lo;
  out[at + 1] = hi;
}

/** Entries must not contain `\u0000` (folded library strings never do). */
export function buildTextIndex(entries: readonly string[]): TextIndex {
  const starts = new Int32Array(entries.length + 1);
  const signatures = new Int32Array(entries.length * 2);
  let offset = 0;
  entries.forEach((e, i) => {
    starts[i] = offset;
    offset += e.length + 1;
    signInto(e, signatures, 2 * i);
  });
  starts[entries.length] = offset;
  return { text: entries.join('\u0000') + '\u0000', starts, signatures, length: entries.length };
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

function hasAll(entry: string, terms: readonly string[]): boolean {
  for (const t of terms) if (!entry.includes(t)) return false;
  return true;
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Entries (ascending) that contain every term. No terms: every entry. An ASCII lead term (the longest)
 * is found with an `indexOf` sweep that jumps from match to match; otherwise the signatures pick the
 * candidates.
 */
export function* matchingEntries(index: TextIndex, terms: readonly string[]): Generator<number> {
  const { text, starts, signatures, length } = index;
  if (terms.length === 0) {
    for (let i = 0; i < length; i++) yield i;
    return;
  }
  const lead = terms.reduce((a, b) => (b.length > a.length ? b : a));
  if (ASCII.test(lead)) {
    const rest = terms.filter((t) => t !== lead);
    let from = 0;
    for (;;) {
      const pos = text.indexOf(lead, from);
      if (pos < 0) return;
      const i = entryAt(index, pos);
      const end = starts[i + 1]! - 1;
      if (rest.length === 0 || hasAll(text.slice(starts[i]!, end), rest)) yield i;
      from = end + 1;
    }
  }
  const query = new Int32Array(2);
  signInto(terms.join(''), query, 0);
  const lo = query[0]!;
  const hi = query[1]!;
  for (let i = 0; i < length; i++) {
    if ((signatures[2 * i]! & lo) !== lo || (signatures[2 * i + 1]! & hi) !== hi) continue;
    if (hasAll(text.slice(starts[i]!, starts[i + 1]! - 1), terms)) yield i;
  }
}
