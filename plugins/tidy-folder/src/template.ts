/**
 * The tidy levels (the spec's dimensions) and the `${var}` templates of the custom level and of the file name,
 * over one track's tags and path. The variables are the spec's template variables (doc 1 §5), computed as core's
 * templates do; a missing title/artist/album falls back to 未知歌曲/未知艺术家/未知专辑 (doc 1 §8), any other
 * missing level to 未知, so every track of a library gets the same depth.
 */
import type { TrackInfo } from '@tagsonic/sdk';
import { baseOf, dirOf, stemOf } from './names.ts';

export const DIMENSIONS = ['title', 'artist', 'album', 'album_artist', 'album_type', 'genre', 'language', 'track_number', 'disc_number', 'comment', 'custom'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export const TEMPLATE_VARIABLES = ['title', 'artist', 'first_artist', 'first_artist_letter', 'album', 'albumartist', 'discnumber', 'tracknumber', 'filename',
  'file_song_name', 'parent_path', 'parent_parent_path', 'lyrics', 'comment', 'year', 'genre', 'composer', 'lyricist', 'null'] as const;
type Variable = (typeof TEMPLATE_VARIABLES)[number];
const KNOWN: ReadonlySet<string> = new Set(TEMPLATE_VARIABLES);
const VARIABLE = /\$\{([^{}]*)\}/g;

const FALLBACK: Partial<Record<Dimension, string>> = { title: '未知歌曲', artist: '未知艺术家', album: '未知专辑', album_artist: '未知艺术家' };
export const UNKNOWN = '未知';

export type TrackFields = Pick<TrackInfo, 'title' | 'artist' | 'album' | 'albumartist' | 'album_type' | 'genre' | 'language' | 'tracknumber' | 'discnumber' |
  'comment' | 'year' | 'composer' | 'lyricist' | 'lyrics'>;

/** Several artists in one tag are split as core's splitMultiValue does. */
const firstOf = (value: string): string => value.split(/[,/&;、，；]/u).map((p) => p.trim()).find((p) => p.length > 0) ?? '';

/** A track's name without a leading number and an "Artist - " prefix ("03. 周杰伦 - 晴天" → "晴天"), as core's songNameOf. */
function songNameOf(base: string): string {
  const withoutNumber = base.replace(/^\s*\d{1,3}\s*(?:[.\-_、]\s*|\s+)/u, '');
  const dash = withoutNumber.lastIndexOf(' - ');
  const song = dash >= 0 ? withoutNumber.slice(dash + 3) : withoutNumber;
  return song.trim() || base;
}

/** Pinyin initials by ICU's zh collation (as core/templates/letter.ts); `#` when Intl has no zh data. */
const BOUNDARIES: Array<[string, string]> = [
  ['A', '阿'], ['B', '八'], ['C', '嚓'], ['D', '咑'], ['E', '妸'], ['F', '发'], ['G', '旮'], ['H', '哈'], ['J', '丌'], ['K', '咔'], ['L', '垃'],
  ['M', '妈'], ['N', '拏'], ['O', '噢'], ['P', '妑'], ['Q', '七'], ['R', '呥'], ['S', '仨'], ['T', '他'], ['W', '屲'], ['X', '夕'], ['Y', '丫'], ['Z', '帀'],
];
function indexLetter(name: string): string {
  const first = [...name.normalize('NFKC').trim()][0];
  if (!first) return '#';
  const latin = first.normalize('NFD')[0]!.toUpperCase();
  if (/[A-Z]/.test(latin)) return latin;
  if (!/\p{Script=Han}/u.test(first) || typeof Intl === 'undefined') return '#';
  const zh = new Intl.Collator('zh-Hans-CN');
  let letter = '#';
  for (const [l, boundary] of BOUNDARIES) if (zh.compare(first, boundary) >= 0) letter = l;
  return letter;
}

const text = (value: string | number | null | undefined): string => (value === null || value === undefined ? '' : String(value).trim());

export function variablesOf(path: string, tags: TrackFields): Record<Variable, string> {
  const artist = text(tags.artist);
  const base = stemOf(path);
  const parent = dirOf(path);
  const first = firstOf(artist);
  return {
    title: text(tags.title), artist, first_artist: first, first_artist_letter: first ? indexLetter(first) : '', album: text(tags.album),
    albumartist: text(tags.albumartist), discnumber: text(tags.discnumber), tracknumber: text(tags.tracknumber), filename: base,
    file_song_name: songNameOf(base), parent_path: baseOf(parent), parent_parent_path: baseOf(dirOf(parent)), lyrics: text(tags.lyrics),
    comment: text(tags.comment), year: text(tags.year), genre: text(tags.genre), composer: text(tags.composer), lyricist: text(tags.lyricist), null: '',
  };
}

/** Unknown variables are refused up front (a typo would otherwise put every track under one literal folder). */
export function checkTemplate(template: string): string | null {
  for (const m of template.matchAll(VARIABLE)) {
    const name = m[1]!.trim();
    if (!KNOWN.has(name)) return `unknown variable \${${name}}; use one of ${TEMPLATE_VARIABLES.map((v) => `\${${v}}`).join(', ')}`;
  }
  return null;
}

export const renderTemplate = (template: string, vars: Record<Variable, string>): string =>
  template.replace(VARIABLE, (_m, raw: string) => vars[raw.trim() as Variable] ?? '');

/** One level's folder name before sanitising; `value2` is the custom level's template (or literal text). */
export function levelValue(level: { value: Dimension; value2?: string }, path: string, tags: TrackFields): string {
  const vars = variablesOf(path, tags);
  const byDimension: Record<Exclude<Dimension, 'custom'>, string> = {
    title: vars.title, artist: vars.artist, album: vars.album, album_artist: vars.albumartist || vars.artist, album_type: text(tags.album_type),
    genre: vars.genre, language: text(tags.language), track_number: vars.tracknumber, disc_number: vars.discnumber, comment: vars.comment,
  };
  const value = level.value === 'custom' ? renderTemplate(level.value2 ?? '', vars).trim() : byDimension[level.value];
  return value || FALLBACK[level.value] || UNKNOWN;
}
