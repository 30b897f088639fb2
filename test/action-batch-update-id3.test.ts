/**
 * plugins/batch-update-id3 (手动修改) through loadPlugin on real files: values as typed, `${var}` templates
 * rendered per track by the host (core's templates, as the editor's save), `${null}` clearing, numbers with
 * totals, a cover from a data: URL, the .lrc and folder-cover imports and saves; a bad dialog refused when the
 * task is planned, a template that does not fit failing its item; a dry run writes nothing. Read back with
 * ffprobe (an independent reader) and the files beside the tracks.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio, probeTags } from './support/audio.ts';
import { listFiles, openFileActionHost, type FileActionHost } from './support/file-actions.ts';
import { base64 } from '../plugins/batch-update-id3/src/options.ts';

const run = promisify(execFile);
let host: FileActionHost;
let jpeg: Buffer;
const at = (...parts: string[]) => path.join(host.media, ...parts);

/** The embedded picture's bytes, by ffmpeg (independent of our tag engine). */
async function embeddedCover(file: string): Promise<Buffer> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'image2pipe', '-'], { encoding: 'buffer', maxBuffer: 1 << 24 });
  return stdout as unknown as Buffer;
}

beforeAll(async () => {
  host = await openFileActionHost();
  await mkdir(at('周杰伦', '叶惠美'), { recursive: true });
  await makeAudio(at('周杰伦', '叶惠美', '03. 周杰伦 - 晴天.flac'), { tags: { title: 'x', artist: '周杰伦, 五月天', genre: 'Pop' } });
  await makeAudio(at('周杰伦', '叶惠美', '04 以父之名.mp3'), { tags: { title: 'y', artist: '周杰伦', genre: 'Pop' } });
  await writeFile(at('周杰伦', '叶惠美', '04 以父之名.lrc'), '[00:01.00]微凉的晨露\n');
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=red:s=16x16', '-frames:v', '1', at('red.jpg')]);
  jpeg = await readFile(at('red.jpg'));
}, 60_000);

afterAll(async () => host?.close());

describe('batch-update-id3 options', () => {
  it('base64 as the sandbox decodes it', () => {
    expect(Buffer.from(base64(jpeg.toString('base64')))).toEqual(jpeg);
    expect(Buffer.from(base64('aGk='))).toEqual(Buffer.from('hi'));
  });

  it('a bad dialog refuses the task when it is planned', async () => {
    const action = await host.action('batch-update-id3');
    await expect(action.plan([at('周杰伦')], { music_info: {} })).rejects.toMatchObject({ message: expect.stringContaining('nothing to change') });
    // 翻译歌词 without a model configured in the system settings: refused once, before any item runs.
    await expect(action.plan([at('周杰伦')], { music_info: { is_translate_lyrics: true } })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_LLM_NOT_CONFIGURED' });
    await expect(action.plan([at('周杰伦')], { music_info: { album_img: 'http://x/y.jpg' } })).rejects.toMatchObject({ message: expect.stringContaining('album_img') });
    const { items } = await action.plan([at('周杰伦')], { music_info: { title: 'a' } });
    expect(items.map((i) => path.basename(i.key))).toEqual(['03. 周杰伦 - 晴天.flac', '04 以父之名.mp3']);
  });
});

describe('batch-update-id3', () => {
  const options = {
    music_info: {
      title: '${file_song_name}', artist: '${first_artist}', album: '${parent_path}', albumartist: '${parent_parent_path}', year: '2003',
      tracknumber: '3/10', genre: '${null}', composer: '${first_artist_letter} · ${title}', album_img: `data:image/jpeg;base64,${jpeg?.toString('base64') ?? ''}`,
      is_save_lyrics_file: false, is_import_lyrics_file: false, is_translate_lyrics: false, is_save_album_cover: false, is_import_album_cover: false,
    },
    is_regainer: false,
  };

  it('templates per track, ${null} clears, n/total, a data: URL cover; the dry run writes nothing', async () => {
    const action = await host.action('batch-update-id3');
    const opts = { ...options, music_info: { ...options.music_info, album_img: `data:image/jpeg;base64,${jpeg.toString('base64')}` } };
    const file = at('周杰伦', '叶惠美', '03. 周杰伦 - 晴天.flac');
    const dry = await action.runItem({ key: file, paths: [file] }, opts, true);
    expect(dry.status).toBe('success');
    expect((await probeTags(file)).title).toBe('x');
    const done = await action.runItem({ key: file, paths: [file] }, opts, false);
    expect(done.changes).toEqual(dry.changes);
    const tags = await probeTags(file);
    expect(tags).toMatchObject({ title: '晴天', artist: '周杰伦', album: '叶惠美', album_artist: '周杰伦', date: '2003', track: '3', tracktotal: '10', composer: 'Z · x' }); // templates read the tags as they were before this edit, as the editor's save does
    expect(tags.genre).toBeUndefined();
    expect(await embeddedCover(file)).toEqual(jpeg);
    // Again (the composer aside: its template reads the title this edit changed): nothing left to change.
    const again = { ...opts, music_info: { ...opts.music_info, composer: '' } };
    expect(await action.runItem({ key: file, paths: [file] }, again, false)).toMatchObject({ status: 'skip', reason: 'the fields already hold these values' });
  }, 60_000);

  it('a template that does not fit fails its item with why', async () => {
    const action = await host.action('batch-update-id3');
    const file = at('周杰伦', '叶惠美', '04 以父之名.mp3');
    expect(await action.runItem({ key: file, paths: [file] }, { music_info: { title: '${nope}' } })).toMatchObject({ status: 'fail', reason: expect.stringContaining('Unknown variable ${nope}') });
    expect(await action.runItem({ key: file, paths: [file] }, { music_info: { tracknumber: 'three' } })).toMatchObject({ status: 'fail', reason: expect.stringContaining('tracknumber must be a number') });
    expect((await probeTags(file)).title).toBe('y');
  });

  it('imports the .lrc and the folder cover, saves lyrics as .lrc and the cover as cover.jpg', async () => {
    const action = await host.action('batch-update-id3');
    const folder = at('周杰伦', '叶惠美');
    const flags = { is_import_lyrics_file: true, is_import_album_cover: false, is_save_lyrics_file: true, is_save_album_cover: true };
    const results = await action.runAll([folder], { music_info: flags });
    // 03 has no .lrc to import but its cover (from the first test) is saved as the folder's cover.jpg.
    expect(results.map((r) => r.result.status)).toEqual(['success', 'success']);
    expect(results[0]!.result.reason).toContain('no .lrc beside 03. 周杰伦 - 晴天.flac');
    const mp3 = at('周杰伦', '叶惠美', '04 以父之名.mp3');
    const lyrics = Object.entries(await probeTags(mp3)).find(([k]) => k.startsWith('lyrics'))?.[1];
    expect(lyrics).toContain('微凉的晨露');
    expect(await readFile(at('周杰伦', '叶惠美', 'cover.jpg'))).toEqual(jpeg);
    // 03's lyrics were empty: no .lrc written for it; 04's .lrc rewritten with the same text.
    expect((await listFiles(folder)).filter((f) => f.endsWith('.lrc'))).toEqual(['04 以父之名.lrc']);

    // The folder's cover.jpg into the other track.
    const imported = await action.runItem({ key: mp3, paths: [mp3] }, { music_info: { is_import_album_cover: true } });
    expect(imported.status).toBe('success');
    expect(await embeddedCover(mp3)).toEqual(jpeg);
  }, 60_000);
});
