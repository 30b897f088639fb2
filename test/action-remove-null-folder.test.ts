/**
 * plugins/remove-null-folder (删除文件夹) through loadPlugin on real folders: delete_mode null removes empty folders
 * (nested ones as one item), null_music removes folders with files but no music (their covers/lyrics first), all
 * both; a folder with an audio file at any depth, or any file that is not a leftover (a music video), is never
 * touched, nor a media folder itself; a file that arrives
 * between planning and running keeps its folder; a dry run deletes nothing and lists what the run deletes.
 * Checked by listing the media folder.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio } from './support/audio.ts';
import { listFiles, listFolders, openFileActionHost, type FileActionHost } from './support/file-actions.ts';

let host: FileActionHost;
const at = (...parts: string[]) => path.join(host.media, ...parts);

beforeAll(async () => {
  host = await openFileActionHost();
  for (const dir of [['Lib', 'Album', 'Empty'], ['Lib', 'Left', 'Sub'], ['Lib', 'EmptyTree', 'A', 'B'], ['Lib', 'Deep', 'X', 'Y']]) await mkdir(at(...dir), { recursive: true });
  await makeAudio(at('Lib', 'Album', '01.flac'));
  await writeFile(at('Lib', 'Album', 'cover.jpg'), 'jpeg');
  await writeFile(at('Lib', 'Left', 'cover.jpg'), 'jpeg');
  await writeFile(at('Lib', 'Left', '01.lrc'), '[00:00.00]la');
  await makeAudio(at('Lib', 'Deep', 'X', 'Y', 'song.mp3'));
  // A music video is not a leftover: its folder stays in every mode.
  await mkdir(at('Lib', 'Videos'), { recursive: true });
  await writeFile(at('Lib', 'Videos', 'live.mp4'), 'video');
  await writeFile(at('Lib', 'Videos', 'cover.jpg'), 'jpeg');
}, 60_000);

afterAll(async () => host?.close());

describe('remove-null-folder', () => {
  it('plans the top-most folders each mode removes; a bad mode is refused', async () => {
    const action = await host.action('remove-null-folder');
    const keys = async (mode: string) => (await action.plan([at('Lib')], { delete_mode: mode })).items.map((i) => path.relative(host.media, i.key));
    expect(await keys('null')).toEqual(['Lib/Album/Empty', 'Lib/EmptyTree', 'Lib/Left/Sub']);
    expect(await keys('null_music')).toEqual(['Lib/Left']);
    expect(await keys('all')).toEqual(['Lib/Album/Empty', 'Lib/EmptyTree', 'Lib/Left']);
    await expect(action.plan([at('Lib')], { delete_mode: 'everything' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
  });

  it('null: a dry run lists the empty folders and removes nothing; the run removes exactly them', async () => {
    const action = await host.action('remove-null-folder');
    const folders = await listFolders(host.media);
    const dry = await action.runAll([at('Lib')], { delete_mode: 'null' }, true);
    expect(await listFolders(host.media)).toEqual(folders);
    expect(dry.find((r) => r.item.key === at('Lib', 'EmptyTree'))!.result).toEqual({
      status: 'success',
      report: { folder: at('Lib', 'EmptyTree'), files: 0, folders: 3 },
      changes: [at('Lib', 'EmptyTree', 'A', 'B'), at('Lib', 'EmptyTree', 'A'), at('Lib', 'EmptyTree')].map((p) => ({ path: p, kind: 'delete', before: p, after: null })),
    });
    const real = await action.runAll([at('Lib')], { delete_mode: 'null' });
    expect(real.map((r) => r.result)).toEqual(dry.map((r) => r.result));
    expect(await listFolders(host.media)).toEqual(['Lib', 'Lib/Album', 'Lib/Deep', 'Lib/Deep/X', 'Lib/Deep/X/Y', 'Lib/Left', 'Lib/Videos']);
  });

  it('null_music: the leftovers of a folder without music go with it; music anywhere below keeps a folder', async () => {
    const action = await host.action('remove-null-folder');
    const result = await action.runAll([at('Lib')], { delete_mode: 'null_music' });
    expect(result.map((r) => [r.item.key, r.result.status])).toEqual([[at('Lib', 'Left'), 'success']]);
    expect(result[0]!.result.changes!.map((c) => path.relative(host.media, c.path))).toEqual(['Lib/Left/01.lrc', 'Lib/Left/cover.jpg', 'Lib/Left']);
    expect(await listFiles(host.media)).toEqual(['Lib/Album/01.flac', 'Lib/Album/cover.jpg', 'Lib/Deep/X/Y/song.mp3', 'Lib/Videos/cover.jpg', 'Lib/Videos/live.mp4']);
  });

  it('a file arriving after planning keeps its folder; a media folder itself is never removed', async () => {
    const action = await host.action('remove-null-folder');
    await mkdir(at('Inbox', 'Dl'), { recursive: true });
    await writeFile(at('Inbox', 'Dl', 'info.nfo'), 'nfo');
    const { items } = await action.plan([at('Inbox')], { delete_mode: 'all' });
    expect(items.map((i) => i.key)).toEqual([at('Inbox')]);
    await makeAudio(at('Inbox', 'Dl', 'new.mp3'));
    expect(await action.runItem(items[0]!, { delete_mode: 'all' })).toEqual({ status: 'skip', reason: 'it holds 1 audio file now' });
    expect(await listFiles(at('Inbox'))).toEqual(['Dl/info.nfo', 'Dl/new.mp3']);
    expect(await action.runItem({ key: at('Lib', 'Videos'), paths: [at('Lib', 'Videos')] }, { delete_mode: 'all' }))
      .toEqual({ status: 'skip', reason: 'it holds live.mp4, which is not a leftover' });

    expect(await action.runItem({ key: host.media, paths: [host.media] }, { delete_mode: 'all' })).toEqual({ status: 'skip', reason: 'a media folder itself is never removed' });
    await mkdir(at('Gone', 'Empty'), { recursive: true });
    // The trash (hidden) is never a candidate, nor a folder holding hidden entries.
    await mkdir(at('.tagsonic-trash', 't1', 'Old'), { recursive: true });
    await mkdir(at('WithGit', '.git'), { recursive: true });
    const planned = await action.plan([host.media], { delete_mode: 'all' });
    expect(planned.items.map((i) => path.relative(host.media, i.key))).toEqual(['Gone']);
  });
});
