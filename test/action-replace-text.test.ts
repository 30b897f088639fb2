/**
 * plugins/replace-text (替换文本) through loadPlugin on real files: literal and RE2 regex rules over the chosen
 * fields, a dry run that writes nothing and lists exactly what the real run then does, the journal (undoable),
 * a catastrophic-backtracking pattern that finishes at once, and bad rules failing the item with a clear reason.
 * Files are checked afterwards with ffprobe, an independent reader.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAG_JOURNAL_COLLECTION } from '@tagsonic/core/tags';
import { makeAudio, probeTags } from './support/audio.ts';
import { openActionHost, type ActionHost } from './support/action-host.ts';

let host: ActionHost;
const file = (name: string) => path.join(host.media, name);

beforeAll(async () => {
  host = await openActionHost();
  await makeAudio(file('a.mp3'), { tags: { title: '晴天 [www.music.cc]', artist: 'Jay Chou/周杰伦', album: 'Ye Hui Mei [www.music.cc]', comment: 'www.music.cc' } });
  await makeAudio(file('b.flac'), { tags: { title: 'Track 01 - Intro', artist: 'A feat. B' } });
  await makeAudio(file('c.mp3'), { tags: { title: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab', artist: 'X' } });
}, 60_000);

afterAll(async () => host?.close());

describe('replace-text', () => {
  it('a dry run lists the literal replacements and writes nothing; the real run writes exactly them, journaled', async () => {
    const { runItem } = await host.action('replace-text');
    const options = { replace_text_list: [{ before: ' [www.music.cc]', after: '' }, { before: 'Jay Chou/', after: '' }], modify_list: ['title', 'artist', 'album', 'album_img'], replace_mode: 'text' };
    const bytes = await readFile(file('a.mp3'));
    const dry = await runItem(file('a.mp3'), options, true);
    expect(dry).toEqual({
      status: 'success',
      changes: [
        { path: file('a.mp3'), kind: 'tags', field: 'title', before: '晴天 [www.music.cc]', after: '晴天' },
        { path: file('a.mp3'), kind: 'tags', field: 'artist', before: 'Jay Chou/周杰伦', after: '周杰伦' },
        { path: file('a.mp3'), kind: 'tags', field: 'album', before: 'Ye Hui Mei [www.music.cc]', after: 'Ye Hui Mei' },
      ],
    });
    expect((await readFile(file('a.mp3'))).equals(bytes)).toBe(true);

    const real = await runItem(file('a.mp3'), options);
    expect(real).toEqual(dry);
    // comment was not in modify_list: untouched.
    expect(await probeTags(file('a.mp3'))).toMatchObject({ title: '晴天', artist: '周杰伦', album: 'Ye Hui Mei', comment: 'www.music.cc' });
    const journal = await host.store.collection(TAG_JOURNAL_COLLECTION).find({ path: file('a.mp3') });
    expect(journal).toEqual([expect.objectContaining({ actor: 'plugin:replace-text', state: 'committed', changed: expect.arrayContaining(['title', 'artist', 'album']) })]);

    expect(await runItem(file('a.mp3'), options)).toEqual({ status: 'skip', reason: 'nothing to replace in title, artist, album' });
  });

  it('regex mode: RE2 with numbered and named groups, rules applied in order', async () => {
    const { runItem } = await host.action('replace-text');
    const result = await runItem(file('b.flac'), {
      replace_text_list: [{ before: '^Track (\\d+) - ', after: '' }, { before: '(?<main>\\w+) feat\\. (?<guest>\\w+)', after: '$<main>; $<guest>' }],
      modify_list: ['title', 'artist'],
      replace_mode: 'regex',
    });
    expect(result).toMatchObject({ status: 'success', changes: [{ field: 'title', after: 'Intro' }, { field: 'artist', after: 'A; B' }] });
    expect(await probeTags(file('b.flac'))).toMatchObject({ title: 'Intro', artist: 'A; B' });
  });

  it('a backtracking bomb runs in linear time; look-arounds and bad options fail the item with the reason', async () => {
    const { runItem } = await host.action('replace-text');
    const started = Date.now();
    const bomb = await runItem(file('c.mp3'), { replace_text_list: [{ before: '(a|aa)+$', after: 'x' }], modify_list: ['title'], replace_mode: 'regex' }, true);
    expect(bomb).toEqual({ status: 'skip', reason: 'nothing to replace in title' });
    expect(Date.now() - started).toBeLessThan(5000);

    const lookahead = runItem(file('c.mp3'), { replace_text_list: [{ before: 'a(?=b)', after: 'x' }], modify_list: ['title'], replace_mode: 'regex' });
    await expect(lookahead).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('look-arounds and back-references are not supported') });
    // Too large for the engine's memory: refused with why, and the next pattern still runs (the worker's regex engine survives).
    const huge = runItem(file('c.mp3'), { replace_text_list: [{ before: '\\p{L}{300}', after: 'x' }], modify_list: ['title'], replace_mode: 'regex' });
    await expect(huge).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('too large to run') });
    expect(await runItem(file('c.mp3'), { replace_text_list: [{ before: 'b$', after: 'c' }], modify_list: ['title'], replace_mode: 'regex' }, true)).toMatchObject({ status: 'success' });
    await expect(runItem(file('c.mp3'), { replace_text_list: [], modify_list: ['title'] })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('replace_text_list') });
    await expect(runItem(file('c.mp3'), { replace_text_list: [{ before: 'a', after: 'b' }], modify_list: ['titel'] })).rejects.toMatchObject({ message: expect.stringContaining('titel is not a tag field') });
    await expect(runItem(file('c.mp3'), { replace_text_list: [{ before: 'a', after: 'b' }], replace_mode: 'glob' })).rejects.toMatchObject({ message: expect.stringContaining('replace_mode') });
    expect(await probeTags(file('c.mp3'))).toMatchObject({ title: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab' });
  });
});
