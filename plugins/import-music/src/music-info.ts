/**
 * `music_info` of the importMusicIn payload: default tag values for the imported songs. A value fills the field
 * only where the file has none (an import adds to the collection; it does not overwrite what the files say).
 * The dialog sends `{}` (nothing to fill); other clients may send, say, `{ genre: 'Jazz', albumartist: 'Various Artists' }`.
 * Switches of the batch edit's payload (`is_save_lyrics_file`, …: booleans) are not tags and are ignored; an
 * empty value means no default; a name that is no tag field is refused before any file is touched.
 */
import { PluginError, type JsonValue, type TrackTags } from '@tagsonic/sdk';

/** The text fields a default can fill (the replace action's set minus lyrics: a default lyric is nobody's lyric). */
export const DEFAULT_FIELDS = [
  'title', 'artist', 'album', 'albumartist', 'genre', 'language', 'year', 'comment', 'description', 'composer', 'lyricist', 'album_type',
] as const;
export type DefaultField = (typeof DEFAULT_FIELDS)[number];

const MAX_CHARS = 1000;

export function defaultsOf(value: JsonValue | undefined): Partial<Record<DefaultField, string>> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'music_info must be an object of default tag values');
  const out: Partial<Record<DefaultField, string>> = {};
  for (const [key, raw] of Object.entries(value)) {
    if (typeof raw === 'boolean' || raw === null) continue;
    if (!(DEFAULT_FIELDS as readonly string[]).includes(key)) {
      throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `music_info.${key} is not a tag an import can fill (one of ${DEFAULT_FIELDS.join(', ')})`);
    }
    if (typeof raw !== 'string' && typeof raw !== 'number') throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `music_info.${key} must be text`);
    const text = String(raw).trim();
    if (text.length > MAX_CHARS) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `music_info.${key} is longer than ${MAX_CHARS} characters`);
    if (text) out[key as DefaultField] = text;
  }
  return out;
}

/** The defaults this file lacks: its tag is absent or blank. */
export function missingOf(track: Partial<TrackTags>, defaults: Partial<Record<DefaultField, string>>): Partial<Record<DefaultField, string>> {
  const fill: Partial<Record<DefaultField, string>> = {};
  for (const [field, value] of Object.entries(defaults) as Array<[DefaultField, string]>) {
    const have = track[field];
    if (have === null || have === undefined || String(have).trim() === '') fill[field] = value;
  }
  return fill;
}
