import path from 'node:path';
import { splitMultiValue } from '../tags/mapping.ts';
import { invalid } from '../errors/errors.ts';
import { indexLetter } from './letter.ts';

/** The spec's template variables, usable as `${name}` in tag values and file names. */
export const TEMPLATE_VARIABLES = [
  'title',
  'artist',
  'first_artist',
  'first_artist_letter',
  'album',
  'albumartist',
  'discnumber',
  'tracknumber',
  'filename',
  'file_song_name',
  'parent_path',
  'parent_parent_path',
  'lyrics',
  'comment',
  'year',
  'genre',
  'composer',
  'lyricist',
  'null',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

/** The placeholder the dashboard sends for an emptied field: the tag is cleared. */
export const CLEAR_PLACEHOLDER = '${null}';

const VARIABLE = /\$\{([^{}]*)\}/g;
const KNOWN: ReadonlySet<string> = new Set(TEMPLATE_VARIABLES);
const TAG_VARIABLES = ['title', 'artist', 'album', 'albumartist', 'discnumber', 'tracknumber', 'lyrics', 'comment', 'year', 'genre', 'composer', 'lyricist'] as const;

export type TemplateTags = Partial<Record<(typeof TAG_VARIABLES)[number], string | null>>;

export const hasVariables = (text: string): boolean => /\$\{[^{}]*\}/.test(text);

/**
 * The variables of one file from its current tags and its path:
 * - `filename`: the file name without extension;
 * - `file_song_name`: that name without a leading track number and without an "Artist - " prefix
 *   ("03. 周杰伦 - 晴天" → "晴天");
 * - `parent_path` / `parent_parent_path`: the names of the folder and of the folder above it;
 * - `first_artist`: the first name of the artist split on , / & 、 ，; `first_artist_letter` its
 *   index letter (pinyin initial for Chinese names).
 */
export function templateVariables(filePath: string, tags: TemplateTags): Record<TemplateVariable, string> {
  const vars = {} as Record<TemplateVariable, string>;
  for (const name of TAG_VARIABLES) vars[name] = tags[name] ?? '';
  const firstArtist = splitMultiValue(vars.artist)[0] ?? '';
  vars.first_artist = firstArtist;
  vars.first_artist_letter = firstArtist ? indexLetter(firstArtist) : '';
  const base = path.basename(filePath, path.extname(filePath));
  vars.filename = base;
  vars.file_song_name = songNameOf(base);
  const parent = path.dirname(filePath);
  vars.parent_path = path.basename(parent);
  vars.parent_parent_path = path.basename(path.dirname(parent));
  vars.null = '';
  return vars;
}

export function songNameOf(baseName: string): string {
  const withoutNumber = baseName.replace(/^\s*\d{1,3}\s*(?:[.\-_、]\s*|\s+)/u, '');
  const dash = withoutNumber.lastIndexOf(' - ');
  const song = dash >= 0 ? withoutNumber.slice(dash + 3) : withoutNumber;
  return song.trim() || baseName;
}

/** Replaces every `${variable}`; an unknown variable is a clear error naming the allowed ones. */
export function renderTemplate(template: string, vars: Record<TemplateVariable, string>): string {
  return template.replace(VARIABLE, (_m, raw: string) => {
    const name = raw.trim();
    if (!KNOWN.has(name)) {
      throw invalid('TAGSONIC_ERR_TEMPLATE_UNKNOWN_VARIABLE', `Unknown variable \${${name}}; use one of ${TEMPLATE_VARIABLES.map((v) => `\${${v}}`).join(', ')}.`, {
        variable: name,
      });
    }
    return vars[name as TemplateVariable];
  });
}

/** Checks a template's variables without rendering it (for request validation). */
export function checkTemplate(template: string): void {
  for (const m of template.matchAll(VARIABLE)) {
    const name = m[1].trim();
    if (!KNOWN.has(name)) {
      throw invalid('TAGSONIC_ERR_TEMPLATE_UNKNOWN_VARIABLE', `Unknown variable \${${name}}; use one of ${TEMPLATE_VARIABLES.map((v) => `\${${v}}`).join(', ')}.`, {
        variable: name,
      });
    }
  }
}
