/**
 * The forms' values and the payloads they post, field for field as the spec's §7 table names them, with
 * the defaults of §9. Pure, so the wire shape is tested without a browser.
 */
import type { SelectItem } from '../api/types.ts';

/** The ticked entries: the folder shown and the entries ticked in it (the `select_data` of every batch call). */
export interface BatchSelection {
  file_full_path: string;
  select_data: SelectItem[];
}

/** Tag fields a batch edit, replace, encoding repair or conversion may touch (§9 "Batch modify fields"). */
export const MODIFY_FIELDS = ['title', 'artist', 'album', 'albumartist', 'album_img', 'year', 'lyrics', 'is_save_lyrics_file', 'discnumber', 'tracknumber', 'composer', 'lyricist', 'language'] as const;
/** Text fields for replace, encoding repair and sim/trad (the text-valued batch fields, plus genre and comment). */
export const TEXT_FIELDS = ['title', 'artist', 'album', 'albumartist', 'lyrics', 'composer', 'lyricist', 'genre', 'comment'] as const;
export const DEFAULT_AUTO_MODIFY = ['artist', 'album', 'album_img', 'year', 'lyrics'];
export const DEFAULT_TEXT_MODIFY = ['title', 'artist', 'album', 'albumartist'];

/** Batch sources in the batch order of §9 (qmusic then netease by default). */
export const BATCH_SOURCES = ['netease', 'migu', 'qmusic', 'kugou', 'kuwo', 'itunes', 'spotify', 'musicbrainz'] as const;
export const DEFAULT_BATCH_SOURCES = ['qmusic', 'netease'];
export const SELECT_MODES = ['simple', 'normal', 'hard'] as const;
export const DEFAULT_SCRAPE_RATE = 1;
export const DEFAULT_IMPORT_RATE = 10;

// ---- Manual edit and replay gain (batchUpdateId3) ----
/** Tag fields of the manual edit; an empty one is left alone, `${var}` templates and `${null}` pass as typed. */
export const MANUAL_TAG_FIELDS = ['title', 'artist', 'album', 'albumartist', 'genre', 'year', 'tracknumber', 'discnumber', 'composer', 'lyricist', 'language', 'album_type', 'comment', 'album_img', 'lyrics'] as const;
export type ManualTagField = (typeof MANUAL_TAG_FIELDS)[number];
export const MANUAL_FLAGS = ['is_save_lyrics_file', 'is_import_lyrics_file', 'is_translate_lyrics', 'is_save_album_cover', 'is_import_album_cover'] as const;
export type ManualFlag = (typeof MANUAL_FLAGS)[number];

export interface ManualForm {
  tags: Partial<Record<ManualTagField, string>>;
  flags: Record<ManualFlag, boolean>;
}

export const manualDefaults = (): ManualForm => ({
  tags: {},
  flags: { is_save_lyrics_file: false, is_import_lyrics_file: false, is_translate_lyrics: false, is_save_album_cover: false, is_import_album_cover: false },
});

export function manualPayload(sel: BatchSelection, form: ManualForm) {
  const tags = Object.fromEntries(Object.entries(form.tags).filter(([, v]) => typeof v === 'string' && v !== ''));
  return { ...sel, music_info: { ...tags, ...form.flags }, is_regainer: false };
}

/** Replay gain is the manual edit's route with nothing but `is_regainer` (§7). */
export function regainPayload(sel: BatchSelection) {
  return { ...sel, music_info: {}, is_regainer: true };
}

// ---- Auto edit (batchAutoUpdateId3) ----
export interface AutoForm {
  select_mode: (typeof SELECT_MODES)[number];
  source_list: string[];
  is_skip_tag: boolean;
  is_folder_album: boolean;
  scrape_rate: number;
  modify_list: string[];
}

