/**
 * Text rules of the library: folding for search (simplified/traditional Chinese too) and keys, artist
 * and genre splitting, sort names without articles, and index letters (pinyin initials for Chinese names).
 */
import { ConverterFactory } from 'opencc-js/core';
import TS_CHARACTERS from 'opencc-js/dict/TSCharacters';
import { memoize } from '../memoize.ts';

/**
 * Folds text for comparison: NFKC (full-width → half-width, compatibility forms), lower case, and
 * Latin diacritics removed ("Björk" = "bjork"). Only the Latin combining marks are dropped: stripping
 * every mark would merge Japanese kana with and without dakuten.
 */
export function fold(text: string): string {
  const nfkc = text.normalize('NFKC').toLowerCase();
  // Fast path: plain ASCII needs nothing more.
  if (/^[\x00-\x7f]*$/.test(nfkc)) return nfkc;
  return nfkc
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łøđðþæœßı]/g, (c) => LATIN_LETTERS[c] ?? c)
    .normalize('NFC');
}

/** Latin letters that do not decompose into a base letter and a mark. */
const LATIN_LETTERS: Record<string, string> = { ł: 'l', ø: 'o', đ: 'd', ð: 'd', þ: 'th', æ: 'ae', œ: 'oe', ß: 'ss', ı: 'i' };

/**
 * Traditional → simplified Chinese, character by character, with OpenCC's character table (opencc-js).
 * Only the character table: OpenCC's phrase tables convert some words as a whole ("乾隆" keeps 乾),
 * which would make a one-character query miss the word it is part of.
 */
const viaTrie = ConverterFactory([TS_CHARACTERS]);
/** In `BMP_SIMPLIFIED`: this character's simplified form is not one BMP code unit; the trie converts it. */
const USE_TRIE = 0xffff;
/**
 * The same table by UTF-16 code unit (128 KiB, built once at start-up in a few ms): all but a handful
 * of its entries map one BMP character to another, so converting a name is a loop over its code units
 * instead of opencc-js's trie walk with a Map lookup per character — several times faster, which is
 * what an index of 100 000 Chinese titles is built with. Text with a character outside the BMP goes
 * through opencc-js's own converter; both give the same result (text.test.ts checks every entry).
 */
const BMP_SIMPLIFIED = new Uint16Array(0x10000);
for (const entry of TS_CHARACTERS.split('|')) {
  const [from, to] = entry.split(' ') as [string, string];
  if (from.length !== 1) continue;
  BMP_SIMPLIFIED[from.charCodeAt(0)] = to.length === 1 ? to.charCodeAt(0) : USE_TRIE;
}

/** Traditional → simplified, OpenCC's character table; other text unchanged. */
export function toSimplified(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x3400) continue;
    const to = BMP_SIMPLIFIED[c]!;
    if (to === 0) {
      if (c >= 0xd800 && c <= 0xdbff) return viaTrie(text);
      continue;
    }
    if (to === USE_TRIE) return viaTrie(text);
    out += text.slice(from, i) + String.fromCharCode(to);
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * `fold` for search: also folds Chinese traditional characters into simplified ones, so `許麗佳` and
 * `许丽佳` are the same text. Used on both sides of every search — the search strings when the
 * catalogue builds its index, and the query once (`searchTerms`) — never per comparison (only the
 * one filter without an index, `songsByGenre`'s search, folds each candidate it looks at, as it did
 * before). Keys and ids keep `fold`: two artists written in the two scripts stay two artists.
 */
export function searchFold(text: string): string {
  return toSimplified(fold(text));
}

/** The names joined in one artist string: `,` `/` `&` `、` `，` and `feat.`/`ft.`/`featuring`. */
const ARTIST_SEPARATORS = /\s*(?:[,/&、，]|\s(?:feat\.?|ft\.|featuring)\s)\s*/iu;
/** A leading "feat." after a separator, e.g. "A, feat. B". */
const LEADING_FEAT = /^(?:feat\.?|ft\.|featuring)\s+/iu;
/** "A (feat. B)" and "A [ft. B]": the brackets go, the guest stays. */
const BRACKETED_FEAT = /\s*[(\[（]\s*((?:feat\.?|ft\.|featuring)\s[^)\]）]*)[)\]）]/giu;

/**
 * Splits an artist display string into individual names, keeping their order and dropping
 * duplicates (case-insensitively). "A feat. B / C" → ["A", "B", "C"].
 */
export function splitArtists(display: string): string[] {
  return [...splitArtistsOnce(display)];
}

/** Remembered (a scan splits the same display strings for every track); callers get a copy. */
const splitArtistsOnce = memoize((display: string): readonly string[] => {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of display.replace(BRACKETED_FEAT, ' $1').split(ARTIST_SEPARATORS)) {
    const name = raw.replace(LEADING_FEAT, '').trim();
    if (!name) continue;
    const key = fold(name);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
});

/** A separator between names, kept when one name is replaced: those of splitArtists, and `;` of multi-value tags. */
const NAME_SEPARATOR = /(\s*(?:[,/&、，;；]|\s(?:feat\.?|ft\.|featuring)\s)\s*)/iu;

