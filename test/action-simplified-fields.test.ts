/**
 * plugins/simplified-fields (简繁转换) through loadPlugin on real files: sim2trad and trad2sim with OpenCC's
 * phrase tables over modify_list, a dry run that writes nothing, the journal, and a bad mode refused.
 * Files are checked afterwards with ffprobe.
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
  await makeAudio(file('trad.flac'), { tags: { title: '吻別', artist: '張學友', album: '真情流露', lyrics: '[00:01.00]我和你吻別 在無人的街', comment: '國語' } });
  await makeAudio(file('sim.mp3'), { tags: { title: '理发师', artist: '周杰伦', album: 'Jay' } });
}, 60_000);

afterAll(async () => host?.close());

describe('simplified-fields', () => {
  it('trad2sim over the chosen fields: a dry run first (nothing written), then the same changes for real', async () => {
    const { runItem } = await host.action('simplified-fields');
    const options = { mode: 'trad2sim', modify_list: ['title', 'artist', 'lyrics', 'album_img'] };
    const bytes = await readFile(file('trad.flac'));
    const dry = await runItem(file('trad.flac'), options, true);
    expect(dry).toEqual({
      status: 'success',
      changes: [
        { path: file('trad.flac'), kind: 'tags', field: 'title', before: '吻別', after: '吻别' },
        { path: file('trad.flac'), kind: 'tags', field: 'artist', before: '張學友', after: '张学友' },
        { path: file('trad.flac'), kind: 'tags', field: 'lyrics', before: '[00:01.00]我和你吻別 在無人的街', after: '[00:01.00]我和你吻别 在无人的街' },
      ],
    });
    expect((await readFile(file('trad.flac'))).equals(bytes)).toBe(true);
    expect(await runItem(file('trad.flac'), options)).toEqual(dry);
    // album (真情流露 is the same in both scripts) and comment (not chosen) stay.
    expect(await probeTags(file('trad.flac'))).toMatchObject({ title: '吻别', artist: '张学友', lyrics: '[00:01.00]我和你吻别 在无人的街', comment: '國語' });
    const journal = await host.store.collection(TAG_JOURNAL_COLLECTION).find({ path: file('trad.flac') });
    expect(journal).toEqual([expect.objectContaining({ actor: 'plugin:simplified-fields', state: 'committed' })]);
    expect(await runItem(file('trad.flac'), options)).toMatchObject({ status: 'skip', reason: expect.stringContaining('already simplified') });
  });

  it('sim2trad with OpenCC phrases (理发师 → 理髮師, not 理發師); a bad mode fails the item', async () => {
    const { runItem } = await host.action('simplified-fields');
    expect(await runItem(file('sim.mp3'), { mode: 'sim2trad' })).toMatchObject({
      status: 'success',
      changes: [{ field: 'title', before: '理发师', after: '理髮師' }, { field: 'artist', before: '周杰伦', after: '周杰倫' }],
    });
    expect(await probeTags(file('sim.mp3'))).toMatchObject({ title: '理髮師', artist: '周杰倫', album: 'Jay' });
    await expect(runItem(file('sim.mp3'), { mode: 's2t' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('sim2trad or trad2sim') });
  });
});
