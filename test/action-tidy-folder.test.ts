/**
 * plugins/tidy-folder (整理文件) through loadPlugin on real files: items per source folder, tracks moved to
 * root/levels…/name with their .lrc and the folder's cover, hostile tag values (`../../x`, `/abs`, `CON`, `a:b`,
 * 300-byte and NUL-containing names) kept inside the root as safe names, a collision never overwriting (the track
 * takes `name (2)`), a dry run that touches nothing and lists exactly the moves the real run makes. Checked by file
 * listing, file bytes and ffprobe (an independent reader).
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio, probeTags } from './support/audio.ts';
import { listFiles, openFileActionHost, type FileActionHost } from './support/file-actions.ts';
import { numbered, sanitizeName, utf8Length } from '../plugins/tidy-folder/src/names.ts';
import { levelValue } from '../plugins/tidy-folder/src/template.ts';
import { loserOf, parseCleanRules, songIdentity } from '../plugins/tidy-folder/src/clean.ts';

let host: FileActionHost;
const at = (...parts: string[]) => path.join(host.media, ...parts);
const LONG = 'é'.repeat(150); // 300 bytes of UTF-8

beforeAll(async () => {
  host = await openFileActionHost();
  await mkdir(at('Incoming', 'A'), { recursive: true });
  await mkdir(at('Incoming', 'B'), { recursive: true });
  await mkdir(at('Library', 'Tester', 'Alpha'), { recursive: true });
  await makeAudio(at('Incoming', 'A', '01.flac'), { tags: { title: 'Tone', artist: 'Tester', album: 'Alpha', track: '1' } });
  await writeFile(at('Incoming', 'A', '01.lrc'), '[00:00.00]Tone');
  await writeFile(at('Incoming', 'A', 'cover.jpg'), 'jpeg bytes');
  await makeAudio(at('Incoming', 'A', 'hostile.mp3'), { tags: { title: 'CON', artist: '../../x', album: '/abs' } });
  await makeAudio(at('Incoming', 'B', 'colon.flac'), { tags: { title: 'a:b', artist: 'a:b', album: LONG } });
  await writeFile(at('Incoming', 'B', 'notes.txt'), 'not audio');
  // Already in the library under the name the first track wants: must survive byte for byte.
  await makeAudio(at('Library', 'Tester', 'Alpha', '01.flac'), { freq: 660, tags: { title: 'Other', artist: 'Tester', album: 'Alpha' } });
}, 60_000);

afterAll(async () => host?.close());

describe('tidy-folder names', () => {
  it('hostile values become one safe segment', () => {
    expect(sanitizeName('../../x')).toBe('_._.._x');
    expect(sanitizeName('..')).toBe('_');
    expect(sanitizeName('.hidden')).toBe('_hidden');
    expect(sanitizeName('.tagsonic-trash')).toBe('_tagsonic-trash');
    expect(sanitizeName('/abs')).toBe('_abs');
    expect(sanitizeName('CON')).toBe('_CON');
    expect(sanitizeName('con.flac')).toBe('_con.flac');
    expect(sanitizeName('a:b')).toBe('a_b');
    expect(sanitizeName('nul\u0000byte')).toBe('nul_byte');
    expect(sanitizeName('')).toBe('_');
    expect(utf8Length(sanitizeName(LONG))).toBe(254);
    expect(utf8Length(sanitizeName(`${'字'.repeat(100)}.flac`))).toBeLessThanOrEqual(255);
    expect(sanitizeName(`${'字'.repeat(100)}.flac`).endsWith('.flac')).toBe(true);
    expect(numbered('01.flac', 2)).toBe('01 (2).flac');
  });

  it('levels: the spec dimensions, fallbacks for missing tags, custom templates', () => {
    const tags = { title: null, artist: '周杰伦/Lara', album: null, albumartist: null, album_type: null, genre: 'Pop', language: null,
      tracknumber: 3, discnumber: null, comment: null, year: '2003', composer: null, lyricist: null, lyrics: null };
    expect(levelValue({ value: 'artist' }, '/m/x/03.flac', tags)).toBe('周杰伦/Lara');
    expect(levelValue({ value: 'album' }, '/m/x/03.flac', tags)).toBe('未知专辑');
    expect(levelValue({ value: 'title' }, '/m/x/03.flac', tags)).toBe('未知歌曲');
    expect(levelValue({ value: 'language' }, '/m/x/03.flac', tags)).toBe('未知');
    expect(levelValue({ value: 'track_number' }, '/m/x/03.flac', tags)).toBe('3');
    expect(levelValue({ value: 'custom', value2: '${year} - ${first_artist} (${parent_path})' }, '/m/x/03.flac', tags)).toBe('2003 - 周杰伦 (x)');
    expect(levelValue({ value: 'custom', value2: '${first_artist_letter}' }, '/m/x/03.flac', tags)).toBe('Z');
  });
});

describe('tidy-folder', () => {
  const options = { root_path: '', dir_list: [{ value: 'artist' }, { value: 'album' }], file_name: '' };

  it('refuses a bad dialog when the task is planned', async () => {
    const action = await host.action('tidy-folder');
    await expect(action.plan([at('Incoming')], { dir_list: [] })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('root_path') });
    await expect(action.plan([at('Incoming')], { root_path: at('Library'), dir_list: [{ value: 'custom', value2: '${nope}' }] }))
      .rejects.toMatchObject({ message: expect.stringContaining('unknown variable ${nope}') });
    await expect(action.plan([at('Incoming')], { root_path: at('Library'), dir_list: [{ value: 'mood' }] }))
      .rejects.toMatchObject({ message: expect.stringContaining('dir_list[0].value must be one of title, artist') });
    await expect(action.plan([at('Incoming')], { root_path: 'Library' })).rejects.toMatchObject({ message: expect.stringContaining('root_path must be a full path') });
    await expect(action.plan([at('Incoming')], { root_path: '/app/media/' }))
      .rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('root_path /app/media is not inside the media folders') });
  });

  it('dry run lists before → after and touches nothing; the real run makes exactly those moves, inside the root, never overwriting', async () => {
    const action = await host.action('tidy-folder');
    const opts = { ...options, root_path: at('Library') };
    const before = await listFiles(host.media);
    const existing = await readFile(at('Library', 'Tester', 'Alpha', '01.flac'));
    const plan = await action.plan([at('Incoming')], opts);
    expect(plan.items).toEqual([
      { key: at('Incoming', 'A'), paths: [at('Incoming', 'A', '01.flac'), at('Incoming', 'A', 'hostile.mp3')] },
      { key: at('Incoming', 'B'), paths: [at('Incoming', 'B', 'colon.flac')] },
    ]);

    const dry = await action.runAll([at('Incoming')], opts, true);
    expect(await listFiles(host.media)).toEqual(before);
    const longAlbum = sanitizeName(LONG);
    expect(dry.map((r) => r.result)).toEqual([
      {
        status: 'success',
        report: { folder: at('Incoming', 'A'), moved: 2, in_place: 0, gone: 0, failed: 0 },
        changes: [
          { path: at('Incoming', 'A', '01.flac'), kind: 'move', before: at('Incoming', 'A', '01.flac'), after: at('Library', 'Tester', 'Alpha', '01 (2).flac') },
          { path: at('Incoming', 'A', '01.lrc'), kind: 'move', before: at('Incoming', 'A', '01.lrc'), after: at('Library', 'Tester', 'Alpha', '01 (2).lrc') },
          { path: at('Incoming', 'A', 'hostile.mp3'), kind: 'move', before: at('Incoming', 'A', 'hostile.mp3'), after: at('Library', '_._.._x', '_abs', 'hostile.mp3') },
          { path: at('Incoming', 'A', 'cover.jpg'), kind: 'copy', before: at('Incoming', 'A', 'cover.jpg'), after: at('Library', 'Tester', 'Alpha', 'cover.jpg') },
          { path: at('Incoming', 'A', 'cover.jpg'), kind: 'move', before: at('Incoming', 'A', 'cover.jpg'), after: at('Library', '_._.._x', '_abs', 'cover.jpg') },
        ],
      },
      {
        status: 'success',
        report: { folder: at('Incoming', 'B'), moved: 1, in_place: 0, gone: 0, failed: 0 },
        changes: [{ path: at('Incoming', 'B', 'colon.flac'), kind: 'move', before: at('Incoming', 'B', 'colon.flac'), after: at('Library', 'a_b', longAlbum, 'colon.flac') }],
      },
    ]);

    const real = await action.runAll([at('Incoming')], opts);
    expect(real.map((r) => r.result)).toEqual(dry.map((r) => r.result));
    expect(await listFiles(host.media)).toEqual([
      'Incoming/B/notes.txt',
      'Library/Tester/Alpha/01 (2).flac',
      'Library/Tester/Alpha/01 (2).lrc',
      'Library/Tester/Alpha/01.flac',
      'Library/Tester/Alpha/cover.jpg',
      'Library/_._.._x/_abs/cover.jpg',
      'Library/_._.._x/_abs/hostile.mp3',
      `Library/a_b/${longAlbum}/colon.flac`,
    ]);
    expect((await readFile(at('Library', 'Tester', 'Alpha', '01.flac'))).equals(existing)).toBe(true);
    expect(await readFile(at('Library', 'Tester', 'Alpha', '01 (2).lrc'), 'utf8')).toBe('[00:00.00]Tone');
    expect(await probeTags(at('Library', 'Tester', 'Alpha', '01 (2).flac'))).toMatchObject({ title: 'Tone', artist: 'Tester' });
    expect(await probeTags(at('Library', '_._.._x', '_abs', 'hostile.mp3'))).toMatchObject({ artist: '../../x', album: '/abs' });

    // Tidy again: nothing moves.
    const again = await action.runAll([at('Library')], opts);
    expect(again.map((r) => r.result.status)).toEqual(['skip', 'skip', 'skip']);
    // The first item delivered again (a worker died after its moves): its tracks are gone, nothing is redone.
    expect(await action.runItem(plan.items[0]!, opts)).toEqual({
      status: 'skip', reason: '2 tracks are no longer in the folder', report: { folder: at('Incoming', 'A'), moved: 0, in_place: 0, gone: 2, failed: 0 },
    });
  });

  it('file_name templates are sanitised too (CON, a:b) and a root outside the media folder is refused per item, files left alone', async () => {
    const action = await host.action('tidy-folder');
    const opts = { root_path: at('Library'), dir_list: [{ value: 'custom', value2: 'By title' }], file_name: '${title}' };
    const result = await action.runAll([at('Library', '_._.._x'), at('Library', 'a_b')], opts);
    expect(result.flatMap((r) => r.result.changes ?? []).filter((c) => !c.path.endsWith('.jpg')).map((c) => c.after)).toEqual([
      at('Library', 'By title', '_CON.mp3'),
      at('Library', 'By title', 'a_b.flac'),
    ]);
    expect(await probeTags(at('Library', 'By title', '_CON.mp3'))).toMatchObject({ title: 'CON' });

    const elsewhere = { root_path: path.join(host.dir, 'elsewhere'), dir_list: [{ value: 'artist' }] };
    await expect(action.plan([at('Library', 'By title')], elsewhere)).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    // An item run anyway (the root moved out since planning) fails per track and leaves the files alone.
    const item = { key: at('Library', 'By title'), paths: [at('Library', 'By title', '_CON.mp3'), at('Library', 'By title', 'a_b.flac')] };
    const outside = [{ result: await action.runItem(item, elsewhere) }];
    expect(outside[0]!.result).toMatchObject({ status: 'fail', reason: expect.stringContaining('_CON.mp3:') });
    expect(outside[0]!.result.reason).toMatch(/outside|media/i);
    expect(await listFiles(at('Library', 'By title'))).toEqual(['_CON.mp3', 'a_b.flac', 'cover.jpg']);
  });
});

describe('tidy-folder clean-music (rule_form)', () => {
  it('the rules say which copy goes: format priority first, then size, bitrate, sample rate, name length', () => {
    const rules = parseCleanRules({ is_clean_music: true })!;
    expect(rules).toEqual({ formatPriority: ['flac', 'mp3'], size: 'smaller', bitrate: 'none', sample: 'none', name: 'none', action: 'delete', targetDir: null });
    const f = (name: string, size: number, extra: object = {}) => ({ path: `/m/${name}`, name, size, ...extra });
    expect(loserOf(f('a.mp3', 9e6), f('a.flac', 1e6), rules)).toBe('arriving');
    expect(loserOf(f('a.flac', 1e6), f('a.ogg', 9e6), rules)).toBe('present');
    expect(loserOf(f('a.mp3', 1e6), f('a.mp3', 2e6), rules)).toBe('arriving');
    expect(loserOf(f('a.mp3', 3e6), f('a.mp3', 2e6), rules)).toBe('present');
    const byBitrate = parseCleanRules({ is_clean_music: true, clean_size_rule: 'none', clean_bitrate_rule: 'smaller', clean_name_rule: 'larger' })!;
    expect(loserOf(f('a.mp3', 1, { bitrate: 128000 }), f('a.mp3', 1, { bitrate: 320000 }), byBitrate)).toBe('arriving');
    expect(loserOf(f('a (1).mp3', 1, { bitrate: 320000 }), f('a.mp3', 1, { bitrate: 320000 }), byBitrate)).toBe('arriving');
    expect(loserOf(f('a.mp3', 1, { bitrate: 320000 }), f('a.mp3', 1, { bitrate: 320000 }), byBitrate)).toBe('arriving');
    expect(songIdentity('晴天 (2).MP3')).toBe(songIdentity('晴天.flac'));
    expect(parseCleanRules({ is_clean_music: false })).toBeNull();
    expect(() => parseCleanRules({ is_clean_music: true, clean_size_rule: 'biggest' })).toThrow('clean_size_rule must be larger, smaller or none');
  });

  it('keeps the best copy of a song in the target folder, deleting the others; a dry run lists exactly that', async () => {
    const action = await host.action('tidy-folder');
    await mkdir(at('In2', 'X'), { recursive: true });
    await mkdir(at('Lib2', 'Jay', 'Qing'), { recursive: true });
    const tags = { title: '晴天', artist: 'Jay', album: 'Qing' };
    await makeAudio(at('In2', 'X', '晴天.flac'), { tags });
    await makeAudio(at('In2', 'X', '晴天.mp3'), { tags });
    await makeAudio(at('Lib2', 'Jay', 'Qing', '晴天.mp3'), { tags });
    const opts = { root_path: at('Lib2'), dir_list: [{ value: 'artist' }, { value: 'album' }], rule_form: { is_clean_music: true } };
    const before = await listFiles(host.media);
    const dry = await action.runAll([at('In2')], opts, true);
    expect(await listFiles(host.media)).toEqual(before);
    const q = (name: string) => at('Lib2', 'Jay', 'Qing', name);
    expect(dry.map((r) => r.result)).toEqual([{
      status: 'success',
      report: { folder: at('In2', 'X'), moved: 1, in_place: 0, gone: 0, failed: 0, cleaned: 2 },
      changes: [
        { path: q('晴天.mp3'), kind: 'delete', before: q('晴天.mp3'), after: null },
        { path: at('In2', 'X', '晴天.flac'), kind: 'move', before: at('In2', 'X', '晴天.flac'), after: q('晴天.flac') },
        { path: at('In2', 'X', '晴天.mp3'), kind: 'delete', before: at('In2', 'X', '晴天.mp3'), after: null },
      ],
    }]);
    const real = await action.runAll([at('In2')], opts);
    expect(real.map((r) => r.result)).toEqual(dry.map((r) => r.result));
    expect(await listFiles(at('Lib2'))).toEqual(['Jay/Qing/晴天.flac']);
    expect(await listFiles(at('In2'))).toEqual([]);
    expect(await probeTags(q('晴天.flac'))).toMatchObject({ title: '晴天' });
  });

  it("'move' puts the copy that goes into 重复音乐 under the root (never over a file), with its lyrics", async () => {
    const action = await host.action('tidy-folder');
    await mkdir(at('In3', 'Y'), { recursive: true });
    await makeAudio(at('In3', 'Y', '晴天.ogg'), { tags: { title: '晴天', artist: 'Jay', album: 'Qing' } });
    await writeFile(at('In3', 'Y', '晴天.lrc'), '[00:01.00]晴天');
    const opts = { root_path: at('Lib2'), dir_list: [{ value: 'artist' }, { value: 'album' }], rule_form: { is_clean_music: true, clean_delete_rule: 'move' } };
    const [only] = await action.runAll([at('In3')], opts);
    expect(only!.result).toMatchObject({ status: 'success', report: { moved: 0, cleaned: 1 } });
    expect(await listFiles(at('Lib2'))).toEqual(['Jay/Qing/晴天.flac', '重复音乐/晴天.lrc', '重复音乐/晴天.ogg']);
  });

  it('a bitrate rule reads both files with ffprobe through the host: the lower bitrate goes', async () => {
    const action = await host.action('tidy-folder');
    await mkdir(at('In4', 'Z'), { recursive: true });
    await mkdir(at('Lib4', 'Jay'), { recursive: true });
    const encode = (file: string, kbps: number) => promisify(execFile)('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i',
      'sine=frequency=440:duration=3', '-b:a', `${kbps}k`, '-metadata', 'artist=Jay', file]);
    await encode(at('In4', 'Z', 'song.mp3'), 320);
    await encode(at('Lib4', 'Jay', 'Song.mp3'), 64);
    const opts = { root_path: at('Lib4'), dir_list: [{ value: 'artist' }],
      rule_form: { is_clean_music: true, clean_format_priority: ['mp3'], clean_size_rule: 'none', clean_bitrate_rule: 'smaller' } };
    const [only] = await action.runAll([at('In4')], opts);
    expect(only!.result.changes).toEqual([
      { path: at('Lib4', 'Jay', 'Song.mp3'), kind: 'delete', before: at('Lib4', 'Jay', 'Song.mp3'), after: null },
      { path: at('In4', 'Z', 'song.mp3'), kind: 'move', before: at('In4', 'Z', 'song.mp3'), after: at('Lib4', 'Jay', 'song.mp3') },
    ]);
    expect(await listFiles(at('Lib4'))).toEqual(['Jay/song.mp3']);
  });

});

describe('tidy-folder on a big folder', () => {
  it('a folder of 401 tracks is two items; the cover is copied by the first and moved by the one that empties the folder', async () => {
    const action = await host.action('tidy-folder');
    await mkdir(at('Big'), { recursive: true });
    await makeAudio(at('Big', 'seed.mp3'), { tags: { title: 'x', artist: 'Many', album: 'Tracks' } });
    for (let i = 1; i <= 400; i++) await copyFile(at('Big', 'seed.mp3'), at('Big', `t${String(i).padStart(3, '0')}.mp3`));
    await writeFile(at('Big', 'folder.jpg'), 'jpeg');
    const opts = { root_path: at('Lib5'), dir_list: [{ value: 'artist' }] };
    const { items } = await action.plan([at('Big')], opts);
    expect(items.map((i) => [i.key, i.paths.length])).toEqual([[at('Big'), 400], [`${at('Big')}#2`, 1]]);
    const first = await action.runItem(items[0]!, opts);
    expect(first.changes!.at(-1)).toEqual({ path: at('Big', 'folder.jpg'), kind: 'copy', before: at('Big', 'folder.jpg'), after: at('Lib5', 'Many', 'folder.jpg') });
    await writeFile(at('Lib5', 'Many', 'folder.jpg'), 'already there');
    await mkdir(at('Lib6'), { recursive: true });
    const second = await action.runItem(items[1]!, { ...opts, root_path: at('Lib6') });
    expect(second.changes!.at(-1)).toEqual({ path: at('Big', 'folder.jpg'), kind: 'move', before: at('Big', 'folder.jpg'), after: at('Lib6', 'Many', 'folder.jpg') });
    expect(await listFiles(at('Big'))).toEqual([]);
    expect(await readFile(at('Lib5', 'Many', 'folder.jpg'), 'utf8')).toBe('already there');
    expect((await listFiles(at('Lib5', 'Many'))).length).toBe(401);
  }, 60_000);
});
