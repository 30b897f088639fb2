/**
 * The system settings API (spec doc 2 §7 "System": getSysDict, UpdateSys) through the real app: GET /apimt/sys_dict/
 * and POST /apimt/update_sys/ on a real embedded store and bus. Every key of doc 2 §3 round-trips in the screen's
 * wire form (doc 2 §5), bad values are refused with their codes, only administrators change settings (with CSRF),
 * secrets are never sent back, each change is in the operation log and announced on the bus, and the readers (user
 * info, the LLM path) see a change at once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTING_KEYS, SETTINGS, SETTINGS_CHANGED, TIDY_DIMENSIONS, type SettingKey, type SettingsChanged } from '@tagsonic/core/settings';
import { DIMENSIONS } from '../plugins/tidy-folder/src/template.ts';
import { call, expectError, expectOk, login, startHarness, USER_PASSWORD, type Harness, type Session } from './api-harness.ts';

let h: Harness;
let admin: Session;
let alice: Session;
let llm: Server;
const llmSeen: Array<{ authorization?: string; model: string }> = [];

beforeAll(async () => {
  llm = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; messages: Array<{ content: string }> };
      llmSeen.push({ authorization: req.headers.authorization, model: body.model });
      const lines = JSON.parse(body.messages.at(-1)!.content) as string[];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify(lines.map((l) => `译(${l})`)) } }] }));
    });
  });
  await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
  h = await startHarness();
  admin = await login(h.app);
  alice = await login(h.app, 'alice', USER_PASSWORD);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await new Promise((resolve) => llm?.close(resolve));
});

const update = (key: string, value: unknown, as: Session = admin, extra: Record<string, unknown> = {}) =>
  call(h.app, as, 'POST', '/apimt/update_sys/', { key, value, ...extra });
const dict = async (as: Session = admin) => expectOk(await call(h.app, as, 'GET', '/apimt/sys_dict/')).data as Record<string, unknown>;

/** One value per key as the screen sends it (doc 2 §5), and what GET gives back. */
const SAMPLES: Record<SettingKey, [unknown, unknown]> = {
  save_in_metadata: ['0', false],
  save_in_db: ['0', false],
  save_in_metadata_wb: ['1', true],
  save_in_db_wb: ['0', false],
  file_list_limit: ['200', 200],
  is_record_lastfm: ['1', true],
  lastfm_user: [' rj ', 'rj'],
  lastfm_pass: ['lastfm-secret-pass', ''],
  lastfm_api_key: ['abc123DEF', 'abc123DEF'],
  lastfm_api_secret: ['lastfm-api-secret', ''],
  is_play_decode: ['1', true],
  decode_cache_num: ['0', 0],
  decode_command: ['ffmpeg -i %s -b:a %bk -f mp3 -', 'ffmpeg -i %s -b:a %bk -f mp3 -'],
  is_watch_file: ['0', false],
  is_voiceprint: ['1', true],
  is_fix_encoding: ['1', true],
  is_tran_sim: ['1', true],
  auto_mod: ['1', true],
  manual_mod: ['1', true],
  tidy_music: ['move', 'move'],
  silent_select_mode: ['hard', 'hard'],
  silence_source_list: ['kugou,netease', ['kugou', 'netease']],
  silence_modify_list: ['title,album,year', ['title', 'album', 'year']],
  silence_is_skip_tag: ['1', true],
  silence_is_folder_album: ['1', true],
  silence_music_info: ['{"scrape_rate":2.5}', { scrape_rate: 2.5 }],
  root_path: ['SORTED', 'SORTED'], // filled in beforeAll of the test: a folder inside the media root
  dir_list: ['[{"value":"genre"},{"value":"custom","value2":"${year}"}]', [{ value: 'genre' }, { value: 'custom', value2: '${year}' }]],
  is_clean_music: ['1', true],
  clean_format_priority: ['flac,wav,mp3', ['flac', 'wav', 'mp3']],
  clean_size_rule: ['larger', 'larger'],
  clean_bitrate_rule: ['smaller', 'smaller'],
  clean_sample_rule: ['larger', 'larger'],
  clean_name_rule: ['smaller', 'smaller'],
  clean_delete_rule: ['move', 'move'],
  mi_user_id: ['10086', '10086'],
  mi_password: ['mi-secret', ''],
  device_list: ['[{"name":"小爱","type":"LX06","active":true}]', [{ name: '小爱', type: 'LX06', active: true }]],
  mi_keyword: ['播放', '播放'],
  mi_timeloop: ['7', 7],
  inner_ip: ['192.168.1.5:8002', '192.168.1.5:8002'],
  mi_open: ['1', true],
  mi_play_in_pl: ['1', true],
  alist_mode: ['direct', 'direct'],
  alist_url: ['https://alist.example', 'https://alist.example'],
  alist_root_path: ['/music', '/music'],
  alist_username: ['guest', 'guest'],
  alist_password: ['alist-secret', ''],
  alist_page_size: ['50', 50],
  access_token: ['Ab3dEf7hIj9kLm1nOp2q', 'Ab3dEf7hIj9kLm1nOp2q'],
  llm_base_url: ['http://127.0.0.1:1/v1', 'http://127.0.0.1:1/v1'],
  llm_api_key: ['sk-never-shown', ''],
  llm_model_name: ['qwen2.5', 'qwen2.5'],
};
const SECRETS = ['lastfm_pass', 'lastfm_api_secret', 'mi_password', 'alist_password', 'llm_api_key'];

