import { describe, expect, it } from 'vitest';
import { profileCommand, splitWords, templateCommand } from './command.ts';
import { bitRateFor, profileFor } from './profiles.ts';
import { decodeSettingsOf, DEFAULT_DECODE_COMMAND } from './settings.ts';
import { Limiter } from './limiter.ts';

describe('transcode commands', () => {
  const input = { path: '/music/a b/x.flac', offset: 12.3456, bitRate: 128 };

  it('builds profile commands with input seeking, file-only protocols and stdout', () => {
    const c = profileCommand(profileFor('mp3'), input);
    expect(c.args).toEqual([
      '-hide_banner', '-loglevel', 'error', '-nostdin', '-protocol_whitelist', 'file,pipe',
      '-ss', '12.346', '-i', 'file:/music/a b/x.flac', '-map', '0:a:0', '-vn', '-map_metadata', '-1',
      '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', 'pipe:1',
    ]);
    expect(c.contentType).toBe('audio/mpeg');
    expect(profileCommand(profileFor('opus'), { ...input, offset: 0 }).args).not.toContain('-ss');
    expect(profileFor('m4a').contentType).toBe('audio/mp4');
    expect(profileFor('oga').suffix).toBe('ogg');
    expect(() => profileFor('wma')).toThrow(/Cannot stream as "wma"/);
  });

  it('clamps bit rates to what each encoder does well', () => {
    expect(bitRateFor(profileFor('mp3'), 0)).toBe(192);
    expect(bitRateFor(profileFor('mp3'), 1000)).toBe(320);
    expect(bitRateFor(profileFor('mp3'), 8)).toBe(32);
    expect(bitRateFor(profileFor('flac'), 128)).toBeNull();
  });

  it('runs decode_command templates without a shell, only as ffmpeg, only to stdout', () => {
    const c = templateCommand(DEFAULT_DECODE_COMMAND, input, 192);
    expect(c.args).toEqual([
      '-hide_banner', '-nostdin', '-protocol_whitelist', 'file,pipe',
      '-i', 'file:/music/a b/x.flac', '-ss', '12.346', '-map', '0:a:0', '-b:a', '128k', '-v', '0', '-f', 'mp3', 'pipe:1',
    ]);
    expect(templateCommand('/usr/bin/ffmpeg -i {input} -c:a libopus -b:a {bitrate}k -f opus -', input, 192).contentType).toBe('audio/ogg');
    expect(() => templateCommand('sh -c "rm -rf /" %s -', input, 192)).toThrow(/must start with ffmpeg/);
    expect(() => templateCommand('ffmpeg -i %s -f mp3 out.mp3', input, 192)).toThrow(/standard output/);
    expect(() => templateCommand('ffmpeg -i %s -f mp3 /tmp/copy.mp3 -f mp3 -', input, 192)).toThrow(/may not name "\/tmp\/copy.mp3"/);
    expect(() => templateCommand('ffmpeg -i http://evil/x -i %s -f mp3 -', input, 192)).toThrow(/may not name "http:\/\/evil\/x"/);
    expect(() => templateCommand('ffmpeg -i x%s -f mp3 -', input, 192)).toThrow(/word of its own/);
    expect(() => templateCommand('ffmpeg -f mp3 -', input, 192)).toThrow(/name the input/);
    expect(splitWords(`ffmpeg -af "volume=0.5, aresample" 'a b' c\\ d`)).toEqual(['ffmpeg', '-af', 'volume=0.5, aresample', 'a b', 'c\\', 'd']);
    expect(() => splitWords('ffmpeg "open')).toThrow(/unclosed quote/);
  });

  it('reads settings as the dashboard stores them, with defaults', () => {
    expect(decodeSettingsOf(null)).toEqual({ isPlayDecode: false, cacheEntries: 50, command: DEFAULT_DECODE_COMMAND });
    expect(decodeSettingsOf({ is_play_decode: '1', decode_cache_num: '0', decode_command: ' ffmpeg -i %s -f ogg - ' })).toEqual({
      isPlayDecode: true,
      cacheEntries: 0,
      command: 'ffmpeg -i %s -f ogg -',
    });
    expect(decodeSettingsOf({ is_play_decode: '0', decode_cache_num: 'x' }).cacheEntries).toBe(50);
  });
});

describe('limiter', () => {
  it('queues up to the timeout, hands slots over in order, then says busy', async () => {
    const l = new Limiter(1);
    const first = await l.acquire(0);
    await expect(l.acquire(0)).rejects.toMatchObject({ code: 'TAGSONIC_ERR_TRANSCODE_BUSY', kind: 'unavailable' });
    const order: number[] = [];
    const a = l.acquire(1000).then((r) => (order.push(1), r));
    const b = l.acquire(1000).then((r) => (order.push(2), r));
    const late = l.acquire(20);
    expect(l.queued).toBe(3);
    await expect(late).rejects.toThrow(/busy/);
    first();
    first(); // a second release of the same slot changes nothing
    const ra = await a;
    expect(l.active).toBe(1);
    ra();
    (await b)();
    expect(order).toEqual([1, 2]);
    expect(l.active).toBe(0);
  });
});