export const autoDefaults = (): AutoForm => ({
  select_mode: 'simple',
  source_list: [...DEFAULT_BATCH_SOURCES],
  is_skip_tag: false,
  is_folder_album: false,
  scrape_rate: DEFAULT_SCRAPE_RATE,
  modify_list: [...DEFAULT_AUTO_MODIFY],
});

export function autoPayload(sel: BatchSelection, f: AutoForm) {
  return {
    ...sel,
    music_info: { select_mode: f.select_mode, source_list: f.source_list, is_skip_tag: f.is_skip_tag, is_folder_album: f.is_folder_album, scrape_rate: f.scrape_rate },
    modify_list: f.modify_list,
  };
}

// ---- Tidy (tidyFolder) ----
export const TIDY_DIMENSIONS = ['title', 'artist', 'album', 'album_artist', 'album_type', 'genre', 'language', 'track_number', 'disc_number', 'comment', 'custom'] as const;
export const CLEAN_FORMATS = ['flac', 'mp3', 'wav', 'wma', 'ogg'] as const;
export const RULE_OPTIONS = ['larger', 'smaller', 'none'] as const;
export type Rule = (typeof RULE_OPTIONS)[number];
export const DEFAULT_TIDY_ROOT = '/app/media/';

export interface DirLevel {
  value: (typeof TIDY_DIMENSIONS)[number];
  /** The custom level's variable template, e.g. `${year}`. */
  value2?: string;
}

export interface TidyForm {
  root_path: string;
  dir_list: DirLevel[];
  rule_form: {
    is_clean_music: boolean;
    clean_format_priority: string[];
    clean_size_rule: Rule;
    clean_bitrate_rule: Rule;
    clean_sample_rule: Rule;
    clean_name_rule: Rule;
    clean_delete_rule: 'delete' | 'move';
  };
}

export const tidyDefaults = (rootPath: string = DEFAULT_TIDY_ROOT): TidyForm => ({
  root_path: rootPath,
  dir_list: [{ value: 'artist' }, { value: 'album' }],
  rule_form: {
    is_clean_music: false,
    clean_format_priority: ['flac', 'mp3'],
    clean_size_rule: 'smaller',
    clean_bitrate_rule: 'none',
    clean_sample_rule: 'none',
    clean_name_rule: 'none',
    clean_delete_rule: 'delete',
  },
});

export function tidyPayload(sel: BatchSelection, f: TidyForm) {
  // value2 only travels with the custom level that uses it.
  const dir_list = f.dir_list.map((d) => (d.value === 'custom' ? { value: d.value, value2: d.value2 ?? '' } : { value: d.value }));
  return { ...sel, root_path: f.root_path.trim(), dir_list, rule_form: { ...f.rule_form } };
}

// ---- Split metadata (splitFilename) ----
export const EXTRACT_FIELDS = ['filename', 'title', 'lyrics'] as const;
export interface SplitForm {
  rule_list: string[];
  extract_field: (typeof EXTRACT_FIELDS)[number];
}
export const splitDefaults = (): SplitForm => ({ rule_list: ['(?<artist>.+?) - (?<title>.+)'], extract_field: 'filename' });
export function splitPayload(sel: BatchSelection, f: SplitForm) {
  return { ...sel, rule_list: f.rule_list.filter((r) => r.trim() !== ''), extract_field: f.extract_field };
}

// ---- Replace text (replaceText) and encoding repair (fixEncoding) ----
export interface ReplacePair {
  before: string;
  after: string;
}
export interface ReplaceForm {
  replace_text_list: ReplacePair[];
  modify_list: string[];
  replace_mode: 'text' | 'regex';
}
export const replaceDefaults = (): ReplaceForm => ({ replace_text_list: [{ before: '', after: '' }], modify_list: [...DEFAULT_TEXT_MODIFY], replace_mode: 'text' });
/** Rows whose `before` is empty replace nothing and are left out. */
export const usablePairs = (list: ReplacePair[]): ReplacePair[] => list.filter((p) => p.before !== '');
export function replacePayload(sel: BatchSelection, f: ReplaceForm) {
  return { ...sel, replace_text_list: usablePairs(f.replace_text_list), modify_list: f.modify_list, replace_mode: f.replace_mode };
}