/**
 * `display` with the artist `from` renamed to `to` where it stands as a whole name — the whole string, or one part
 * of "A/B", "A; B", "A feat. B" (the rest and the separators kept as written); null when no part is `from`
 * (compared folded, like artist ids). `renameArtistIn('Alpha/Beta', 'alpha', 'Alef')` → 'Alef/Beta'.
 */
export function renameArtistIn(display: string, from: string, to: string): string | null {
  const want = fold(from);
  if (fold(display) === want) return to;
  let changed = false;
  const parts = display.split(NAME_SEPARATOR).map((part, i) => {
    if (i % 2 === 1 || fold(part.trim()) !== want) return part;
    changed = true;
    return part.replace(part.trim(), () => to);
  });
  return changed ? parts.join('') : null;
}

/** Genre values may hold several genres: "Rock; Pop", "Rock, Pop", "Rock/Pop". "&" stays (R&B, Drum & Bass). */
const GENRE_SEPARATORS = /\s*[;,/、，；]\s*/u;

export function splitGenres(values: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const value of values) {
    for (const raw of value.split(GENRE_SEPARATORS)) {
      const name = raw.trim();
      if (!name) continue;
      const key = fold(name);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(name);
    }
  }
  return out;
}

/** Articles ignored when sorting and indexing artists (Subsonic's `ignoredArticles`). */
export const IGNORED_ARTICLES = ['The', 'An', 'A', 'Die', 'Das', 'Ein', 'Eine', 'Les', 'Le', 'La'] as const;
const ARTICLE_PREFIX = new RegExp(`^(?:${IGNORED_ARTICLES.join('|')})\\s+(?=\\S)`, 'i');

/** A user's text for the library's own records: trimmed, at most `max` characters; empty is null. */
export function cleanText(text: string | null, max: number): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed.slice(0, max);
}

/** The folded name used for ordering: articles removed ("The Beatles" sorts as "beatles"). */
export function sortKey(name: string): string {
  return fold(name.trim().replace(ARTICLE_PREFIX, ''));
}

const COLLATOR = new Intl.Collator('zh-u-co-pinyin', { sensitivity: 'base', numeric: true });

/** Compares two sort keys: pinyin order for Chinese, natural numbers ("Vol. 2" before "Vol. 10"). */
export const compareKeys = (a: string, b: string): number => (a === b ? 0 : COLLATOR.compare(a, b));

// Pinyin initials through the ICU pinyin collation, so no dictionary is shipped: the first syllable of
// each initial letter (several candidates each; the smallest under the collator is the boundary).
const PINYIN_CANDIDATES: Array<[string, string]> = [
  ['A', '阿吖啊锕'],
  ['B', '八巴叭扒芭捌'],
  ['C', '嚓擦礤'],
  ['D', '咑哒耷搭'],
  ['E', '妸婀屙鹅'],
  ['F', '发伐'],
  ['G', '旮夹钆'],
  ['H', '哈铪'],
  ['J', '丌讥击几'],
  ['K', '咔喀'],
  ['L', '垃拉啦'],
  ['M', '妈嘛麻'],
  ['N', '拏那拿'],
  ['O', '噢哦喔'],
  ['P', '妑趴啪'],
  ['Q', '七沏期'],
  ['R', '呥然'],
  ['S', '仨撒'],
  ['T', '他它塌'],
  ['W', '屲穵挖哇'],
  ['X', '夕昔西'],
  ['Y', '丫压呀'],
  ['Z', '帀匝咂'],
];
const PINYIN_COLLATOR = new Intl.Collator('zh-u-co-pinyin');
const PINYIN_BOUNDARIES: Array<[string, string]> = PINYIN_CANDIDATES.map(([letter, chars]) => [
  letter,
  [...chars].sort(PINYIN_COLLATOR.compare)[0]!,
]);
const HAN = /^[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;

function pinyinInitial(char: string): string {
  let letter = '#';
  for (const [l, boundary] of PINYIN_BOUNDARIES) {
    if (PINYIN_COLLATOR.compare(char, boundary) >= 0) letter = l;
    else break;
  }
  return letter;
}

/**
 * The index group of an artist: A–Z for Latin names (articles and diacritics ignored), the pinyin
 * initial for names starting with a Chinese character, '#' for everything else (digits, kana, hangul…).
 */
export function indexLetter(name: string): string {
  const key = sortKey(name);
  const first = [...key][0] ?? '';
  if (/^[a-z]$/.test(first)) return first.toUpperCase();
  if (HAN.test(first)) return pinyinInitial(first);
  return '#';
}

/**
 * Search terms of a query: search-folded words (`searchFold`: simplified and traditional alike), quotes and wildcards removed ("*" is what some Subsonic
 * clients send to mean "everything"). An empty list matches everything.
 */
export function searchTerms(query: string | undefined | null): string[] {
  if (!query) return [];
  return searchFold(query)
    .replace(/["*\u0000\u0001]/g, ' ')
    .split(/\s+/u)
    .filter((t) => t.length > 0);
}

/** True when every term occurs in the haystack (search-folded, like the terms). */
export function matchesTerms(haystack: string, terms: readonly string[]): boolean {
  for (const t of terms) if (!haystack.includes(t)) return false;
  return true;
}
