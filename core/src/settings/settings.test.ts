import { describe, expect, it } from 'vitest';
import { SETTING_KEYS, SETTINGS } from './registry.ts';
import { publicSettings, settingsOf, withoutSecrets } from './settings.ts';

describe('settingsOf', () => {
  it('fills every key with its default when nothing is stored', () => {
    const s = settingsOf(null);
    for (const key of SETTING_KEYS) expect(s[key], key).toEqual(SETTINGS[key].default);
  });

  it('reads values stored in the wire form as typed, and a value no form makes valid as the default', () => {
    const s = settingsOf({
      is_play_decode: '1',
      mi_open: 'true',
      decode_cache_num: '12',
      silence_source_list: 'kugou, netease',
      dir_list: '[{"value":"genre"}]',
      file_list_limit: -3,
      tidy_music: 'copy',
      silence_music_info: '{broken',
    });
    expect(s).toMatchObject({ is_play_decode: true, mi_open: true, decode_cache_num: 12, silence_source_list: ['kugou', 'netease'], dir_list: [{ value: 'genre' }] });
    expect(s).toMatchObject({ file_list_limit: 5000, tidy_music: '', silence_music_info: { scrape_rate: 1 } });
  });

  it('hands out copies of the defaults, so a reader changing its copy changes nobody else\'s', () => {
    settingsOf(null).dir_list.push({ value: 'genre' });
    expect(settingsOf(null).dir_list).toEqual([{ value: 'artist' }, { value: 'album' }]);
  });

  it('hides secrets and shows non-administrators only the public keys', () => {
    const s = settingsOf({ llm_api_key: 'sk-1', mi_password: '', mi_play_in_pl: '1' });
    const { values, secretsSet } = withoutSecrets(s);
    expect(values.llm_api_key).toBe('');
    expect(secretsSet).toEqual(['llm_api_key']);
    expect(publicSettings(s)).toEqual({ mi_play_in_pl: true });
  });
});
