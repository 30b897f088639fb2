/**
 * Mojibake repair. The classic case: a tagger wrote GBK, Big5 or Shift-JIS bytes (or UTF-8 ones) into a tag frame
 * that says ISO-8859-1, so every reader shows one Latin-1/CP1252 character per byte ("ÕÅÑ§ÓÑ" for 张学友). The
 * original bytes are recovered exactly (the text is re-encoded as CP1252/Latin-1) and decoded with each candidate
 * encoding; a scorer keeps a decoding only when it reads as real text, so correct text is never "fixed":
 *
 * - Text with any character outside Latin-1/CP1252 (real CJK, Cyrillic…) is not mojibake of this kind: untouched.
 * - UTF-8 is taken when the bytes are valid UTF-8 that reads as text (known blocks, Latin plus at most one other
 *   script, no control characters): random Latin-1 text almost never is (é alone is an invalid byte), while
 *   "CafÃ©" decodes to "Café". Applied up to three times (double encoding).
 * - GBK, Big5 and Shift-JIS decodings must be valid (no U+FFFD, no private-use or control characters) and made
 *   of characters that text in that encoding uses: its common ideographs (GB2312 level 1, Big5's frequent
 *   characters, JIS level 1 kanji — built from the decoders themselves), kana, CJK and full-width punctuation.
 *   Rare ideographs may be at most half (names use them: 陈奕迅, 陶喆); half-width katakana (Shift-JIS single bytes) and other symbols
 *   refuse it, and so do ideographs glued to Latin letters and texts with a single high byte (an accented
 *   letter). "Björk" as GBK is "Bj鰎k" (rare) and as Shift-JIS "Bjｶrk" (half-width); "Die Ärzte" as Big5 is
 *   "Die 礪zte" (glued): untouched.
 * - When several encodings read well, the file's other fields decide (one tagger, one code page), then the
 *   higher score, then GBK, Big5, Shift-JIS in that order.
 */

export type LegacyEncoding = 'gbk' | 'big5' | 'shift_jis';
export type Encoding = 'utf-8' | LegacyEncoding;
/** Decodes bytes strictly: `null` when they are not valid in the encoding (the host's `text.decode` with `fatal`). */
export type Decode = (bytes: Uint8Array, encoding: Encoding) => Promise<string | null>;
/** The common ideographs of each legacy encoding (see {@link commonSets}). */
export type CommonSets = Record<LegacyEncoding, ReadonlySet<string>>;

export const LEGACY: readonly LegacyEncoding[] = ['gbk', 'big5', 'shift_jis'];

/** CP1252's characters for bytes 0x80–0x9F (readers that decode "Latin-1" as Windows-1252 show these). */
const CP1252 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const CP1252_BYTE = new Map([...CP1252].map((c, i) => [c, 0x80 + i]));

/**
 * The bytes a Latin-1/CP1252 reader turned into `text`, or `null` when it cannot be such a reading (a character
 * outside both) or has nothing to repair (ASCII only).
 */
export function latin1Bytes(text: string): Uint8Array | null {
  const bytes = new Uint8Array(text.length);
  let high = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const byte = code <= 0xff ? code : CP1252_BYTE.get(text[i]!);
    if (byte === undefined) return null;
    if (byte >= 0x80) high = true;
    bytes[i] = byte;
  }
  return high ? bytes : null;
}

/** Byte ranges whose characters are each encoding's common ideographs. */
const COMMON_RANGES: Record<LegacyEncoding, Array<{ leads: [number, number]; trails: Array<[number, number]> }>> = {
  // GB2312 level 1: the 3755 most used hanzi, sorted by pinyin.
  gbk: [{ leads: [0xb0, 0xd7], trails: [[0xa1, 0xfe]] }],
  // Big5's "frequently used" block: 5401 hanzi.
  big5: [{ leads: [0xa4, 0xc6], trails: [[0x40, 0x7e], [0xa1, 0xfe]] }],
  // JIS X 0208 level 1 kanji: 2965, from 0x889F to 0x9872.
  shift_jis: [
    { leads: [0x88, 0x88], trails: [[0x9f, 0xfc]] },
    { leads: [0x89, 0x97], trails: [[0x40, 0x7e], [0x80, 0xfc]] },
    { leads: [0x98, 0x98], trails: [[0x40, 0x72]] },
  ],
};

/**
 * Each legacy encoding's common ideographs, decoded from their byte ranges by the host's own decoder (a plugin
 * carries no tables): one call per encoding, ~4,000 pairs each.
 */
