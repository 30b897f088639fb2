/**
 * The update_id3 entry for one file from the editor's state: only the fields the user changed, an
 * emptied field as ${null} (clears the tag, §5), the cover as the upload URL or ${null}, and the
 * lyrics/cover side-file options.
 */
import { CLEAR_PLACEHOLDER } from '../../../lib/constants.ts';
import { invalid } from '../../../lib/errors.ts';
import { TEXT_FIELDS } from './fields.ts';

export interface EditorOptions {
  is_save_lyrics_file: boolean;
  is_import_lyrics_file: boolean;
  is_save_album_cover: boolean;
  is_import_album_cover: boolean;
}

export type Values = Record<string, string>;

/** A year is digits (or a template that will produce them). */
export const validYear = (year: string): boolean => year.trim() === '' || /^\d{1,4}$/.test(year.trim()) || year.includes('${');

export function buildUpdate(input: {
  filePath: string;
  original: Values;
  values: Values;
  /** undefined: unchanged; null: removed; a string: the new picture's URL. */
  cover: string | null | undefined;
  options: EditorOptions;
}): Record<string, unknown> {
  const { original, values } = input;
  if (!validYear(values.year ?? '')) throw invalid('TAGSONIC_ERR_EDITOR_YEAR', 'The year must be a number, like 2024.');
  const entry: Record<string, unknown> = { file_full_path: input.filePath };
  for (const field of [...TEXT_FIELDS, 'lyrics']) {
    const before = original[field] ?? '';
    const now = values[field] ?? '';
    if (now === before) continue;
    if (field === 'filename') {
      // A file cannot lose its name; an emptied name box means "keep it".
      if (now.trim() !== '') entry.filename = now.trim();
      continue;
    }
    entry[field] = now.trim() === '' ? CLEAR_PLACEHOLDER : now;
  }
  if (input.cover === null) entry.album_img = CLEAR_PLACEHOLDER;
  else if (typeof input.cover === 'string') entry.album_img = input.cover;
  Object.assign(entry, input.options);
  return entry;
}
