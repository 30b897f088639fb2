/**
 * plugins/split-filename (拆分文本) through loadPlugin on real files: fields from the file name, the title or
 * the lyrics by named-group patterns (first matching rule wins, RE2 on the host), number fields, a dry run that
 * writes nothing, and bad rules refused with the reason. Files are checked afterwards with ffprobe.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAG_JOURNAL_COLLECTION } from '@tagsonic/core/tags';
import { makeAudio, probeTags } from './support/audio.ts';
import { openActionHost, type ActionHost } from './support/action-host.ts';

let host: ActionHost;
const file = (name: string) => path.join(host.media, name);
const RULES = ['^(?<tracknumber>\\d+)\\. (?<artist>.+?) - (?<title>.+)$', '(?<artist>.+?) - (?<title>.+)'];

beforeAll(async () => {
  host = await openActionHost();
  await makeAudio(file('03. 周杰伦 - 晴天.mp3'), { tags: { title: 'Track 3' } });
  await makeAudio(file('陈奕迅 - 十年.flac'), { tags: { title: 'x' } });
  await makeAudio(file('no-dash.flac'), { tags: { title: 'Beyond - 海阔天空', lyrics: '海阔天空\n作词：黄家驹\n作曲：黄家驹\n[00:01.00]今天我' } });
}, 60_000);

afterAll(async () => host?.close());

describe('split-filename', () => {
  it('from the file name: the first matching rule fills its fields (numbers as numbers); dry run first', async () => {
    const { runItem } = await host.action('split-filename');
    const f = file('03. 周杰伦 - 晴天.mp3');
    const bytes = await readFile(f);
    const dry = await runItem(f, { rule_list: RULES, extract_field: 'filename' }, true);
    expect(dry).toEqual({
      status: 'success',
      changes: [
        { path: f, kind: 'tags', field: 'tracknumber', before: null, after: '3' },
        { path: f, kind: 'tags', field: 'artist', before: null, after: '周杰伦' },
        { path: f, kind: 'tags', field: 'title', before: 'Track 3', after: '晴天' },
      ],
      report: { rule: 0 },
    });
    expect((await readFile(f)).equals(bytes)).toBe(true);
    expect(await runItem(f, { rule_list: RULES, extract_field: 'filename' })).toEqual(dry);
    expect(await probeTags(f)).toMatchObject({ track: '3', artist: '周杰伦', title: '晴天' });
    expect(await host.store.collection(TAG_JOURNAL_COLLECTION).find({ path: f })).toEqual([expect.objectContaining({ actor: 'plugin:split-filename', state: 'committed' })]);

    // The second rule for a name without a number; extract_field defaults to the file name.
    expect(await runItem(file('陈奕迅 - 十年.flac'), { rule_list: RULES })).toMatchObject({ status: 'success', report: { rule: 1 } });
    expect(await probeTags(file('陈奕迅 - 十年.flac'))).toMatchObject({ artist: '陈奕迅', title: '十年' });
    expect(await runItem(file('no-dash.flac'), { rule_list: RULES })).toEqual({ status: 'skip', reason: 'no rule matches the filename "no-dash"' });
  });

  it('from the title and from the lyrics', async () => {
    const { runItem } = await host.action('split-filename');
    const f = file('no-dash.flac');
    expect(await runItem(f, { rule_list: ['(?<artist>.+?) - (?<title>.+)'], extract_field: 'title' })).toMatchObject({
      status: 'success', changes: [{ field: 'artist', after: 'Beyond' }, { field: 'title', before: 'Beyond - 海阔天空', after: '海阔天空' }],
    });
    expect(await runItem(f, { rule_list: ['作词：(?<lyricist>[^\\n]+)\\n作曲：(?<composer>[^\\n]+)'], extract_field: 'lyrics' })).toMatchObject({
      status: 'success', changes: [{ field: 'lyricist', after: '黄家驹' }, { field: 'composer', after: '黄家驹' }],
    });
    expect(await probeTags(f)).toMatchObject({ artist: 'Beyond', title: '海阔天空', lyricist: '黄家驹', composer: '黄家驹' });
  });

  it('refuses groups that are not tag fields, patterns without groups, RE2-incompatible patterns and a bad extract_field', async () => {
    const { runItem } = await host.action('split-filename');
    const f = file('no-dash.flac');
    await expect(runItem(f, { rule_list: ['(?<singer>.+) - (?<title>.+)'] })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('singer is not') });
    await expect(runItem(f, { rule_list: ['(.+) - (.+)'] })).rejects.toMatchObject({ message: expect.stringContaining('no named group') });
    await expect(runItem(f, { rule_list: ['(?<title>.+)(?=x)'] })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('look-arounds') });
    await expect(runItem(f, { rule_list: RULES, extract_field: 'album' })).rejects.toMatchObject({ message: expect.stringContaining('extract_field') });
    await expect(runItem(f, { rule_list: [] })).rejects.toMatchObject({ message: expect.stringContaining('rule_list') });
  });
});