describe('system settings API', () => {
  it('the registry holds exactly the spec keys, its tidy levels are those the tidy action accepts', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...SETTING_KEYS].sort());
    expect([...TIDY_DIMENSIONS]).toEqual([...DIMENSIONS]);
    expect(SETTING_KEYS.filter((k) => SETTINGS[k].secret).sort()).toEqual([...SECRETS].sort());
  });

  it('sys_dict gives an administrator every key with its default before anything is saved', async () => {
    const data = await dict();
    for (const key of SETTING_KEYS) expect(data[key], key).toEqual(SETTINGS[key].secret ? '' : SETTINGS[key].default);
    expect(data).toMatchObject({ file_list_limit: 5000, is_watch_file: true, dir_list: [{ value: 'artist' }, { value: 'album' }], clean_format_priority: ['flac', 'mp3'] });
    expect(data.secrets_set).toEqual([]);
  });

  it('every key round-trips in the screen wire form; secrets are stored but never sent back', async () => {
    const events: SettingsChanged[] = [];
    const sub = h.rt.bus.subscribe<SettingsChanged>(SETTINGS_CHANGED, (_subject, e) => void events.push(e));
    const sorted = path.join(h.media, 'Sorted');
    SAMPLES.root_path = [sorted, sorted];
    try {
      for (const key of SETTING_KEYS) {
        const [sent, shown] = SAMPLES[key];
        const body = expectOk(await update(key, sent));
        expect(body.message).toBe('修改成功！');
        expect(body.data, key).toEqual({ key, value: shown, kept: false });
      }
      const res = await call(h.app, admin, 'GET', '/apimt/sys_dict/');
      for (const secret of ['lastfm-secret-pass', 'lastfm-api-secret', 'mi-secret', 'alist-secret', 'sk-never-shown']) expect(res.body).not.toContain(secret);
      const data = expectOk(res).data;
      for (const key of SETTING_KEYS) expect(data[key], key).toEqual(SAMPLES[key][1]);
      expect([...data.secrets_set].sort()).toEqual([...SECRETS].sort());
      // Stored typed, so every reader gets booleans, numbers and lists.
      const stored = await h.rt.store.collection('settings').findOne({ _id: 'system' });
      expect(stored).toMatchObject({ llm_api_key: 'sk-never-shown', mi_open: true, alist_page_size: 50, silence_source_list: ['kugou', 'netease'] });
      await expect.poll(() => events.length).toBe(SETTING_KEYS.length);
      expect(events[0]).toEqual({ key: SETTING_KEYS[0], actor: 'admin', at: expect.stringMatching(/^\d{4}-/) });
      expect(JSON.stringify(events)).not.toContain('sk-never-shown');
    } finally {
      await sub.close();
    }
  });

  it('JSON-typed values are taken as they are', async () => {
    expect(expectOk(await update('is_tran_sim', false)).data.value).toBe(false);
    expect(expectOk(await update('file_list_limit', 300)).data.value).toBe(300);
    expect(expectOk(await update('silence_source_list', ['qmusic'])).data.value).toEqual(['qmusic']);
    expect(expectOk(await update('silence_music_info', {})).data.value).toEqual({});
    expect(expectOk(await update('silence_modify_list', '')).data.value).toEqual([]);
  });

  it('an empty secret keeps the stored one; clear empties it', async () => {
    expectOk(await update('llm_api_key', 'sk-kept'));
    expect(expectOk(await update('llm_api_key', '')).data).toEqual({ key: 'llm_api_key', value: '', kept: true });
    expect((await h.rt.store.collection('settings').findOne({ _id: 'system' }))?.llm_api_key).toBe('sk-kept');
    expect(expectOk(await update('llm_api_key', '', admin, { clear: true })).data).toEqual({ key: 'llm_api_key', value: '', kept: false });
    expect((await h.rt.store.collection('settings').findOne({ _id: 'system' }))?.llm_api_key).toBe('');
    expect((await dict()).secrets_set).not.toContain('llm_api_key');
  });

  it('clear puts any key back to its default; an empty decode_command is the default command', async () => {
    expectOk(await update('file_list_limit', '10'));
    expect(expectOk(await update('file_list_limit', undefined, admin, { clear: true })).data.value).toBe(5000);
    expect(expectOk(await update('decode_command', '')).data.value).toBe('');
    expect(expectOk(await update('root_path', '')).data.value).toBe('');
    expect(await dict()).toMatchObject({ file_list_limit: 5000, decode_command: '', root_path: '' });
  });

  it('refuses unknown keys and bad values with their codes, leaving the stored value alone', async () => {
    expectError(await update('no_such_key', '1'), 400, 'TAGSONIC_ERR_SETTINGS_UNKNOWN_KEY');
    expectError(await update('__proto__', '1'), 400, 'TAGSONIC_ERR_SETTINGS_UNKNOWN_KEY');
    const bad: Array<[string, unknown]> = [
      ['is_play_decode', 'maybe'],
      ['file_list_limit', '-1'],
      ['file_list_limit', '12abc'],
      ['decode_cache_num', 'lots'],
      ['tidy_music', 'copy'],
      ['silent_select_mode', 'fuzzy'],
      ['silence_source_list', ''],
      ['silence_modify_list', 'title,mood'],
      ['silence_music_info', '{"scrape_rate":0}'],
      ['silence_music_info', '{not json'],
      ['dir_list', '[{"value":"mood"}]'],
      ['dir_list', '[{"value":"custom"}]'],
      ['clean_size_rule', 'biggest'],
      ['clean_format_priority', 'flac,ape'],
      ['clean_delete_rule', 'burn'],
      ['device_list', '[{"name":"x"}]'],
      ['mi_timeloop', '0'],
      ['inner_ip', 'http://192.168.1.5:8002'],
      ['alist_mode', 'remote'],
      ['alist_url', 'ftp://nas'],
      ['access_token', 'short'],
      ['llm_base_url', 'file:///etc/passwd'],
      ['decode_command', 'sh -c "echo hi" %s -'],
      ['lastfm_user', 42],
    ];
    const before = await dict();
    for (const [key, value] of bad) {
      const body = expectError(await update(key, value), 400, 'TAGSONIC_ERR_SETTINGS_BAD_VALUE');
      expect(body.message, `${key}=${String(value)}`).toContain(key);
    }
    expect(expectError(await update('tidy_music', 'copy'), 400).message).toBe('The value of tidy_music is not valid: must be equal to one of the allowed values ("", tidy, move).');
    expect(expectError(await update('dir_list', '[{"value":"mood"}]'), 400).message).toMatch(/dir_list is not valid: .*title, artist, album.* \(at \/0\/value\)/);
    expect(expectError(await update('decode_command', 'sh -c x %s -'), 400).message).toMatch(/decode_command is not valid: .*ffmpeg/);
    expectError(await update('root_path', '/etc'), 400, 'TAGSONIC_ERR_SETTINGS_FOLDER_OUTSIDE');
    expectError(await update('root_path', path.join(h.media, '..', '..')), 400, 'TAGSONIC_ERR_SETTINGS_FOLDER_OUTSIDE');
    expectError(await update('root_path', 'relative/folder'), 400, 'TAGSONIC_ERR_SETTINGS_FOLDER_OUTSIDE');
    expect(await dict()).toEqual(before);
    // A missing key or a second key is a malformed request, not a setting.
    expectError(await call(h.app, admin, 'POST', '/apimt/update_sys/', { value: '1' }), 400);
    expectError(await call(h.app, admin, 'POST', '/apimt/update_sys/', { key: 'mi_open', value: '1', other: 2 }), 400);
  });

  it('only administrators change settings, with the CSRF token; other users read only the speaker flag', async () => {
    expectError(await update('mi_open', '0', alice), 403, 'TAGSONIC_ERR_AUTH_ADMIN_ONLY');
    expectError(await call(h.app, { cookieOnly: admin }, 'POST', '/apimt/update_sys/', { key: 'mi_open', value: '0' }), 403, 'TAGSONIC_ERR_AUTH_CSRF');
    expectError(await call(h.app, 'none', 'GET', '/apimt/sys_dict/'), 401, 'TAGSONIC_ERR_AUTH_REQUIRED');
    expect(await dict(alice)).toEqual({ mi_play_in_pl: true, secrets_set: [] });
  });

  it('user info follows mi_play_in_pl at once', async () => {
    expectOk(await update('mi_play_in_pl', '0'));
    expect(expectOk(await call(h.app, alice, 'GET', '/user/info/')).data.sys_dict.mi_play_in_pl).toBe(0);
    expectOk(await update('mi_play_in_pl', '1'));
    expect(expectOk(await call(h.app, alice, 'GET', '/user/info/')).data.sys_dict.mi_play_in_pl).toBe(1);
  });

  it('changes are in the operation log, secrets by name only', async () => {
    expectOk(await update('alist_password', 'alist-in-log'));
    const log = expectOk(await call(h.app, admin, 'GET', `/apimt/audit_log/?action=${encodeURIComponent('修改设置')}&page_size=5`)).data;
    expect(log.count).toBeGreaterThan(SETTING_KEYS.length);
    expect(log.items[0]).toMatchObject({ user: 'admin', action: '修改设置', extra: 'alist_password（已更新）', status: 'success', task_id: null });
    expect(log.items[1]).toMatchObject({ extra: 'mi_play_in_pl = true' });
    expect(JSON.stringify(log)).not.toContain('alist-in-log');
  });

  it('the LLM path reads a change without a restart', async () => {
    expectOk(await update('llm_base_url', '', admin));
    expectError(await call(h.app, admin, 'POST', '/apimt/translation_lyc/', { lyc: '[00:01.00]Yesterday' }), 409, 'TAGSONIC_ERR_LLM_NOT_CONFIGURED');
    expectOk(await update('llm_base_url', `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`));
    expectOk(await update('llm_api_key', 'sk-local'));
    expectOk(await update('llm_model_name', 'settings-model'));
    expect(expectOk(await call(h.app, admin, 'POST', '/apimt/translation_lyc/', { lyc: '[00:01.00]Yesterday' })).data).toBe('[00:01.00]译(Yesterday)');
    expect(llmSeen.at(-1)).toEqual({ authorization: 'Bearer sk-local', model: 'settings-model' });
  });
});
