/**
 * The /progress task forms as plain data (spec doc 2 §2 "Progress", §3 "Genre rules", §7 missingMusicTask and
 * ruleTagTask): defaults, the check that names what is wrong (an i18n key), and the payload the route takes.
 */
import { DEFAULT_BATCH_SOURCES, type SELECT_MODES } from '../../batch/lib/payloads.ts';
import type { MissKind } from '../api/types.ts';

export type ScrapeKind = Exclude<MissKind, 'genre'>;

/** The field an auto scrape writes to fill each missing kind (the modify list's default). */
export const FILL_FIELD: Record<ScrapeKind, string> = { lyrics: 'lyrics', cover: 'album_img', album: 'album', artist: 'artist', year: 'year' };

export interface MissingForm {
  select_mode: (typeof SELECT_MODES)[number];
  source_list: string[];
  modify_list: string[];
  is_skip_tag: boolean;
  is_folder_album: boolean;
}

/** Mode simple, sources qmusic then netease, only the missing field modified (spec doc 2 §2 defaults). */
export const missingDefaults = (kind: ScrapeKind): MissingForm => ({
  select_mode: 'simple',
  source_list: [...DEFAULT_BATCH_SOURCES],
  modify_list: [FILL_FIELD[kind]],
  is_skip_tag: false,
  is_folder_album: false,
});

/** The missing_music_task body, or what is wrong with the form. */
export function missingPayload(kind: ScrapeKind, form: MissingForm): object | string {
  if (form.source_list.length === 0) return '请至少选择一个数据源';
  if (form.modify_list.length === 0) return '请至少选择一个字段';
  return { miss_mode: kind, ...form, source_list: [...form.source_list], modify_list: [...form.modify_list] };
}

export interface ArtistRule {
  artist: string;
  genre: string;
}

export interface GenreRulesForm {
  artistRules: ArtistRule[];
  useAlbumMajorityGenre: boolean;
  useAI: boolean;
}

export const genreRulesDefaults = (): GenreRulesForm => ({ artistRules: [{ artist: '', genre: '' }], useAlbumMajorityGenre: true, useAI: false });

/**
 * The rule_tag body, or what is wrong: blank rows are dropped, a row with only one side filled is an error (it
 * would be lost silently), and at least one rule must remain (the server refuses an empty rule form too).
 */
export function genreRulesPayload(form: GenreRulesForm): object | string {
  const rows = form.artistRules.map((r) => ({ artist: r.artist.trim(), genre: r.genre.trim() })).filter((r) => r.artist || r.genre);
  if (rows.some((r) => !r.artist || !r.genre)) return '每条规则都要填写艺术家和流派';
  if (!rows.length && !form.useAlbumMajorityGenre && !form.useAI) return '请至少添加一条规则';
  return { miss_mode: 'genre', rule_form: { artistRules: rows, useAlbumMajorityGenre: form.useAlbumMajorityGenre, useAI: form.useAI } };
}