export async function commonSets(decodeLenient: (bytes: Uint8Array, encoding: LegacyEncoding) => Promise<string>): Promise<CommonSets> {
  const out = {} as Record<LegacyEncoding, Set<string>>;
  for (const encoding of LEGACY) {
    // Each pair followed by a newline: an unmapped pair decodes to U+FFFD (plus an ASCII trail) inside its line.
    const bytes: number[] = [];
    for (const { leads, trails } of COMMON_RANGES[encoding]) {
      for (let lead = leads[0]; lead <= leads[1]; lead++) {
        for (const [from, to] of trails) for (let trail = from; trail <= to; trail++) bytes.push(lead, trail, 0x0a);
      }
    }
    const text = await decodeLenient(new Uint8Array(bytes), encoding);
    out[encoding] = new Set([...text].filter(isIdeograph));
  }
  return out;
}

const isIdeograph = (c: string) => {
  const code = c.codePointAt(0)!;
  return (code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3400 && code <= 0x4dbf) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0x20000 && code <= 0x3134f);
};

/** Characters legacy CJK text uses besides ideographs: kana, CJK and full-width punctuation, common symbols. */
const isCjkCompanion = (code: number) =>
  (code >= 0x3000 && code <= 0x30ff) || // CJK punctuation, hiragana, katakana
  (code >= 0xff01 && code <= 0xff5e) || // full-width ASCII
  (code >= 0x2010 && code <= 0x2027) || // dashes, quotes, ellipsis, bullet
  code === 0x00b7 || code === 0x00d7 || code === 0x2116 || code === 0x2605 || code === 0x2606 || code === 0x203b;

export interface Reading { text: string; score: number }

const isLetter = (c: string | undefined) => c !== undefined && /[A-Za-z]/.test(c);

/**
 * How well `text` reads as `encoding`'s text; `null` when it does not (see the module comment). Besides the
 * character classes, an accented Latin word has a tell: Big5 and Shift-JIS take ASCII bytes as second bytes, so
 * `Die Ärzte` reads `Die 礪zte` — an ideograph glued to Latin letters. Text where such glue is frequent relative
 * to its ideographs is refused (K歌之王, one glue for three ideographs, stays acceptable).
 */
export function scoreReading(text: string, encoding: LegacyEncoding, common: CommonSets): Reading | null {
  let good = 0;
  let rare = 0;
  let ideographs = 0;
  let glued = 0;
  let lone = 0;
  const chars = [...text];
  for (const [i, c] of chars.entries()) {
    const code = c.codePointAt(0)!;
    if (code < 0x80) {
      if (code < 0x20 && c !== '\n' && c !== '\r' && c !== '\t') return null;
      continue;
    }
    if (isIdeograph(c)) {
      ideographs++;
      if (common[encoding].has(c)) good++;
      else rare++;
      if (isLetter(chars[i - 1])) glued++;
      if (isLetter(chars[i + 1])) glued++;
    } else if (encoding !== 'shift_jis' && isKana(code) && !PARTICLES.includes(c) && !isKana(chars[i - 1]?.codePointAt(0)) && !isKana(chars[i + 1]?.codePointAt(0))) {
      // GBK and Big5 carry kana for Japanese titles, where kana come in runs or as particles (北国の春); another
      // lone kana among hanzi (Big5's 晴天 read as GBK is 锤ぱ) is more likely a misreading: not good, a point off.
      lone++;
    } else if (isCjkCompanion(code)) good++;
    else return null; // U+FFFD, private use, half-width katakana, Latin/Greek/Cyrillic from symbol rows…
  }
  if (good === 0 || rare * 2 > ideographs || glued * 3 > ideographs) return null;
  return { text, score: good - 2 * rare - lone };
}

/** Japanese particles, written alone between kanji. */
const PARTICLES = 'のとをはがにでもへやか';
const isKana = (code: number | undefined) => code !== undefined && code >= 0x3041 && code <= 0x30ff && code !== 0x30fb;

/** Bytes ≥ 0x80: a legacy CJK text has at least one per character; one alone is an accented letter more likely. */
const highBytes = (bytes: Uint8Array) => bytes.reduce((n, b) => n + (b >= 0x80 ? 1 : 0), 0);

