import { describe, expect, it } from 'vitest';
import { genreRulesDefaults, genreRulesPayload, missingDefaults, missingPayload } from './missing-task.ts';
import { folderOf, fileNameOf } from './folder-of.ts';
import { periodFromSearch } from './period.ts';

describe('the missing-items scrape form', () => {
  it('defaults to simple mode, qmusic then netease, only the missing field', () => {
    expect(missingDefaults('cover')).toEqual({ select_mode: 'simple', source_list: ['qmusic', 'netease'], modify_list: ['album_img'], is_skip_tag: false, is_folder_album: false });
    expect(missingPayload('lyrics', missingDefaults('lyrics'))).toEqual({ miss_mode: 'lyrics', select_mode: 'simple', source_list: ['qmusic', 'netease'], modify_list: ['lyrics'], is_skip_tag: false, is_folder_album: false });
  });
  it('names what is missing in the form', () => {
    expect(missingPayload('year', { ...missingDefaults('year'), source_list: [] })).toBe('请至少选择一个数据源');
    expect(missingPayload('year', { ...missingDefaults('year'), modify_list: [] })).toBe('请至少选择一个字段');
  });
});

describe('the genre rules form', () => {
  it('sends the filled rules trimmed, blank rows dropped', () => {
    const form = { ...genreRulesDefaults(), artistRules: [{ artist: ' 周杰伦 ', genre: '流行' }, { artist: '', genre: '' }] };
    expect(genreRulesPayload(form)).toEqual({ miss_mode: 'genre', rule_form: { artistRules: [{ artist: '周杰伦', genre: '流行' }], useAlbumMajorityGenre: true, useAI: false } });
  });
  it('refuses a half-filled row and a form without any rule', () => {
    expect(genreRulesPayload({ ...genreRulesDefaults(), artistRules: [{ artist: 'A', genre: '' }] })).toBe('每条规则都要填写艺术家和流派');
    expect(genreRulesPayload({ artistRules: [{ artist: '', genre: '' }], useAlbumMajorityGenre: false, useAI: false })).toBe('请至少添加一条规则');
    expect(genreRulesPayload({ artistRules: [], useAlbumMajorityGenre: false, useAI: true })).toEqual({ miss_mode: 'genre', rule_form: { artistRules: [], useAlbumMajorityGenre: false, useAI: true } });
  });
});

describe('small helpers', () => {
  it('finds a file’s folder and name', () => {
    expect(folderOf('/music/a/b.flac')).toBe('/music/a');
    expect(folderOf('/b.flac')).toBe('/');
    expect(folderOf('C:\\m\\x.mp3')).toBe('C:\\m');
    expect(fileNameOf('/music/a/b.flac')).toBe('b.flac');
  });
  it('reads the period from the address, week by default', () => {
    expect(periodFromSearch('period=month')).toBe('month');
    expect(periodFromSearch('?period=year')).toBe('year');
    expect(periodFromSearch('period=decade')).toBe('week');
    expect(periodFromSearch('')).toBe('week');
  });
});
