/**
 * The manual edit's dialog (spec doc 1 §7 batchUpdateId3: music_info holds the tag fields and the flags), checked
 * once when the task is planned so a bad dialog refuses the task instead of failing every item alike.
 */
import { PluginError, type Artwork, type JsonValue, type TrackTags } from '@tagsonic/sdk';

/** The batch side bar's fields (dashboard MANUAL_TAG_FIELDS), album_img aside. */
export const TEXT_FIELDS = ['title', 'artist', 'album', 'albumartist', 'genre', 'year', 'composer', 'lyricist', 'language', 'album_type', 'comment', 'lyrics'] as const;
export const NUMBER_FIELDS = ['tracknumber', 'discnumber'] as const;
export type EditField = (typeof TEXT_FIELDS)[number] | (typeof NUMBER_FIELDS)[number];

/** The placeholder the dashboard sends for an emptied field: the tag is cleared. */
export const CLEAR = '${null}';

export interface ManualOptions {
  /** Field → value as typed: CLEAR, a template with ${…}, or the text itself. */
  fields: Partial<Record<EditField, string>>;
  /** undefined: leave the cover; null: remove it; else this picture. */
  artwork?: Artwork | null;
  importLyrics: boolean;
  importCover: boolean;
  saveLyrics: boolean;
  saveCover: boolean;
  /** 翻译歌词: the lyrics (as this edit leaves them) translated by the configured language model. */
  translateLyrics: boolean;
}

const invalid = (message: string) => new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', message);

export function parseOptions(options: Record<string, JsonValue>): ManualOptions {
  const info = options.music_info ?? {};
  if (typeof info !== 'object' || info === null || Array.isArray(info)) throw invalid('music_info must be an object of tag fields and options');
  const flag = (key: string) => info[key] === true;
  const fields: ManualOptions['fields'] = {};
  for (const field of [...TEXT_FIELDS, ...NUMBER_FIELDS]) {
    const value = info[field];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string' && typeof value !== 'number') throw invalid(`music_info.${field} must be text`);
    fields[field] = String(value);
  }
  const out: ManualOptions = {
    fields,
    importLyrics: flag('is_import_lyrics_file'),
    importCover: flag('is_import_album_cover'),
    saveLyrics: flag('is_save_lyrics_file'),
    saveCover: flag('is_save_album_cover'),
    translateLyrics: flag('is_translate_lyrics'),
  };
  const img = info.album_img;
  if (typeof img === 'string' && img !== '') out.artwork = img === CLEAR ? null : pictureOf(img);
  else if (img !== undefined && img !== null && img !== '') throw invalid('music_info.album_img must be text');
  if (Object.keys(fields).length === 0 && out.artwork === undefined && !out.importLyrics && !out.importCover && !out.saveLyrics && !out.saveCover && !out.translateLyrics) {
    throw invalid('nothing to change: fill in a field or tick an option');
  }
  return out;
}

/**
 * The task's options with an item's own fields over its music_info: the host plans per-track values when one edit
 * means different text per track (修改艺术家 renames one artist inside "A/B", 删除流派 drops one genre of several).
 * An item's `data.music_info` holds tag fields only.
 */
export function withItemFields(options: Record<string, JsonValue>, data: JsonValue | undefined): Record<string, JsonValue> {
  const own = data !== null && typeof data === 'object' && !Array.isArray(data) ? data.music_info : undefined;
  if (own === undefined || own === null || typeof own !== 'object' || Array.isArray(own)) return options;
  const info = options.music_info !== null && typeof options.music_info === 'object' && !Array.isArray(options.music_info) ? options.music_info : {};
  const fields: Record<string, JsonValue> = {};
  for (const field of [...TEXT_FIELDS, ...NUMBER_FIELDS]) if (own[field] !== undefined) fields[field] = own[field]!;
  return { ...options, music_info: { ...info, ...fields } };
}

/** The filled-in fields as entries. */
export const tagsOf = (fields: ManualOptions['fields']): Array<[EditField, string]> => Object.entries(fields) as Array<[EditField, string]>;

const DATA_URL = /^data:image\/(jpeg|jpg|png);base64,([A-Za-z0-9+/=\s]+)$/;

/** A cover typed into the batch dialog: a data: URL of a JPEG or PNG picture. */
function pictureOf(img: string): Artwork {
  const m = DATA_URL.exec(img);
  if (!m) {
    throw invalid('music_info.album_img in a batch edit must be ${null} (remove the covers) or a data: URL of a JPEG or PNG picture; tick 导入封面 to use each folder\'s cover.jpg');
  }
  const data = base64(m[2]!.replace(/\s+/g, ''));
  const jpeg = data[0] === 0xff && data[1] === 0xd8;
  const png = data[0] === 0x89 && data[1] === 0x50 && data[2] === 0x4e && data[3] === 0x47;
  if (!jpeg && !png) throw invalid('music_info.album_img is not a JPEG or PNG picture');
  return { mime: jpeg ? 'image/jpeg' : 'image/png', data };
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 → bytes (the sandbox has no atob/Buffer). */
export function base64(text: string): Uint8Array {
  const clean = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let n = 0;
  for (const ch of clean) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) throw invalid('music_info.album_img: the data: URL is not base64');
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (value >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}

/** A number field's text → the number and its total ("3/12"), or why not. */
export function numberOf(field: EditField, text: string): { value: number; total: number | null } {
  const m = /^\s*(\d{1,4})\s*(?:\/\s*(\d{1,4})\s*)?$/.exec(text);
  if (!m) throw invalid(`${field} must be a number (or n/total), not "${text}"`);
  return { value: Number(m[1]), total: m[2] ? Number(m[2]) : null };
}

export type Tags = Partial<TrackTags>;
