/**
 * Composer and lyricist read from a lyric's credit header — "作词 : 方文山", "作曲：周杰伦", "Lyrics by
 * X" — which the editor copies into the composer and lyricist tags when the user copies a lyric (the
 * spec's extractLyric). Pure read: the lyric itself is not changed.
 */
import { lyricLines } from '@tagsonic/sdk';

/** The spec's extractLyric data; '' when the lyric does not say. */
export interface LyricCredits {
  composer: string;
  lyricist: string;
}

type Role = 'composer' | 'lyricist' | 'both' | 'other';

/**
 * Credit labels before a colon (ASCII or full-width), simplified and traditional. 编曲 (arranger),
 * 制作人 and the like are credits too but neither role: they end nothing and fill nothing.
 */
const LABELS: Array<[RegExp, Role]> = [
  [/^(?:作词|作詞|填词|填詞|词|詞|lyrics?|lyricist|words?|作词者|作詞者)$/iu, 'lyricist'],
  [/^(?:作曲|曲|谱曲|譜曲|composer|composed|music|作曲者)$/iu, 'composer'],
  [/^(?:词曲|詞曲|作词\s*[/&、]\s*作曲|作詞\s*[/&、]\s*作曲|词\s*[/&、]\s*曲|詞\s*[/&、]\s*曲|songwriter|written)$/iu, 'both'],
];
/** "Label : Value", label short (a lyric line with a colon in it is not a credit). */
const LABELLED = /^([^:：]{1,16}?)\s*[:：]\s*(.*)$/u;
/** "Lyrics by X", "Composed by X", "Written by X", "Music by X", "Words and music by X". */
const BY = /^(lyrics|lyric|words|composed|composition|music|written|words\s*(?:and|&)\s*music)\s+by\s*[:：]?\s+(.+)$/iu;

function roleOf(label: string): Role {
  const l = label.trim().replace(/\s+by$/i, '');
  for (const [re, role] of LABELS) if (re.test(l)) return role;
  return 'other';
}

/**
 * Composer and lyricist from the lyric's header: the leading lines that are blank, credits ("label:
 * value", "… by …") or LRC tags, up to the first line of the lyric itself (credits that end a lyric
 * are read too, from its last such lines). The first value for a role wins; "词曲", "Written by" and
 * "Words and music by" fill both roles where neither has its own line.
 */
export function extractCredits(lyric: string): LyricCredits {
  const lines = lyricLines(lyric);
  const credits: Array<[Role, string]> = [];
  const read = (ordered: readonly string[]) => {
    for (const line of ordered) {
      if (!line) continue;
      const credit = parseCredit(line);
      if (!credit) break;
      credits.push(credit);
    }
  };
  read(lines);
  read([...lines].reverse());
  const pick = (role: 'composer' | 'lyricist') =>
    credits.find(([r, v]) => r === role && v)?.[1] ?? credits.find(([r, v]) => r === 'both' && v)?.[1] ?? '';
  return { composer: pick('composer'), lyricist: pick('lyricist') };
}

/** A credit line's role and value, or null when the line is lyric text. */
function parseCredit(line: string): [Role, string] | null {
  const by = BY.exec(line);
  if (by) {
    const label = by[1]!.toLowerCase().replace(/\s+/g, ' ');
    const role: Role = /^words\s*(?:and|&)\s*music$/.test(label) ? 'both' : roleOf(label);
    return [role, by[2]!.trim()];
  }
  const labelled = LABELLED.exec(line);
  if (!labelled) return null;
  const role = roleOf(labelled[1]!);
  // An unknown label is still a credit ("编曲：…", "制作人：…", "Producer: …") when it is short and
  // the line is short; a long line with a colon is lyric text.
  if (role === 'other' && (line.length > 40 || labelled[1]!.trim().split(/\s+/).length > 3)) return null;
  return [role, labelled[2]!.trim()];
}
