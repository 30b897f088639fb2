/**
 * plugins/format-music (格式转换) through loadPlugin on real files: the host's transcode preset converts to the
 * chosen format, bitrate and sample rate beside the source under a free name (an existing file is never
 * replaced), tags and cover carried over (ffprobe, an independent reader, sees them in the output), the source kept
 * or moved to the trash, a dry run that writes nothing, and nothing to do when the target is what the file is.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeTags } from './support/audio.ts';
import { listFiles, openFileActionHost, type FileActionHost } from './support/file-actions.ts';
import { candidateName, parseOptions } from '../plugins/format-music/src/options.ts';

const run = promisify(execFile);
let host: FileActionHost;
const at = (...parts: string[]) => path.join(host.media, ...parts);

/** A 3 s MP3 with ID3 tags and a red 64×64 cover, made by ffmpeg. */
async function makeTaggedMp3(file: string): Promise<void> {
  const cover = path.join(host.dir, 'cover.png');
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=red:s=64x64:d=1', '-frames:v', '1', cover]);
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=440:d=3:sample_rate=44100', '-i', cover, '-map', '0:a', '-map', '1:v',
    '-c:a', 'libmp3lame', '-b:a', '128k', '-c:v', 'copy', '-disposition:v', 'attached_pic',
    '-metadata', 'title=晴天', '-metadata', 'artist=周杰伦', '-metadata', 'album=叶惠美', '-metadata', 'track=3', '-id3v2_version', '3', file]);
}

async function probe(file: string): Promise<{ streams: Array<{ codec_type: string; codec_name: string; sample_rate?: string; disposition?: { attached_pic: number } }>; format: { bit_rate?: string } }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file]);
  return JSON.parse(stdout) as never;
}

beforeAll(async () => {
  host = await openFileActionHost();
  await mkdir(at('Album'), { recursive: true });
  await makeTaggedMp3(at('Album', 'song.mp3'));
  await makeTaggedMp3(at('Album', 'gone.mp3'));
  await writeFile(at('Album', 'gone.ogg'), 'someone else\'s file');
}, 60_000);

afterAll(async () => host?.close());

describe('format-music options', () => {
  it('reads the dialog and refuses bad values by field', () => {
    expect(parseOptions({ music_type: 'flac', bit_rate: -1, sample_rate: 'custom', sample_rate_custom: 32000, is_keep_source: false }))
      .toEqual({ musicType: 'flac', bitrateKbps: null, sampleRate: 32000, keepSource: false });
    expect(parseOptions({ music_type: 'mp3', bit_rate: 'custom', bit_rate_custom: '200', sample_rate: -1 })).toMatchObject({ bitrateKbps: 200, sampleRate: null, keepSource: true });
    expect(() => parseOptions({ music_type: 'aiff' })).toThrow(/music_type must be one of keep, mp3, wav, flac, wma, ogg/);
    expect(() => parseOptions({ music_type: 'mp3', bit_rate: 'custom', bit_rate_custom: null })).toThrow(/bit_rate_custom must be a number/);
    expect(() => parseOptions({ music_type: 'mp3', sample_rate: 5 })).toThrow(/sample_rate must be -1/);
    expect(candidateName('/m/A/x.y.mp3', 'flac', 1)).toBe('/m/A/x.y.flac');
    expect(candidateName('/m/A/x.mp3', 'ogg', 2)).toBe('/m/A/x (2).ogg');
  });
});

