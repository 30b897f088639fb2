/**
 * The index letter of a name: A–Z for Latin names, the pinyin initial for Chinese ones (周杰伦 → Z),
 * `#` for anything else. The pinyin initial comes from ICU's zh collation, which orders hanzi by
 * pinyin: a character's letter is the last boundary character it sorts after.
 */
const BOUNDARIES: Array<[string, string]> = [
  ['A', '阿'], ['B', '八'], ['C', '嚓'], ['D', '咑'], ['E', '妸'], ['F', '发'], ['G', '旮'], ['H', '哈'],
  ['J', '丌'], ['K', '咔'], ['L', '垃'], ['M', '妈'], ['N', '拏'], ['O', '噢'], ['P', '妑'], ['Q', '七'],
  ['R', '呥'], ['S', '仨'], ['T', '他'], ['W', '屲'], ['X', '夕'], ['Y', '丫'], ['Z', '帀'],
];
const zh = new Intl.Collator('zh-Hans-CN');
const HAN = /\p{Script=Han}/u;

export function indexLetter(name: string): string {
  const first = [...name.normalize('NFKC').trim()][0];
  if (!first) return '#';
  const latin = first.normalize('NFD')[0].toUpperCase();
  if (/[A-Z]/.test(latin)) return latin;
  if (!HAN.test(first)) return '#';
  // Binary search for the last boundary the character sorts at or after.
  let lo = 0;
  let hi = BOUNDARIES.length - 1;
  let letter = '#';
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (zh.compare(first, BOUNDARIES[mid][1]) >= 0) {
      letter = BOUNDARIES[mid][0];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return letter;
}
