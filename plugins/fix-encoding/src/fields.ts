/**
 * `modify_list`: which tag fields a text action changes. The dialogs send the spec's batch field list, which
 * also names things that are not text (`album_img`, `is_save_lyrics_file`, track and disc numbers): those are
 * ignored, so the same list can be sent to every action. A name that is no field at all is refused.
 */
import { PluginError, type JsonValue } from '@tagsonic/sdk';

/** The text tag fields, by the spec's names (`TrackTags` minus numbers and artwork). */
export const TEXT_FIELDS = [
  'title', 'artist', 'album', 'albumartist', 'genre', 'language', 'year', 'lyrics', 'comment', 'description',
  'composer', 'lyricist', 'album_type',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/** In the spec's batch field lists, but not text: accepted and left alone. */
const NOT_TEXT = new Set(['album_img', 'artwork', 'is_save_lyrics_file', 'tracknumber', 'totaltracks', 'discnumber', 'totaldiscs', 'filename']);

/**
 * The text fields named by `modify_list`, in the canonical order, each once; `fallback` when the list is absent.
 * Throws `TAGSONIC_ERR_PLUGIN_INVALID` for a list that is not strings, names an unknown field, or has no text field.
 */
export function textFieldsOf(value: JsonValue | undefined, fallback: readonly TextField[]): TextField[] {
  if (value === undefined || value === null) return [...fallback];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'modify_list must be a list of tag field names');
  }
  const names = new Set(value as string[]);
  const unknown = [...names].filter((n) => !(TEXT_FIELDS as readonly string[]).includes(n) && !NOT_TEXT.has(n));
  if (unknown.length) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `modify_list: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a tag field' : 'are not tag fields'}`);
  const fields = TEXT_FIELDS.filter((f) => names.has(f));
  if (!fields.length) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `modify_list names no text field (choose among ${TEXT_FIELDS.join(', ')})`);
  return fields;
}