describe('format-music', () => {
  it('a dry run lists the file it would write and writes nothing', async () => {
    const action = await host.action('format-music');
    const before = await listFiles(host.media);
    const result = await action.runItem({ key: at('Album', 'song.mp3'), paths: [at('Album', 'song.mp3')] }, { music_type: 'flac', bit_rate: -1, sample_rate: -1, is_keep_source: true }, true);
    expect(result).toMatchObject({ status: 'success', changes: [{ kind: 'convert', before: at('Album', 'song.mp3'), after: at('Album', 'song.flac') }] });
    expect(await listFiles(host.media)).toEqual(before);
  });

  it('mp3 → flac keeps the source and carries tags and cover over', async () => {
    const action = await host.action('format-music');
    const result = await action.runItem({ key: at('Album', 'song.mp3'), paths: [at('Album', 'song.mp3')] }, { music_type: 'flac', bit_rate: -1, sample_rate: -1, is_keep_source: true });
    expect(result).toMatchObject({ status: 'success', report: { format: 'flac', cover: 'embedded' } });
    const info = await probe(at('Album', 'song.flac'));
    expect(info.streams.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'flac', sample_rate: '44100' });
    expect(info.streams.find((s) => s.codec_type === 'video')?.disposition?.attached_pic).toBe(1);
    expect(await probeTags(at('Album', 'song.flac'))).toMatchObject({ title: '晴天', artist: '周杰伦', album: '叶惠美', track: '3' });
    expect(await listFiles(at('Album'))).toContain('song.mp3');
  }, 60_000);

  it('→ ogg at 22050 Hz takes a free name beside a taken one, embeds the cover and trashes the source', async () => {
    const action = await host.action('format-music');
    const result = await action.runItem({ key: at('Album', 'gone.mp3'), paths: [at('Album', 'gone.mp3')] },
      { music_type: 'ogg', bit_rate: 192, sample_rate: 22050, is_keep_source: false });
    expect(result).toMatchObject({ status: 'success', report: { cover: 'embedded', sample_rate: 22050 } });
    expect(result.changes).toEqual([
      { path: at('Album', 'gone.mp3'), kind: 'convert', before: at('Album', 'gone.mp3'), after: at('Album', 'gone (2).ogg') },
      { path: at('Album', 'gone.mp3'), kind: 'delete', before: at('Album', 'gone.mp3'), after: null },
    ]);
    expect(await readFile(at('Album', 'gone.ogg'), 'utf8')).toBe('someone else\'s file');
    const info = await probe(at('Album', 'gone (2).ogg'));
    expect(info.streams.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'vorbis', sample_rate: '22050' });
    expect(info.streams.some((s) => s.codec_type === 'video')).toBe(true);
    expect(await probeTags(at('Album', 'gone (2).ogg'))).toMatchObject({ title: '晴天', artist: '周杰伦' });
    const files = await listFiles(host.media);
    expect(files).not.toContain(path.join('Album', 'gone.mp3'));
    // Outside a task files.delete is the plain delete; through the routes (a task) it is the trash: action-convert-routes.
  }, 60_000);

  it('→ wma at a custom bitrate; mp3 → mp3 with nothing changed is a skip', async () => {
    const action = await host.action('format-music');
    const wma = await action.runItem({ key: at('Album', 'song.mp3'), paths: [at('Album', 'song.mp3')] },
      { music_type: 'wma', bit_rate: 'custom', bit_rate_custom: 96, sample_rate: -1, is_keep_source: true });
    expect(wma).toMatchObject({ status: 'success' });
    // Neither ffmpeg's ASF muxer nor the tag engine writes a WM/Picture: the report says the cover stayed behind.
    expect(wma.report).toMatchObject({ cover: 'not carried over: wma files get no cover picture here' });
    const info = await probe(at('Album', 'song.wma'));
    expect(info.streams.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'wmav2', sample_rate: '44100' });
    expect(Math.round(Number(info.format.bit_rate) / 1000)).toBeGreaterThanOrEqual(90);
    expect(Math.round(Number(info.format.bit_rate) / 1000)).toBeLessThanOrEqual(130) // a 3 s file: the container's header weighs in;
    expect(await probeTags(at('Album', 'song.wma'))).toMatchObject({ title: '晴天', artist: '周杰伦' });
    // mp3 → mp3 at 64 kbps without keeping the source: the new file takes the source's name.
    const before = (await probe(at('Album', 'song.mp3'))).format.bit_rate;
    const smaller = await action.runItem({ key: at('Album', 'song.mp3'), paths: [at('Album', 'song.mp3')] }, { music_type: 'mp3', bit_rate: 64, sample_rate: -1, is_keep_source: false });
    expect(smaller).toMatchObject({ status: 'success', changes: [{ kind: 'convert', after: at('Album', 'song.mp3') }, { kind: 'delete' }] });
    expect(Number(before)).toBeGreaterThan(100_000);
    expect(Number((await probe(at('Album', 'song.mp3'))).format.bit_rate)).toBeLessThan(80_000);
    expect(await probeTags(at('Album', 'song.mp3'))).toMatchObject({ title: '晴天', artist: '周杰伦' });
    expect((await listFiles(at('Album'))).filter((f) => f.startsWith('song'))).toEqual(['song.flac', 'song.mp3', 'song.wma']);
    const same = await action.runItem({ key: at('Album', 'song.mp3'), paths: [at('Album', 'song.mp3')] }, { music_type: 'keep', bit_rate: -1, sample_rate: -1 });
    expect(same).toMatchObject({ status: 'skip', reason: expect.stringContaining('nothing to convert') });
  }, 60_000);
});