/** Blocks a UTF-8 reading may use, by script; `null`: punctuation and symbols, which go with any script. */
const UTF8_BLOCKS: Array<[number, number, string | null]> = [
  [0x00a0, 0x00bf, null], [0x00d7, 0x00d7, null], [0x00f7, 0x00f7, null], [0x00c0, 0x024f, 'latin'], [0x1e00, 0x1eff, 'latin'],
  [0x0300, 0x036f, null], // combining accents of decomposed (NFD) Latin text
  [0x0370, 0x03ff, 'greek'], [0x0400, 0x045f, 'cyrillic'], [0x0490, 0x04ff, 'cyrillic'], [0x05d0, 0x05ea, 'hebrew'],
  [0x0620, 0x064a, 'arabic'], [0x0660, 0x0669, 'arabic'], [0x0e01, 0x0e5b, 'thai'],
  [0x2000, 0x206f, null], [0x20a0, 0x20cf, null], [0x2100, 0x214f, null], [0x2190, 0x21ff, null], [0x2600, 0x27bf, null],
  [0x3000, 0x30ff, 'cjk'], [0x3400, 0x4dbf, 'cjk'], [0x4e00, 0x9fff, 'cjk'], [0xf900, 0xfaff, 'cjk'], [0xff00, 0xffef, 'cjk'],
  [0x1100, 0x11ff, 'hangul'], [0x3130, 0x318f, 'hangul'], [0xac00, 0xd7a3, 'hangul'], [0x1f000, 0x1faff, null],
];

/**
 * Whether a UTF-8 reading is text someone wrote: every character from a known block, and besides Latin at most
 * one other script. GBK's 薛之谦 happens to be valid UTF-8 ("Ѧ֮ǫ": archaic Cyrillic, a Hebrew accent, Latin);
 * that is not a reading.
 */
export function plausibleUtf8(text: string): boolean {
  const scripts = new Set<string>();
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if (code < 0x80) {
      if (code < 0x20 && c !== '\n' && c !== '\r' && c !== '\t') return false;
      continue;
    }
    const block = UTF8_BLOCKS.find(([from, to]) => code >= from && code <= to);
    if (!block) return false;
    if (block[2] && block[2] !== 'latin') scripts.add(block[2]);
  }
  return scripts.size <= 1;
}

/** UTF-8 read as Latin-1, undone while it still is (double encoding); `null` when the text is not that. */
export async function repairUtf8(text: string, decode: Decode): Promise<string | null> {
  let current = text;
  for (let round = 0; round < 3; round++) {
    const bytes = latin1Bytes(current);
    if (!bytes) break;
    const decoded = await decode(bytes, 'utf-8');
    if (decoded === null || !plausibleUtf8(decoded)) break;
    current = decoded;
  }
  return current === text ? null : current;
}

export interface FieldRepair { text: string; encoding: Encoding }

/**
 * The repairs of a file's fields (by field name), or none. `commonOf`: the sets, or how to build them (only a
 * field that decodes in a legacy encoding needs them). UTF-8 first; then per field the legacy readings that
 * pass the scorer, the encoding that reads the most fields of the file (then the highest total score, then
 * {@link LEGACY}'s order) preferred for every field it reads.
 */
export async function repairFields(fields: Record<string, string>, decode: Decode, commonOf: CommonSets | (() => Promise<CommonSets>)): Promise<Record<string, FieldRepair>> {
  // Built on first need only: most files of a library have nothing to repair.
  let common: CommonSets | undefined = typeof commonOf === 'function' ? undefined : commonOf;
  const out: Record<string, FieldRepair> = {};
  const legacy: Record<string, Partial<Record<LegacyEncoding, Reading>>> = {};
  for (const [field, text] of Object.entries(fields)) {
    const utf8 = await repairUtf8(text, decode);
    if (utf8 !== null) {
      out[field] = { text: utf8, encoding: 'utf-8' };
      continue;
    }
    const bytes = latin1Bytes(text);
    // One high byte is one accented letter (Ä, °, Œ) far more often than one CJK character.
    if (!bytes || highBytes(bytes) < 2) continue;
    const readings: Partial<Record<LegacyEncoding, Reading>> = {};
    for (const encoding of LEGACY) {
      const decoded = await decode(bytes, encoding);
      if (decoded !== null) common ??= await (commonOf as () => Promise<CommonSets>)();
      const reading = decoded === null ? null : scoreReading(decoded, encoding, common!);
      if (reading) readings[encoding] = reading;
    }
    if (Object.keys(readings).length) legacy[field] = readings;
  }

  const tally = LEGACY.map((encoding, order) => {
    const readings = Object.values(legacy).map((r) => r[encoding]).filter((r): r is Reading => r !== undefined);
    return { encoding, fields: readings.length, score: readings.reduce((sum, r) => sum + r.score, 0), order };
  }).sort((a, b) => b.fields - a.fields || b.score - a.score || a.order - b.order);
  for (const [field, readings] of Object.entries(legacy)) {
    const best = tally.find((t) => readings[t.encoding])!.encoding;
    out[field] = { text: readings[best]!.text, encoding: best };
  }
  return out;
}
