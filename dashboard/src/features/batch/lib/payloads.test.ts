import { describe, expect, it } from 'vitest';
import {
  autoDefaults,
  autoPayload,
  convertDefaults,
  convertPayload,
  manualDefaults,
  manualPayload,
  regainPayload,
  replaceDefaults,
  replacePayload,
  simplifiedPayload,
  tidyDefaults,
  tidyPayload,
} from './payloads.ts';

const sel = { file_full_path: '/app/media/lib', select_data: [{ icon: 'icon-folder', name: 'A', title: 'A' }] };

describe('batch payloads (spec doc 1 §7, defaults §9)', () => {
  it('manual edit sends only the filled tag fields, the lyric/cover flags, and is_regainer false; replay gain is the same route with is_regainer', () => {
    const form = manualDefaults();
    form.tags = { artist: '${first_artist}', album: '', year: '${null}' };
    form.flags.is_save_lyrics_file = true;
    expect(manualPayload(sel, form)).toEqual({
      ...sel,
      music_info: { artist: '${first_artist}', year: '${null}', is_save_lyrics_file: true, is_import_lyrics_file: false, is_translate_lyrics: false, is_save_album_cover: false, is_import_album_cover: false },
      is_regainer: false,
    });
    expect(regainPayload(sel)).toEqual({ ...sel, music_info: {}, is_regainer: true });
  });

  it('auto edit nests the lookup options in music_info with the defaults simple, qmusic then netease, 1/s', () => {
    expect(autoPayload(sel, autoDefaults())).toEqual({
      ...sel,
      music_info: { select_mode: 'simple', source_list: ['qmusic', 'netease'], is_skip_tag: false, is_folder_album: false, scrape_rate: 1 },
      modify_list: ['artist', 'album', 'album_img', 'year', 'lyrics'],
    });
  });

  it('tidy sends value2 only with a custom level and the clean-music defaults', () => {
    const form = tidyDefaults('/music/');
    form.dir_list.push({ value: 'custom', value2: '${year}' }, { value: 'genre', value2: 'stale' });
    const p = tidyPayload(sel, form);
    expect(p.root_path).toBe('/music/');
    expect(p.dir_list).toEqual([{ value: 'artist' }, { value: 'album' }, { value: 'custom', value2: '${year}' }, { value: 'genre' }]);
    expect(p.rule_form).toEqual({
      is_clean_music: false,
      clean_format_priority: ['flac', 'mp3'],
      clean_size_rule: 'smaller',
      clean_bitrate_rule: 'none',
      clean_sample_rule: 'none',
      clean_name_rule: 'none',
      clean_delete_rule: 'delete',
    });
  });

  it('replace text drops empty rows; conversion sends custom values only when custom is chosen', () => {
    const r = replaceDefaults();
    r.replace_text_list = [{ before: 'feat.', after: 'ft.' }, { before: '', after: 'x' }];
    expect(replacePayload(sel, r)).toEqual({ ...sel, replace_text_list: [{ before: 'feat.', after: 'ft.' }], modify_list: ['title', 'artist', 'album', 'albumartist'], replace_mode: 'text' });
    const c = { ...convertDefaults(), bit_rate_custom: 999, sample_rate: 'custom' as const, sample_rate_custom: 96000 };
    expect(convertPayload(sel, c)).toEqual({ ...sel, music_type: 'mp3', bit_rate: 320, bit_rate_custom: null, sample_rate: 'custom', sample_rate_custom: 96000, is_keep_source: true });
    expect(simplifiedPayload(sel, 'trad2sim', ['title'])).toEqual({ mode: 'trad2sim', modify_list: ['title'], ...sel });
  });
});
