/**
 * Text normalisation for matching a file's tags against a source's candidates: the same song is written
 * "晴天", "晴天 (Live)", "晴天（伴奏）", "Sunny Day - Remastered 2009", "周杰倫 feat. 某某", and the scores
 * must see through width, case, script, punctuation and guest credits while keeping a live or
 * instrumental version apart from the studio one (those suffixes are kept beside the title, not dropped).
 */
import { fold, toSimplified } from '../library/text.ts';

/**
 * One comparable form: `fold` (NFKC — full width → half width —, lower case, Latin accents), traditional
 * → simplified Chinese, apostrophes dropped ("Don't" = "Dont"), every other punctuation mark or symbol a
 * space, spaces collapsed. "ＨＥＬＬＯ，  World!" → "hello world"; "許嵩" → "许嵩".
 */
export function normalise(text: string): string {
  return toSimplified(fold(text))
    .replace(/['’‘`´]/gu, '')
    .replace(/[\p{P}\p{S}\s]+/gu, ' ')
    .trim();
}

/** A title (or album name) split into what identifies the work and what marks a version of it. */
export interface NormalisedTitle {
  /** The normalised name without version suffixes or guests: "晴天 (Live)" → "晴天". */
  name: string;
  /** Normalised version suffixes in order: "Song (Live) [Remastered 2011]" → ["live", "remastered 2011"]. */
  versions: string[];
  /** Normalised guests named in the title: "Song (feat. A & B)" → ["a", "b"]. */
  guests: string[];
}

/** "feat." and its spellings, as a word: "feat", "feat.", "ft.", "featuring". */
const FEAT = String.raw`(?:feat\.?|ft\.|featuring)`;
/** A bracketed group at the end of a title, in any of the brackets sources use (ASCII, full-width, CJK). */
const TRAILING_BRACKET = /\s*(?:\(([^()]*)\)|\[([^[\]]*)\]|（([^（）]*)）|【([^【】]*)】|〔([^〔〕]*)〕)\s*$/u;
/** "Song - Live", "Song - Remastered 2009": a dash suffix is a version only when it says so. */
const DASH_VERSION =
  /\s+[-–—]\s+((?:[^-–—]*\b)?(?:live|remaster(?:ed)?|version|mix|remix|edit|acoustic|instrumental|demo|mono|stereo|karaoke|unplugged|session|take)\b[^-–—]*|[^-–—]*(?:伴奏|现场|現場|版|纯音乐|純音樂))$/iu;
/** "Song feat. A": an unbracketed guest credit at the end of a title. */
const TRAILING_FEAT = new RegExp(String.raw`\s+${FEAT}\s+(.+)$`, 'iu');
const LEADING_FEAT = new RegExp(String.raw`^${FEAT}\s+(.+)$`, 'iu');

/**
 * Splits a title into name, version suffixes and guests. Trailing bracket groups and version-like dash
 * suffixes are versions ("(Live)", "【伴奏】", "- 2011 Remaster"); a group starting with "feat." lists
 * guests instead. A title that is nothing but brackets keeps its text as the name.
 */
export function normaliseTitle(text: string): NormalisedTitle {
  let rest = text.normalize('NFKC').trim();
  const versions: string[] = [];
  const guests: string[] = [];
  for (;;) {
    const bracket = TRAILING_BRACKET.exec(rest);
    const dash = bracket ? null : DASH_VERSION.exec(rest);
    const match = bracket ?? dash;
    if (!match || match.index === 0) break;
    const inner = match.slice(1).find((g) => g !== undefined)!.trim();
    rest = rest.slice(0, match.index).trimEnd();
    const feat = LEADING_FEAT.exec(inner);
    if (feat) guests.unshift(...normaliseArtists(feat[1]!));
    else if (inner) versions.unshift(normalise(inner));
  }
  const feat = TRAILING_FEAT.exec(rest);
  if (feat && feat.index > 0) {
    guests.unshift(...normaliseArtists(feat[1]!));
    rest = rest.slice(0, feat.index);
  }
  return { name: normalise(rest), versions: versions.filter((v) => v.length > 0), guests };
}

/**
 * The names in an artist string, normalised, in order, without duplicates. Separators: `,` `/` `&`
 * `、` `，` `;` `×` `x` between spaces, "feat." forms, "with" and "vs." between names, and bracketed
 * "(feat. X)"; a sort form "Beatles, The" is one name. "周杰倫 feat. 五月天" → ["周杰伦", "五月天"]; "A & B" → ["a", "b"].
 */
export function normaliseArtists(text: string): string[] {
  const out: string[] = [];
  const spaced = text.normalize('NFKC').replace(BRACKETED_FEAT, ' $1').replace(ARTICLE_LAST, '$2 $1');
  for (const raw of spaced.split(ARTIST_SEPARATORS)) {
    const name = normalise(raw.replace(LEADING_FEAT_WORD, ''));
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

/** "Beatles, The": a library's sort form of one name, not two names ("The Beatles"). */
const ARTICLE_LAST = /^\s*([^,，]+?)\s*[,，]\s*(the|a|an|die|das|les|le|la)\s*$/iu;
/** "A (feat. B)": the brackets go, the guest stays. */
const BRACKETED_FEAT = new RegExp(String.raw`[(\[（]\s*(${FEAT}\s[^)\]）]*)[)\]）]`, 'giu');
/** "feat. B" left at the start of a name by a separator before it ("A, feat. B"). */
const LEADING_FEAT_WORD = new RegExp(String.raw`^\s*${FEAT}\s+`, 'iu');
const ARTIST_SEPARATORS = new RegExp(String.raw`\s*(?:[,/&、，;；+]|\s(?:${FEAT}|with|vs\.?|x|×)\s)\s*`, 'iu');

/** CJK scripts are written without spaces, so a name may sit inside another with no word boundary. */
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;
const WORD = /[\p{L}\p{N}]/u;

/** True when `a` and `b` would run into one word if `a` were followed by `b`. */
function joins(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  return WORD.test(a) && WORD.test(b) && !UNSPACED.test(a) && !UNSPACED.test(b);
}

/**
 * True when normalised `inner` occurs in normalised `outer` as whole words: "let it be" is in "let it be
 * naked" but "be" is not in "believe"; Chinese needs no boundary ("晴天" is in "晴天娃娃"). Empty is never
 * contained — a missing tag matches nothing.
 */
export function containsWords(outer: string, inner: string): boolean {
  if (!inner || !outer) return false;
  for (let at = outer.indexOf(inner); at >= 0; at = outer.indexOf(inner, at + 1)) {
    const end = at + inner.length;
    if (!joins(outer[at - 1], inner[0]) && !joins(inner[inner.length - 1], outer[end])) return true;
  }
  return false;
}