export interface EncodingForm {
  /** Extra fixed replacements applied after the repair (may be empty). */
  replace_text_list: ReplacePair[];
  modify_list: string[];
}
export const encodingDefaults = (): EncodingForm => ({ replace_text_list: [], modify_list: [...DEFAULT_TEXT_MODIFY] });
export function encodingPayload(sel: BatchSelection, f: EncodingForm) {
  return { ...sel, replace_text_list: usablePairs(f.replace_text_list), modify_list: f.modify_list };
}

// ---- Format conversion (formatMusic) and track split (splitCueMusic) ----
export const MUSIC_TYPES = ['keep', 'mp3', 'wav', 'flac', 'wma', 'ogg'] as const;
export const BIT_RATES = [-1, 32, 64, 96, 128, 160, 192, 224, 256, 320, 'custom'] as const;
export const SAMPLE_RATES = [-1, 11025, 22050, 44100, 48000, 'custom'] as const;
export interface ConvertForm {
  music_type: (typeof MUSIC_TYPES)[number];
  bit_rate: (typeof BIT_RATES)[number];
  bit_rate_custom: number | null;
  sample_rate: (typeof SAMPLE_RATES)[number];
  sample_rate_custom: number | null;
  is_keep_source: boolean;
}
export const convertDefaults = (): ConvertForm => ({ music_type: 'mp3', bit_rate: 320, bit_rate_custom: null, sample_rate: -1, sample_rate_custom: null, is_keep_source: true });
export function convertPayload(sel: BatchSelection, f: ConvertForm) {
  return {
    ...sel,
    music_type: f.music_type,
    bit_rate: f.bit_rate,
    bit_rate_custom: f.bit_rate === 'custom' ? f.bit_rate_custom : null,
    sample_rate: f.sample_rate,
    sample_rate_custom: f.sample_rate === 'custom' ? f.sample_rate_custom : null,
    is_keep_source: f.is_keep_source,
  };
}

export const CUE_FORMATS = ['flac', 'mp3', 'wav', 'ogg'] as const;
export interface CueForm {
  target_format: (typeof CUE_FORMATS)[number];
  is_delete_source: boolean;
}
export const cueDefaults = (): CueForm => ({ target_format: 'flac', is_delete_source: false });
export const cuePayload = (sel: BatchSelection, f: CueForm) => ({ ...sel, is_delete_source: f.is_delete_source, target_format: f.target_format });

// ---- The modals ----
export const DELETE_MODES = ['null', 'null_music', 'all'] as const;
export const removeNullPayload = (sel: BatchSelection, delete_mode: (typeof DELETE_MODES)[number]) => ({ ...sel, delete_mode });

export interface ImportForm {
  is_skip_exist: boolean;
  import_rate: number;
}
export const importDefaults = (): ImportForm => ({ is_skip_exist: true, import_rate: DEFAULT_IMPORT_RATE });
export const importPayload = (sel: BatchSelection, f: ImportForm) => ({ ...sel, music_info: {}, is_skip_exist: f.is_skip_exist, import_rate: f.import_rate });

export const duplicatePayload = (sel: BatchSelection, is_acoustid: boolean) => ({ ...sel, is_acoustid });

export interface StrmForm {
  is_sign: boolean;
  save_dir: string;
}
export const strmDefaults = (): StrmForm => ({ is_sign: false, save_dir: '' });
export const strmPayload = (sel: BatchSelection, f: StrmForm) => ({ ...sel, is_sign: f.is_sign, save_dir: f.save_dir.trim() });

export type SimMode = 'sim2trad' | 'trad2sim';
export const simplifiedPayload = (sel: BatchSelection, mode: SimMode, modify_list: string[]) => ({ mode, modify_list, ...sel });
